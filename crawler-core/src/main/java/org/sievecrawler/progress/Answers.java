package org.sievecrawler.progress;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.sievecrawler.sink.Outcome;

/**
 * What the site answered, counted over URLs: the head of the final line and of summary.json, and audit.json's
 * {@code stats}. Immutable.
 *
 * @param decided URLs decided (records)
 * @param pages URLs that answered with content: outcomes {@code fetched}, {@code truncated} and {@code not-html},
 *     and a recrawl's {@code not-modified} (its content the earlier crawl's)
 * @param redirects URLs that redirected: outcome {@code redirect}
 * @param httpErrors URLs that ended with a 4xx or 5xx: outcome {@code http-error}
 * @param httpErrorsByStatus the 4xx and 5xx statuses received, ascending, with their counts
 * @param failed URLs that ended without an answer: outcomes {@code error} and {@code unreachable}
 * @param responses every answer received (a missing sitemap probe's aside, see {@link Outcome#NO_SITEMAP})
 */
public record Answers(long decided, long pages, long redirects, long httpErrors, Map<Integer, Long> httpErrorsByStatus,
        long failed, long responses) {
    public Answers {
        httpErrorsByStatus = Collections.unmodifiableMap(new TreeMap<>(httpErrorsByStatus));
    }

    /** The answers of {@code outcomes} (by label) and {@code statuses} (responses by status). */
    public static Answers of(long decided, Map<String, Long> outcomes, Map<Integer, Long> statuses, long responses) {
        return new Answers(decided, count(outcomes, Outcome.FETCHED) + count(outcomes, Outcome.TRUNCATED)
                + count(outcomes, Outcome.NOT_HTML) + count(outcomes, Outcome.NOT_MODIFIED),
                count(outcomes, Outcome.REDIRECT),
                count(outcomes, Outcome.HTTP_ERROR), new TreeMap<>(statuses).tailMap(400),
                count(outcomes, Outcome.ERROR) + count(outcomes, Outcome.UNREACHABLE), responses);
    }

    private static long count(Map<String, Long> outcomes, Outcome outcome) {
        return outcomes.getOrDefault(outcome.label(), 0L);
    }

    /**
     * The line's words, e.g. {@code decided=771 pages=693 redirects=0 http-errors=78 (404: 78) failed=0
     * responses=771}; the statuses in parentheses only when there is an HTTP error.
     */
    public String words() {
        StringBuilder byStatus = new StringBuilder();
        httpErrorsByStatus.forEach((status, count) -> byStatus.append(byStatus.length() == 0 ? " (" : ", ")
                .append(status).append(": ").append(count));
        if (byStatus.length() > 0) {
            byStatus.append(')');
        }
        return String.format(Locale.ROOT, "decided=%d pages=%d redirects=%d http-errors=%d%s failed=%d responses=%d",
                decided, pages, redirects, httpErrors, byStatus, failed, responses);
    }
}
