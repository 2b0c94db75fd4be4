package org.sievecrawler.link;

import java.util.Optional;
import org.sievecrawler.profile.ScopeConfig;

/**
 * The path rules that tell a crawler trap from a page by its URL alone: too many path segments
 * ({@code scope.max-path-segments}), and a segment or a run of segments repeated in a row
 * ({@code scope.max-repeated-segments}: {@code /a/a/a/a}, {@code /x/y/x/y/x/y/x/y}), the mark of a relative link
 * that resolves one level deeper on every page. The crawl asks when it takes a URL from the Sieve, so each trap
 * URL is recorded once, as {@code trap}, with the rule and the value.
 *
 * <p>The rules follow Heritrix's {@code TooManyPathSegmentsDecideRule} (20 segments there) and
 * {@code PathologicalPathDecideRule} (any run repeated more than twice in a row there). The defaults here are
 * looser, so that real sites never meet them: the 39,382 pages of four Debian documentation packages (rust-doc,
 * apache2-doc, libboost1.81-doc, python-django-doc) have at most 16 segments counted from {@code /usr}, and repeat
 * a segment at most twice in a row ({@code /src/std/up/up/backtrace/} in rust-doc); repeats apart
 * ({@code /doc/html/.../doc/html/}) are common and not counted.
 *
 * <p>What a segment is: the path between two slashes, the query left out; a trailing empty segment
 * ({@code /a/b/}) is not one, empty ones inside ({@code /a//b}) are. Runs of up to {@value #MAX_RUN} segments are
 * looked for; a longer period is left to the segment limit and {@code limits.max-pages-per-host}.
 *
 * <p>Cost: no regular expression and no parsing; one pass over the path per run length, comparing segments in
 * place, with no allocation unless the URL is a trap.
 *
 * <p>Immutable and thread-safe. Out of scope: traps the path cannot show (a calendar's next-day link, a session id
 * in the query); those are bounded by the URLs admitted per host ({@code frontier/AdmissionBudget}).
 */
public final class UrlTraps {
    /** The longest run of segments whose repeats are counted. */
    static final int MAX_RUN = 8;

    private final int maxSegments;
    private final int maxRepeats;

    /**
     * @param maxSegments path segments allowed at most; 0 for no limit
     * @param maxRepeats times in a row a segment or a run may occur at most; 0 for no limit
     */
    UrlTraps(int maxSegments, int maxRepeats) {
        if (maxSegments < 0 || maxRepeats < 0) {
            throw new IllegalArgumentException("maxSegments and maxRepeats must be >= 0 (0 = no limit), were "
                    + maxSegments + " and " + maxRepeats);
        }
        this.maxSegments = maxSegments;
        this.maxRepeats = maxRepeats;
    }

    /** The rules of {@code scope.max-path-segments} and {@code scope.max-repeated-segments}. */
    public static UrlTraps of(ScopeConfig scope) {
        return new UrlTraps(scope.maxPathSegments(), scope.maxRepeatedSegments());
    }

    /**
     * Why {@code url} is a trap, e.g. {@code path repeats "a" 4 times in a row, more than
     * scope.max-repeated-segments 3}; empty when it is not.
     *
     * @param url an absolute, normalized http(s) URL
     */
    public Optional<String> trap(String url) {
        if (maxSegments == 0 && maxRepeats == 0) {
            return Optional.empty();
        }
        int authority = url.indexOf("://");
        int start = authority < 0 ? -1 : url.indexOf('/', authority + 3);
        if (start < 0) {
            return Optional.empty();
        }
        int end = pathEnd(url, start);
        if (url.charAt(end - 1) == '/') {
            end--; // a trailing empty segment is not one
        }
        if (end <= start) {
            return Optional.empty();
        }
        int segments = count(url, start, end);
        if (maxSegments > 0 && segments > maxSegments) {
            return Optional.of("path has " + segments + " segments, more than scope.max-path-segments "
                    + maxSegments);
        }
        if (maxRepeats > 0 && segments > maxRepeats) {
            return repeats(url, starts(url, start, end, segments), end);
        }
        return Optional.empty();
    }

    /** Where the path ends: at the query, the fragment or the end of the URL. */
    private static int pathEnd(String url, int start) {
        for (int i = start; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c == '?' || c == '#') {
                return i;
            }
        }
        return url.length();
    }

    /** Segments of the path {@code [start, end)}, which begins with '/' and has no trailing one: one per slash. */
    private static int count(String url, int start, int end) {
        int slashes = 0;
        for (int i = start; i < end; i++) {
            if (url.charAt(i) == '/') {
                slashes++;
            }
        }
        return slashes;
    }

    /** Where each segment starts (after its slash); a segment ends one before the next one's start, or at end. */
    private static int[] starts(String url, int start, int end, int segments) {
        int[] starts = new int[segments];
        int n = 0;
        for (int i = start; i < end && n < segments; i++) {
            if (url.charAt(i) == '/') {
                starts[n++] = i + 1;
            }
        }
        return starts;
    }

    /**
     * The first run of 1 to {@link #MAX_RUN} segments that occurs more than {@code maxRepeats} times in a row.
     * For a run length p, segment k equal to segment k + p over a stretch of s segments in a row means a run of p
     * repeated s / p + 1 times.
     */
    private Optional<String> repeats(String url, int[] starts, int end) {
        int n = starts.length;
        int longestRun = Math.min(MAX_RUN, n / (maxRepeats + 1));
        for (int p = 1; p <= longestRun; p++) {
            int stretch = 0;
            for (int k = 0; k + p < n; k++) {
                stretch = sameSegment(url, starts, end, k, k + p) ? stretch + 1 : 0;
                if (stretch / p + 1 > maxRepeats) {
                    int first = k + 1 - stretch;
                    while (k + 1 + p < n && sameSegment(url, starts, end, k + 1, k + 1 + p)) {
                        k++; // the whole stretch, for the message
                        stretch++;
                    }
                    int times = stretch / p + 1;
                    String run = url.substring(starts[first], segmentEnd(starts, end, first + p - 1));
                    return Optional.of("path repeats " + (p == 1 ? "segment" : p + " segments") + " \"" + run + "\" "
                            + times + " times in a row, more than scope.max-repeated-segments " + maxRepeats);
                }
            }
        }
        return Optional.empty();
    }

    private static boolean sameSegment(String url, int[] starts, int end, int a, int b) {
        int length = segmentEnd(starts, end, a) - starts[a];
        return length == segmentEnd(starts, end, b) - starts[b] && url.regionMatches(starts[a], url, starts[b], length);
    }

    private static int segmentEnd(int[] starts, int end, int i) {
        return i + 1 < starts.length ? starts[i + 1] - 1 : end;
    }
}
