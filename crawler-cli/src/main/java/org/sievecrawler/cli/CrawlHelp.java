package org.sievecrawler.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.ListResourceBundle;
import org.sievecrawler.profile.ProfileKey;
import org.sievecrawler.profile.ProfileKeys;

/**
 * The help of {@code crawler crawl} that comes from the table of profile keys: each shorthand option's
 * description (looked up by its {@code descriptionKey}, the key's dotted name) with the key's default, and a footer
 * listing every key {@code --set} takes with its default. A picocli resource bundle; immutable.
 */
public final class CrawlHelp extends ListResourceBundle {
    /** Starts each key's entry, so that no option's own name (picocli's fallback lookup) meets one. */
    static final String KEY_PREFIX = "key.";

    @Override
    protected Object[][] getContents() {
        List<Object[]> contents = new ArrayList<>();
        StringBuilder footer = new StringBuilder("%nProfile keys for --set KEY=VALUE, with their defaults"
                + " (config/default.yaml says what each means):%n");
        for (ProfileKey<?> key : ProfileKeys.all()) {
            contents.add(new Object[] {KEY_PREFIX + key.name(), escape(key.summary() + " Default: " + key.defaultText() + " ("
                    + key.name() + ").")});
            footer.append(escape(String.format("  %-38s %s", key.name(), key.defaultText()))).append("%n");
        }
        contents.add(new Object[] {"usage.footer", footer.toString()});
        return contents.toArray(Object[][]::new);
    }

    /** Text as picocli prints it through {@link String#format}: a literal '%' doubled. */
    private static String escape(String text) {
        return text.replace("%", "%%");
    }
}
