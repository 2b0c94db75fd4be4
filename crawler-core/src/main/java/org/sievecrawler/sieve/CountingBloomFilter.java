package org.sievecrawler.sieve;

import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * A Bloom filter that supports removal: each of its m positions is a 4-bit saturating counter instead of
 * a bit, 16 counters packed per {@code long}, so it takes four times the memory of a {@link BloomFilter}
 * with the same sizing (m and k from {@link SievePlan}) and hashing ({@link UrlHash}, {@link DoubleHashing}).
 *
 * <h2>Why 4 bits suffice</h2>
 * With k = (m/n)·ln 2 and n elements, a counter's value is Binomial(nk, 1/m), about Poisson(ln 2).
 * P(counter ≥ 16) ≈ e<sup>-ln 2</sup>(ln 2)<sup>16</sup>/16! ≈ 1.4·10<sup>-15</sup> per counter
 * (Fan, Cao, Almeida and Broder 2000), so overflow is practically never reached at the sized load.
 * Should a counter still reach 15 it saturates and stays at 15 forever: decrementing a counter whose
 * true count is unknown could drop it to zero while elements still use it, a false negative.
 *
 * <h2>Estimates</h2>
 * The number X of non-zero counters is kept exactly (a counter leaving or reaching zero counts itself), so
 * {@link #estimatedCardinality()} = -(m/k)·ln(1 - X/m) is O(1), as in {@link BloomFilter}.
 *
 * <h2>Threads</h2>
 * Safe for any number of threads, lock-free: every counter update is a compare-and-set. Each counter is
 * updated atomically, an element's k counters are not updated as one: a {@link #mightContain} concurrent with
 * the {@link #add} or {@link #remove} of the same element may see it half added or half removed.
 *
 * <h2>Out of scope</h2>
 * Persistence; removing an element that was never added but is a false positive (it would decrement
 * counters of other elements: callers must only remove what they added).
 */
final class CountingBloomFilter {
    private static final int MAX_COUNT = 15;

    private final SievePlan plan;
    private final long counters;
    private final int k;
    private final LongPages words;
    private final LongAdder nonZero = new LongAdder();

    private CountingBloomFilter(SievePlan plan) {
        this.plan = plan;
        this.counters = plan.bits();
        this.k = plan.hashCount();
        this.words = new LongPages((counters + 15) >>> 4);
    }

    /**
     * A counting filter for {@code expectedInsertions} elements at {@code falsePositiveRate}.
     *
     * @throws IllegalArgumentException naming the argument and value when n &lt; 1 or p is not in (0, 1)
     */
    public static CountingBloomFilter create(long expectedInsertions, double falsePositiveRate) {
        return new CountingBloomFilter(SievePlan.of(expectedInsertions, falsePositiveRate));
    }

    /** Adds {@code element}: increments its k counters, each saturating at 15. */
    void add(CharSequence element) {
        UrlHash hash = UrlHash.forCurrentThread().hash(element);
        DoubleHashing positions = new DoubleHashing(hash.h1(), hash.h2(), counters);
        for (int i = 0; i < k; i++) {
            if (update(positions.next(), +1) == 0) {
                nonZero.increment();
            }
        }
    }

    /**
     * Removes {@code element}: decrements its k counters, except those saturated at 15.
     *
     * @return false, changing nothing, if the element is definitely not present; true otherwise
     */
    boolean remove(CharSequence element) {
        UrlHash hash = UrlHash.forCurrentThread().hash(element);
        long h1 = hash.h1();
        long h2 = hash.h2();
        if (!mightContain(h1, h2)) {
            return false;
        }
        DoubleHashing positions = new DoubleHashing(h1, h2, counters);
        for (int i = 0; i < k; i++) {
            if (update(positions.next(), -1) == 1) {
                nonZero.decrement();
            }
        }
        return true;
    }

    /** @return true if {@code element} might be present; false means definitely not */
    boolean mightContain(CharSequence element) {
        UrlHash hash = UrlHash.forCurrentThread().hash(element);
        return mightContain(hash.h1(), hash.h2());
    }

    private boolean mightContain(long h1, long h2) {
        DoubleHashing positions = new DoubleHashing(h1, h2, counters);
        for (int i = 0; i < k; i++) {
            if (count(positions.next()) == 0) {
                return false;
            }
        }
        return true;
    }

    /** The value of the counter at {@code position}, 0..15. Package-private for tests. */
    int count(long position) {
        return (int) (words.getAcquire(position >>> 4) >>> ((position & 15) << 2)) & MAX_COUNT;
    }

    /**
     * Adds {@code delta} (+1 or -1) to the counter at {@code position} unless it is saturated at 15
     * (or, for -1, already 0).
     *
     * @return the counter's value before the update
     */
    private int update(long position, int delta) {
        long index = position >>> 4;
        int shift = (int) (position & 15) << 2;
        while (true) {
            long word = words.getAcquire(index);
            int count = (int) (word >>> shift) & MAX_COUNT;
            if (count == MAX_COUNT || (delta < 0 && count == 0)) {
                return count;
            }
            long updated = word + ((long) delta << shift);
            if (words.compareAndSet(index, word, updated)) {
                return count;
            }
        }
    }

    /** m, the number of counters. */
    long counterCount() {
        return counters;
    }

    int hashCount() {
        return k;
    }

    long expectedInsertions() {
        return plan.expectedInsertions();
    }

    /** Bytes held by the counters: m/2. */
    long byteSize() {
        return words.length() * Long.BYTES;
    }

    /** X, the exact number of non-zero counters. */
    long nonZeroCounters() {
        return nonZero.sum();
    }

    /** n* = -(m/k)·ln(1 - X/m) over the non-zero counters X; O(1). */
    double estimatedCardinality() {
        return BloomFilter.cardinalityFromSetBits(nonZero.sum(), counters, k);
    }

    /** (X/m)^k, the false-positive rate now. */
    double expectedFalsePositiveRate() {
        return Math.pow((double) nonZero.sum() / counters, k);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "CountingBloomFilter[m=%d, k=%d, n=%d, X=%d, n*=%.0f]",
                counters, k, plan.expectedInsertions(), nonZero.sum(), estimatedCardinality());
    }
}
