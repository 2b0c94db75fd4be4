package org.sievecrawler.changes;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/**
 * What happened to one URL between an earlier crawl and a recrawl ({@code crawl --since}), from its record in each;
 * its label is the {@code change} of a changes.jsonl line. The rule, {@link #of}, the first that applies:
 * <ol>
 *   <li>only in the new crawl: {@link #NEW}; only in the earlier one: {@link #NOT_VISITED};</li>
 *   <li>the new record's outcome is {@code not-modified} (a 304): {@link #NOT_MODIFIED};</li>
 *   <li>the new status is 404 or 410 and the earlier one was neither: {@link #GONE};</li>
 *   <li>the new record is a redirect: {@link #UNCHANGED} if the earlier one redirected to the same
 *       {@code redirectTo}, else {@link #MOVED};</li>
 *   <li>the new record has no answer (unreachable, error) or was refused (robots-disallowed, trap, out-of-scope)
 *       while the earlier one had an answer (a status): {@link #UNREACHABLE};</li>
 *   <li>both records have a payload digest: {@link #UNCHANGED} if they are equal (a 200 with the same body), else
 *       {@link #CHANGED};</li>
 *   <li>otherwise {@link #UNCHANGED} when status and outcome are the same, else {@link #CHANGED}.</li>
 * </ol>
 * A page 404 in both crawls is so {@code unchanged} by the last rule; a not-modified page of the earlier crawl (a
 * recrawl chain) carries its digest, so rule 6 compares it with today's body.
 */
public enum Change {
    /** In the new crawl only: found through a link (or a new seed). */
    NEW,
    /** In both, with another body, status or outcome. */
    CHANGED,
    /** In both, the same: the same payload digest, or the same status and outcome, or the same redirect. */
    UNCHANGED,
    /** The conditional request was answered 304 Not Modified. */
    NOT_MODIFIED,
    /** 404 or 410 now, something else before. */
    GONE,
    /** A redirect now, to another target than before (or not a redirect before). */
    MOVED,
    /** No answer now (or refused: robots.txt, a trap, out of scope), an answer before. */
    UNREACHABLE,
    /**
     * In the earlier crawl only: the new crawl ended before it reached the URL (a limit, a stop). Counted, never
     * dropped.
     */
    NOT_VISITED;

    /** Outcomes of a record without an answer from the server. */
    private static final Set<Outcome> NO_ANSWER = Set.of(Outcome.UNREACHABLE, Outcome.ERROR,
            Outcome.ROBOTS_DISALLOWED, Outcome.TRAP, Outcome.OUT_OF_SCOPE);

    private final String label = name().toLowerCase(Locale.ROOT).replace('_', '-');
    private final String key = camel(name());

    /** The kebab-case label of changes.jsonl, e.g. "not-modified". */
    public String label() {
        return label;
    }

    /** The camelCase key of summary.json's {@code changes}, e.g. "notModified". */
    public String key() {
        return key;
    }

    /**
     * The change of a URL whose record in the earlier crawl is {@code earlier} and in the new one {@code now}
     * (either null when that crawl has none, not both).
     */
    public static Change of(PageRecord earlier, PageRecord now) {
        if (earlier == null) {
            return NEW;
        }
        if (now == null) {
            return NOT_VISITED;
        }
        if (now.outcome() == Outcome.NOT_MODIFIED) {
            return NOT_MODIFIED;
        }
        if (gone(now.status()) && !gone(earlier.status())) {
            return GONE;
        }
        if (now.outcome() == Outcome.REDIRECT) {
            return earlier.outcome() == Outcome.REDIRECT && Objects.equals(earlier.redirectTo(), now.redirectTo())
                    ? UNCHANGED : MOVED;
        }
        if (NO_ANSWER.contains(now.outcome()) && earlier.status() > 0) {
            return UNREACHABLE;
        }
        if (now.digest() != null && earlier.digest() != null) {
            return now.digest().equals(earlier.digest()) ? UNCHANGED : CHANGED;
        }
        return now.status() == earlier.status() && now.outcome() == earlier.outcome() ? UNCHANGED : CHANGED;
    }

    /**
     * The change labelled {@code label}.
     *
     * @throws IllegalArgumentException naming the label when no change has it
     */
    public static Change fromLabel(String label) {
        for (Change change : values()) {
            if (change.label.equals(label)) {
                return change;
            }
        }
        throw new IllegalArgumentException("unknown change \"" + label + "\"");
    }

    private static boolean gone(int status) {
        return status == 404 || status == 410;
    }

    private static String camel(String name) {
        StringBuilder key = new StringBuilder();
        for (String word : name.toLowerCase(Locale.ROOT).split("_")) {
            key.append(key.length() == 0 ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
        }
        return key.toString();
    }
}
