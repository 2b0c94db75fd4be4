package org.sievecrawler.progress;

import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import org.sievecrawler.profile.ProfileUnits;

/**
 * One progress line, in a stable {@code key=value} form that grep and awk can read, e.g.
 * {@code fetched=12034 rate=2510/s avg=2400/s queued=8123 seen~20155 fpr=0.02% fallback=0.3% hosts=3 active=16/16
 * errors=12 retries=8 robots-refused=4 bytes=140MB elapsed=5s}. {@code rate} is over the last interval, {@code avg}
 * over this run of the crawl (since its start or its resume); both show decimals below 10/s ({@code rate=0.25/s},
 * {@code rate=3.4/s}) so a polite crawl does not read 0.
 *
 * <p>{@code errors} counts failed attempts, not URLs: every request (of a page or a robots.txt) that got no usable
 * answer (a network error, a timeout, a 429, 502, 503 or 504; for robots.txt any 5xx), whether or not it was
 * tried again. {@code retries} counts those the crawl tried again later, after a backoff. So a URL that failed
 * twice and then succeeded adds 2 to both; one that failed three times and was given up adds 3 to errors and 2
 * to retries (with {@code fetch.retries} 2). A request sent again at once because its pooled connection had been
 * closed by the server is neither (summary.json counts it in {@code reconnects}) unless it fails again. The URLs
 * that ended without an answer are in summary.json's outcomes ({@code error}, {@code unreachable}).
 *
 * <p>{@code over-host-budget} is written only when some URL was refused at admission because its host's budget
 * ({@code limits.max-pages-per-host}) was spent, after {@code robots-refused}.
 *
 * <p>{@code bad-records} is written only by a crawl that reads its URLs from records others write (the records it
 * refused as bad, after {@code robots-refused}); a crawl whose frontier is its own has none.
 *
 * @param fetched responses received
 * @param ratePerSecond responses per second over the last interval
 * @param averagePerSecond responses per second in this run: since the start, or the resume
 * @param queued URLs pending in the Sieve
 * @param seen the Sieve's estimate of distinct URLs seen
 * @param falsePositiveRate the Sieve's false-positive rate now
 * @param fallbackShare the share of the HTML pages parsed so far that the byte scanner left to jsoup
 * @param hosts hosts seen
 * @param active requests in flight
 * @param threads fetcher threads
 * @param errors failed attempts (requests without a usable answer), retried or not
 * @param retries failed attempts the crawl made again after a backoff
 * @param robotsRefused URLs refused by robots.txt
 * @param bytes body bytes read
 * @param elapsedSeconds seconds since the start
 * @param badRecords records read from outside and refused as bad; empty when the crawl reads no records
 * @param overHostBudget URLs new to the Sieve refused at admission because their host's budget was spent
 *     ({@code limits.max-pages-per-host}; summary.json's {@code linkRejections.over-host-budget}); written only when
 *     not 0
 */
public record ProgressLine(long fetched, double ratePerSecond, double averagePerSecond, long queued, long seen,
        double falsePositiveRate, double fallbackShare, int hosts, int active, int threads, long errors,
        long retries, long robotsRefused, long bytes, long elapsedSeconds, OptionalLong badRecords,
        long overHostBudget) {

    public ProgressLine {
        Objects.requireNonNull(badRecords, "badRecords");
    }

    /** A line without URLs over their host's budget. */
    public ProgressLine(long fetched, double ratePerSecond, double averagePerSecond, long queued, long seen,
            double falsePositiveRate, double fallbackShare, int hosts, int active, int threads, long errors,
            long retries, long robotsRefused, long bytes, long elapsedSeconds, OptionalLong badRecords) {
        this(fetched, ratePerSecond, averagePerSecond, queued, seen, falsePositiveRate, fallbackShare, hosts, active,
                threads, errors, retries, robotsRefused, bytes, elapsedSeconds, badRecords, 0);
    }

    /** The line of a crawl that reads no records: no {@code bad-records}. */
    public ProgressLine(long fetched, double ratePerSecond, double averagePerSecond, long queued, long seen,
            double falsePositiveRate, double fallbackShare, int hosts, int active, int threads, long errors,
            long retries, long robotsRefused, long bytes, long elapsedSeconds) {
        this(fetched, ratePerSecond, averagePerSecond, queued, seen, falsePositiveRate, fallbackShare, hosts, active,
                threads, errors, retries, robotsRefused, bytes, elapsedSeconds, OptionalLong.empty());
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT,
                "fetched=%d rate=%s/s avg=%s/s queued=%d seen~%d fpr=%s%% fallback=%.1f%% hosts=%d active=%d/%d"
                        + " errors=%d retries=%d robots-refused=%d%s%s bytes=%s elapsed=%ds",
                fetched, rate(ratePerSecond), rate(averagePerSecond), queued, seen, percent(falsePositiveRate),
                fallbackShare * 100, hosts, active,
                threads, errors, retries, robotsRefused,
                overHostBudget > 0 ? " over-host-budget=" + overHostBudget : "",
                badRecords.isPresent() ? " bad-records=" + badRecords.getAsLong() : "", megabytes(bytes),
                elapsedSeconds);
    }

    /** A rate per second: whole above 10 ("2510"), one decimal below ("3.4"), two below 1 ("0.25"), and "0". */
    public static String rate(double perSecond) {
        if (perSecond >= 9.95) {
            return String.format(Locale.ROOT, "%.0f", perSecond);
        }
        if (perSecond >= 0.995) {
            return String.format(Locale.ROOT, "%.1f", perSecond);
        }
        return perSecond > 0 ? String.format(Locale.ROOT, "%.2f", perSecond) : "0";
    }

    /**
     * A share as a percentage without the sign: two decimals ("1.25", "0.00"), two significant digits below 0.1 %
     * ("0.020").
     */
    public static String percent(double rate) {
        double p = rate * 100;
        return p >= 0.1 || p == 0 ? String.format(Locale.ROOT, "%.2f", p) : String.format(Locale.ROOT, "%.2g", p);
    }

    /**
     * Bytes as whole megabytes, e.g. "140MB"; below 1 MB in kilobytes, e.g. "512KB"; in the units of profiles,
     * 1 MB = 1024² bytes ({@link ProfileUnits#roundedSize}).
     */
    public static String megabytes(long bytes) {
        return ProfileUnits.roundedSize(bytes);
    }
}
