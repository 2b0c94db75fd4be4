package org.sievecrawler.sieve;

import java.util.Locale;

/**
 * The sizing of a Bloom filter for n expected URLs at a target false-positive rate p:
 * m = ⌈-n·ln p / (ln 2)²⌉ bits and k = max(1, round((m/n)·ln 2)) hash positions per URL, with the memory
 * that takes and the false-positive rate once n, 2n and 4n distinct URLs are in it,
 * p(x) = (1 - e<sup>-kx/m</sup>)<sup>k</sup>.
 *
 * <p>For n = 10<sup>9</sup> and p = 10<sup>-4</sup> that is 1.92·10<sup>10</sup> bits (2.4 GB) and k = 13:
 * about 19 bits per URL, whatever the URL's length.
 *
 * @param expectedInsertions n, the number of distinct URLs the filter is sized for
 * @param falsePositiveRate p, the target false-positive rate at n
 * @param bits m
 * @param hashCount k
 */
public record SievePlan(long expectedInsertions, double falsePositiveRate, long bits, int hashCount)
        implements FilterPlan {

    /** The largest filter this crawler builds: 2^40 bits, 128 GiB. */
    static final long MAX_BITS = 1L << 40;

    private static final double LN2 = Math.log(2);

    public SievePlan {
        validate(expectedInsertions, falsePositiveRate);
        if (bits < 1 || bits > MAX_BITS) {
            throw new IllegalArgumentException("bits must be in [1, 2^40], was " + bits);
        }
        if (hashCount < 1 || hashCount > 255) {
            throw new IllegalArgumentException("hashCount must be in [1, 255], was " + hashCount);
        }
    }

    /**
     * The optimal plan for {@code expectedInsertions} URLs at {@code falsePositiveRate}.
     *
     * @throws IllegalArgumentException naming the argument and its value when n &lt; 1, p is not in (0, 1),
     *     or the filter would exceed {@link #MAX_BITS}
     */
    public static SievePlan of(long expectedInsertions, double falsePositiveRate) {
        validate(expectedInsertions, falsePositiveRate);
        double m = Math.ceil(-expectedInsertions * Math.log(falsePositiveRate) / (LN2 * LN2));
        if (m > MAX_BITS) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "expectedInsertions %d at falsePositiveRate %s needs %.3g bits (%s), more than the maximum"
                            + " of 2^40 bits (128 GiB); lower expectedInsertions or raise falsePositiveRate",
                    expectedInsertions, falsePositiveRate, m, humanBytes((long) (m / 8))));
        }
        long bits = (long) m;
        int k = (int) Math.max(1, Math.round((double) bits / expectedInsertions * LN2));
        return new SievePlan(expectedInsertions, falsePositiveRate, bits, Math.min(k, 255));
    }

    private static void validate(long expectedInsertions, double falsePositiveRate) {
        if (expectedInsertions < 1) {
            throw new IllegalArgumentException("expectedInsertions must be >= 1, was " + expectedInsertions);
        }
        if (!(falsePositiveRate > 0 && falsePositiveRate < 1)) {
            throw new IllegalArgumentException(
                    "falsePositiveRate must be in (0, 1), exclusive, was " + falsePositiveRate);
        }
    }

    /** Memory of the bit array: m rounded up to whole 64-bit words. */
    public long bytes() {
        return ((bits + 63) >>> 6) * 8;
    }

    public double bitsPerUrl() {
        return (double) bits / expectedInsertions;
    }

    /** The expected false-positive rate once {@code insertions} distinct URLs are in the filter. */
    public double rateAt(long insertions) {
        return Math.pow(-Math.expm1(-(double) hashCount * insertions / bits), hashCount);
    }

    /** Bytes in binary units with three significant figures, e.g. "2.23 GiB". */
    public static String humanBytes(long bytes) {
        return scaled(bytes, 1024, new String[] {"B", "KiB", "MiB", "GiB", "TiB"});
    }

    /** Bytes in decimal units with three significant figures, e.g. "2.40 GB". */
    public static String decimalBytes(long bytes) {
        return scaled(bytes, 1000, new String[] {"B", "KB", "MB", "GB", "TB", "PB"});
    }

    private static String scaled(long bytes, int base, String[] units) {
        double value = bytes;
        int unit = 0;
        while (value >= base && unit < units.length - 1) {
            value /= base;
            unit++;
        }
        return unit == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.3g %s", value, units[unit]);
    }

    /** A human summary: bits, hash count, memory and the rate at n, 2n and 4n. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT,
                "n=%d p=%s: m=%d bits (%.2f bits/URL), k=%d, memory=%s (%d bytes),"
                        + " rate at n=%.3g, at 2n=%.3g, at 4n=%.3g",
                expectedInsertions, falsePositiveRate, bits, bitsPerUrl(), hashCount, humanBytes(bytes()), bytes(),
                rateAt(expectedInsertions), rateAt(2 * expectedInsertions), rateAt(4 * expectedInsertions));
    }
}
