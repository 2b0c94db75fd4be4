package org.sievecrawler.sieve;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A fixed-length array of {@code long} words that may be longer than a Java array (2<sup>31</sup> - 1
 * elements), stored as pages of 2<sup>pageShift</sup> words. Element access has acquire/release semantics
 * and a compare-and-set, so the filters built on it are lock-free.
 *
 * <p>Thread-safe. Package-private: the storage of {@link BloomFilter} and {@link CountingBloomFilter}.
 */
final class LongPages {
    /** 2^24 words = 128 MiB per page: a filter below that size is one array, so the page lookup stays in L1. */
    static final int DEFAULT_PAGE_SHIFT = 24;

    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[][] pages;
    private final long length;
    private final int pageShift;
    private final long pageMask;

    LongPages(long length) {
        this(length, DEFAULT_PAGE_SHIFT);
    }

    /** A small {@code pageShift} lets tests cross page boundaries without allocating gigabytes. */
    LongPages(long length, int pageShift) {
        if (length < 1) {
            throw new IllegalArgumentException("length must be >= 1 word, was " + length);
        }
        if (pageShift < 1 || pageShift > 30) {
            throw new IllegalArgumentException("pageShift must be in [1, 30], was " + pageShift);
        }
        long pageSize = 1L << pageShift;
        long pageCount = (length + pageSize - 1) >>> pageShift;
        if (pageCount > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("length " + length + " words needs more than 2^31 pages");
        }
        this.length = length;
        this.pageShift = pageShift;
        this.pageMask = pageSize - 1;
        this.pages = new long[(int) pageCount][];
        for (int p = 0; p < pages.length; p++) {
            long remaining = length - ((long) p << pageShift);
            pages[p] = new long[(int) Math.min(pageSize, remaining)];
        }
    }

    long length() {
        return length;
    }

    long getAcquire(long index) {
        return (long) WORDS.getAcquire(pages[(int) (index >>> pageShift)], (int) (index & pageMask));
    }

    boolean compareAndSet(long index, long expected, long value) {
        return WORDS.compareAndSet(pages[(int) (index >>> pageShift)], (int) (index & pageMask), expected, value);
    }

    /** Atomically ORs {@code mask} into the word at {@code index}; the word as it was before. */
    long getAndBitwiseOr(long index, long mask) {
        return (long) WORDS.getAndBitwiseOr(pages[(int) (index >>> pageShift)], (int) (index & pageMask), mask);
    }

    /**
     * For each of {@code groups} runs of {@code k} bit positions in {@code positions} (bit b is bit b &amp; 63 of
     * word b &gt;&gt;&gt; 6), the OR of its bits that are clear, each in its place within its word, into
     * {@code clear[group]}: 0 iff all k are set. One loop over all the positions with no early exit and no
     * branch on the data, so the loads of different runs are in flight together; when the array is one page
     * (below 2<sup>24</sup> words, 128 MiB) a load costs a handful of instructions.
     *
     * <p>Plain loads: a word may be read before a concurrent write lands, so a bit seen clear may be set by
     * the time the call returns. Callers treat a clear bit as "maybe new" and decide by an atomic write
     * ({@link #getAndBitwiseOr}); a set bit was set by a write that completed, and stays set.
     */
    void clearBits(long[] positions, int groups, int k, long[] clear) {
        if (pages.length == 1) {
            long[] page = pages[0];
            for (int g = 0, p = 0; g < groups; g++) {
                long bits = 0;
                for (int i = 0; i < k; i++, p++) {
                    long position = positions[p];
                    bits |= ~page[(int) (position >>> 6)] & (1L << position);
                }
                clear[g] = bits;
            }
        } else {
            for (int g = 0, p = 0; g < groups; g++) {
                long bits = 0;
                for (int i = 0; i < k; i++, p++) {
                    long position = positions[p];
                    long index = position >>> 6;
                    bits |= ~pages[(int) (index >>> pageShift)][(int) (index & pageMask)] & (1L << position);
                }
                clear[g] = bits;
            }
        }
    }

    /** Plain write, for loading a snapshot before the structure is published to other threads. */
    void setPlain(long index, long value) {
        pages[(int) (index >>> pageShift)][(int) (index & pageMask)] = value;
    }

    /** Sum of {@link Long#bitCount} over all words: the number of set bits. */
    long popCount() {
        long count = 0;
        for (long[] page : pages) {
            for (int i = 0; i < page.length; i++) {
                count += Long.bitCount((long) WORDS.getAcquire(page, i));
            }
        }
        return count;
    }
}
