package org.sievecrawler.learn;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.sievecrawler.escape.ControlCharacters;

/**
 * A rule the crawl learned from the pages it fetched of one host (issue 30), applied to that host's URLs before the
 * Sieve sees them (a rewrite) or before they are fetched (a refusal).
 *
 * @param kind what the rule does
 * @param host the host (and port, when not the scheme's default) it applies to, as {@link UrlTemplate#host()}
 * @param template the {@link UrlTemplate#pattern()} whose URLs it applies to; empty for a rule of the whole host
 *     ({@link Kind#ALIAS_PARAM}, {@link Kind#ALIAS_SEGMENT})
 * @param name the parameter ({@code sid}; a path parameter with its {@code ;}: {@code ;jsessionid}) or the path
 *     segment ({@code print}) it drops; empty for {@link Kind#SKIP_TEMPLATE}
 * @param position the index of the path segment an {@link Kind#ALIAS_SEGMENT} drops (0 for the first); -1 otherwise
 * @param pages the evidence: pages (or pairs of pages) it was learned from
 * @param nearDuplicates how many of those were near-duplicates
 */
public record Rule(Kind kind, String host, String template, String name, int position, int pages,
        int nearDuplicates) {

    /** What a rule does to a URL of its host. */
    public enum Kind {
        /** A parameter of a template whose values never change the page: dropped from the template's URLs. */
        DROP_PARAM,
        /** A template whose pages are (nearly) all near-duplicates of each other: its URLs are not fetched. */
        SKIP_TEMPLATE,
        /** A parameter whose presence does not change the page ({@code ?print=1}): dropped from the host's URLs. */
        ALIAS_PARAM,
        /** A path segment whose presence does not change the page ({@code /print/...}): dropped from the host's URLs. */
        ALIAS_SEGMENT;

        /** The kebab-case label, e.g. "drop-param", as rules.jsonl writes it. */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public Rule {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(name, "name");
    }

    /** Whether it refuses URLs (rather than rewriting them to another URL). */
    public boolean refuses() {
        return kind == Kind.SKIP_TEMPLATE;
    }

    /**
     * What the rule says, for the log ({@code learned: } before it) and a refused URL's record, with the control
     * characters of the network's text escaped: e.g. {@code ?sid= does not change content on host example.org
     * (40 of 40 pages near-duplicate); dropping it}.
     */
    public String describe() {
        String evidence = " (" + nearDuplicates + " of " + pages + " pages near-duplicate)";
        String text = switch (kind) {
            case DROP_PARAM -> param() + " does not change content on host " + host + " in " + template + evidence
                    + "; dropping it";
            case SKIP_TEMPLATE -> template + " yields only near-duplicates on host " + host + evidence
                    + "; not fetching it";
            case ALIAS_PARAM -> param() + " is an alias on host " + host + ": a page with it is the page without it"
                    + evidence + "; dropping it";
            case ALIAS_SEGMENT -> "/" + name + "/... is an alias of /... on host " + host + " (path segment "
                    + (position + 1) + ")" + evidence + "; dropping it";
        };
        return ControlCharacters.escape(text);
    }

    /**
     * The error of the record of a URL the rule refused (outcome {@code trap}): {@value #TRAP_ERROR} and
     * {@link #describe()}, as the report reads it back.
     */
    public String trapError() {
        return TRAP_ERROR + describe();
    }

    /**
     * The error of the record of a URL the rule rewrote to {@code url}, followed instead (outcome {@code trap}):
     * {@link #trapError()}, {@value #FOLLOWED_AS} and {@code url}.
     */
    public String trapError(String url) {
        return trapError() + FOLLOWED_AS + url;
    }

    /** How the error of a record of a URL refused by a rule starts; the rule's {@link #describe()} follows. */
    public static final String TRAP_ERROR = "learned rule: ";
    /** What follows the rule's text in the error of a URL it rewrote: the URL followed instead. */
    public static final String FOLLOWED_AS = "; followed as ";

    /**
     * The text of the rule a trap record's {@code error} names ({@link #trapError()}, {@link #trapError(String)}),
     * or empty when it names none.
     */
    public static Optional<String> namedBy(String error) {
        if (error == null || !error.startsWith(TRAP_ERROR)) {
            return Optional.empty();
        }
        // the URL followed, normalized, holds no space: the last one is ours (nor does a rule's template)
        int followed = error.lastIndexOf(FOLLOWED_AS);
        return Optional.of(error.substring(TRAP_ERROR.length(), followed >= TRAP_ERROR.length() ? followed
                : error.length()));
    }

    /** The parameter as a user writes it: {@code ?sid=}, {@code ;jsessionid=}. */
    private String param() {
        return (name.startsWith(";") ? name : "?" + name) + "=";
    }

    @Override
    public String toString() {
        return describe();
    }
}
