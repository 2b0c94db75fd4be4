package org.sievecrawler.progress;

import java.util.Locale;
import org.sievecrawler.profile.ProfileUnits;

/**
 * One progress line, in a stable {@code key=value} form that grep and awk can read, e.g.
 * {@code fetched=12034 rate=2510/s avg=2400/s queued=8123 seen~20155 fpr=0.02% fallback=0.3% hosts=3 active=16/16
 * errors=12 robots-refused=4 bytes=140MB elapsed=5s}. {@code rate} is over the last interval, {@code avg} over the
 * crawl.
 *
 * @param fetched responses received
 * @param ratePerSecond responses per second over the last interval
 * @param averagePerSecond responses per second since the start
 * @param queued URLs pending in the Sieve
 * @param seen the Sieve's estimate of distinct URLs seen
 * @param falsePositiveRate the Sieve's false-positive rate now
 * @param fallbackShare the share of the HTML pages parsed so far that the byte scanner left to jsoup
 * @param hosts hosts seen
 * @param active requests in flight
 * @param threads fetcher threads
 * @param errors URLs that ended in an error
 * @param robotsRefused URLs refused by robots.txt
 * @param bytes body bytes read
 * @param elapsedSeconds seconds since the start
 */
public record ProgressLine(long fetched, long ratePerSecond, long averagePerSecond, long queued, long seen,
        double falsePositiveRate, double fallbackShare, int hosts, int active, int threads, long errors,
        long robotsRefused, long bytes, long elapsedSeconds) {

    @Override
    public String toString() {
        return String.format(Locale.ROOT,
                "fetched=%d rate=%d/s avg=%d/s queued=%d seen~%d fpr=%s%% fallback=%.1f%% hosts=%d active=%d/%d"
                        + " errors=%d robots-refused=%d bytes=%s elapsed=%ds",
                fetched, ratePerSecond, averagePerSecond, queued, seen, percent(falsePositiveRate),
                fallbackShare * 100, hosts, active,
                threads, errors, robotsRefused, megabytes(bytes), elapsedSeconds);
    }

    private static String percent(double rate) {
        double p = rate * 100;
        return p >= 0.1 || p == 0 ? String.format(Locale.ROOT, "%.2f", p) : String.format(Locale.ROOT, "%.2g", p);
    }

    /**
     * Bytes as whole megabytes, e.g. "140MB"; below 1 MB in kilobytes, e.g. "512KB"; in the units of profiles,
     * 1 MB = 1024² bytes ({@link ProfileUnits#roundedSize}).
     */
    static String megabytes(long bytes) {
        return ProfileUnits.roundedSize(bytes);
    }
}
