package org.sievecrawler.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.ListResourceBundle;
import org.sievecrawler.profile.ProfileKey;
import org.sievecrawler.profile.ProfileKeys;

/**
 * The help of {@code crawler crawl} that comes from the table of profile keys: each shorthand option's
 * description (looked up by its {@code descriptionKey}, the key's dotted name) with its default, the profile's value
 * of the key or else the key's built-in default ({@code --out}: the profile's output.dir, else crawl-out), a footer
 * listing every key {@code --set} takes with its built-in default, and {@code --resume}'s, naming the keys a resume
 * may change. A picocli resource bundle; immutable.
 */
public final class CrawlHelp extends ListResourceBundle {
    /** Starts each key's entry, so that no option's own name (picocli's fallback lookup) meets one. */
    static final String KEY_PREFIX = "key.";
    /** The entry of {@code --resume}'s description, which names the keys a resume may change. */
    static final String RESUME = "crawl.resume";

    @Override
    protected Object[][] getContents() {
        List<Object[]> contents = new ArrayList<>();
        StringBuilder footer = new StringBuilder("%nProfile keys for --set KEY=VALUE, with their defaults"
                + " (config/default.yaml says what each means):%n");
        for (ProfileKey<?> key : ProfileKeys.all()) {
            // a shorthand's default is the profile's value: the built-in one only without --profile
            contents.add(new Object[] {KEY_PREFIX + key.name(), escape(key.summary() + " Default: the profile's "
                    + key.name() + ", else " + key.defaultText() + ".")});
            footer.append(escape(String.format("  %-38s %s", key.name(), key.defaultText()))).append("%n");
        }
        contents.add(new Object[] {"usage.footer", footer.toString()});
        contents.add(new Object[] {RESUME, escape("Continue the stopped or killed crawl in DIR, with the seeds and"
                + " profile it was started with. A resume may change " + ProfileKeys.mayChangeOnResume()
                + " (e.g. --delay 0.2s --threads 8; --max-pages N extends a crawl that stopped at its max-pages);"
                + " the other keys are fixed for a crawl.")});
        return contents.toArray(Object[][]::new);
    }

    /** Text as picocli prints it through {@link String#format}: a literal '%' doubled. */
    private static String escape(String text) {
        return text.replace("%", "%%");
    }
}
