package org.sievecrawler.sieve;

import java.util.Locale;

/**
 * How the Sieve's Bloom filter lays out a URL's bits: {@link #CLASSIC}, k bits anywhere in the array
 * ({@link BloomFilter}, k cache misses a new URL), or {@link #BLOCKED}, k bits in one 512-bit block
 * ({@link BlockedBloomFilter}, one miss, a few per cent more bits for the same rate). Immutable.
 */
public enum SieveLayout {
    CLASSIC,
    BLOCKED;

    /** The plan of this layout for {@code expectedInsertions} URLs at {@code falsePositiveRate}. */
    public FilterPlan plan(long expectedInsertions, double falsePositiveRate) {
        return this == CLASSIC
                ? SievePlan.of(expectedInsertions, falsePositiveRate)
                : BlockedPlan.of(expectedInsertions, falsePositiveRate);
    }

    /**
     * An empty filter layer of this layout for {@code expectedInsertions} URLs at {@code falsePositiveRate}.
     *
     * @throws IllegalArgumentException naming the argument and value when n &lt; 1 or p is not in (0, 1)
     */
    FilterLayer newFilter(long expectedInsertions, double falsePositiveRate) {
        return this == CLASSIC
                ? BloomFilter.create(expectedInsertions, falsePositiveRate)
                : BlockedBloomFilter.create(expectedInsertions, falsePositiveRate);
    }

    /** The name as written in a profile or on the command line: "classic" or "blocked". */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@link #key()}: how a profile, a message and {@code --help} spell the layout. */
    @Override
    public String toString() {
        return key();
    }
}
