package org.sievecrawler.profile;

import java.util.List;

/**
 * Writes a {@link CrawlProfile} as YAML with every key filled in, in the order, units and names of the table of
 * {@link ProfileKeys}: what {@code crawler profile check FILE} prints and a checkpoint keeps, and what
 * {@link ProfileLoader} reads back to an equal profile; and {@code config/default.yaml}, the defaults with each key's
 * meaning as a comment ({@link #documentedDefaults()}). Stateless and thread-safe.
 */
public final class ProfileYaml {
    /** The width comments are wrapped to in config/default.yaml. */
    private static final int WIDTH = 116;

    private static final String HEADER = """
            # Sieve Crawler: the built-in profile. Every key, its meaning and its default.
            #
            # A profile you write needs only the keys it changes: every key it leaves out takes the value below
            # (this file is built into the jar and is what `crawler crawl` uses without --profile).
            # `extends: FILE` (a path relative to the profile) starts from another profile instead: maps merge key by
            # key and the child wins; lists are replaced, not concatenated; `name` is not inherited.
            # On the command line, `crawler crawl --set KEY=VALUE` sets any key below, e.g.
            # --set politeness.max-connections-per-host=4, --set 'scope.exclude=[/calendar/, "[?&]q="]'.
            #
            # Durations: 500ms, 1.5s, 10s, 2m, 1h, 1d; a bare number is seconds (2 = 2s).
            # Sizes: 512KB, 10MB, 1GB (1KB = 1024 bytes, 1MB = 1024 KB) or a number of bytes.
            # Lists: [a, b] or one item per line (- a); a single value is a list of one.
            # Check a profile and see every value it ends with: crawler profile check FILE
            """;

    /** The file {@link #documentedDefaults()} is kept in, from the project's root. */
    public static final String DEFAULT_YAML = "config/default.yaml";

    private ProfileYaml() {
    }

    /** The profile as YAML text, ending with a newline; lists one item a line. */
    public static String write(CrawlProfile profile) {
        StringBuilder out = new StringBuilder();
        String group = "";
        for (ProfileKey<?> key : ProfileKeys.all()) {
            group = groupLine(out, group, key);
            entry(out, key, profile, false);
        }
        return out.toString();
    }

    /** {@code config/default.yaml}: the defaults, each group and key under its comment, lists in flow form. */
    public static String documentedDefaults() {
        CrawlProfile defaults = CrawlProfile.defaults();
        StringBuilder out = new StringBuilder(HEADER);
        String group = "";
        for (ProfileKey<?> key : ProfileKeys.all()) {
            if (!key.group().equals(group)) {
                out.append('\n');
                comment(out, "", ProfileKeys.groups().get(key.group()) + " " + ProfileKeys.onResumeNote(key.group()),
                        "");
            } else if (key.group().isEmpty()) {
                out.append('\n');
            }
            group = groupLine(out, group, key);
            String indent = key.group().isEmpty() ? "" : "  ";
            int given = key.doc().indexOf(" Default: ");
            comment(out, indent, given < 0 ? key.doc() : key.doc().substring(0, given),
                    given < 0 ? "Default: " + key.defaultText() : key.doc().substring(given + 1));
            entry(out, key, defaults, true);
        }
        return out.toString();
    }

    private static String groupLine(StringBuilder out, String group, ProfileKey<?> key) {
        if (!key.group().isEmpty() && !key.group().equals(group)) {
            out.append(key.group()).append(":\n");
        }
        return key.group();
    }

    private static <T> void entry(StringBuilder out, ProfileKey<T> key, CrawlProfile profile, boolean flow) {
        String indent = key.group().isEmpty() ? "" : "  ";
        T value = key.valueIn(profile);
        out.append(indent).append(key.leaf()).append(':');
        if (key.type() instanceof KeyType.ListOf<?> list && !flow && !((List<?>) value).isEmpty()) {
            out.append('\n');
            for (Object item : (List<?>) value) {
                out.append(indent).append("  - ").append(writeItem(list, item)).append('\n');
            }
            return;
        }
        out.append(' ').append(key.write(value)).append('\n');
    }

    @SuppressWarnings("unchecked")
    private static <E> String writeItem(KeyType.ListOf<E> list, Object item) {
        return list.item().write((E) item);
    }

    /**
     * {@code text} as comment lines of at most {@link #WIDTH} characters, then {@code tail} (the default) at the end
     * of the last line if it fits there whole, else on a line of its own.
     */
    private static void comment(StringBuilder out, String indent, String text, String tail) {
        StringBuilder line = new StringBuilder(indent).append('#');
        for (String word : text.split(" ")) {
            if (line.length() + 1 + word.length() > WIDTH && line.length() > indent.length() + 1) {
                out.append(line).append('\n');
                line = new StringBuilder(indent).append('#');
            }
            line.append(' ').append(word);
        }
        if (!tail.isEmpty() && line.length() + 1 + tail.length() > WIDTH) {
            out.append(line).append('\n');
            line = new StringBuilder(indent).append('#');
        }
        out.append(tail.isEmpty() ? line : line.append(' ').append(tail)).append('\n');
    }

    /** A YAML double-quoted scalar; its escapes are JSON's, which YAML shares. */
    static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
