package org.sievecrawler.sieve;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * One filter layer of the {@link Sieve}, in either of its layouts ({@link SieveLayout}): a classic
 * {@link BloomFilter} or a {@link BlockedBloomFilter}. The Sieve looks URLs up, admits them, estimates its count
 * and rate, grows and checkpoints through this type alone; each layout keeps its own math (its plan's rate, its
 * n* estimate) behind it.
 *
 * <p>Thread-safe: every layer is lock-free. Out of scope: exactly-once admission of a URL offered by two threads
 * at once, which the Sieve serializes by hash stripe.
 *
 * <p>Persistence: {@link #writeTo} writes the layer in the filter format ({@code FilterFormat}: magic, format
 * version, layout, hash scheme, sizing, bits, CRC-32C), and {@link #read} reads either layout back, and filters
 * written before the format carried a layout (version 1, classic).
 */
public abstract sealed class FilterLayer permits BloomFilter, BlockedBloomFilter {

    FilterLayer() {
    }

    /** Which layout this layer has. */
    public abstract SieveLayout layout();

    /** The layer's sizing: n, p, bits, k and its rate formula. */
    public abstract FilterPlan plan();

    /** X, the exact number of bits set. */
    public abstract long setBitCount();

    /** Bytes held by the bit array. */
    public abstract long byteSize();

    /**
     * Writes the layer: a versioned header with its layout and parameters, the bit array, and a CRC-32C of all
     * of it. Safe during concurrent puts. The stream is not closed.
     */
    public abstract void writeTo(OutputStream out) throws IOException;

    /**
     * Reads a layer of either layout written by {@link #writeTo}, or a classic filter of format version 1, from a
     * stream of at most {@code maxBytes} (a file's length): a header whose bit array would be longer is refused
     * before the array is allocated.
     *
     * @throws CorruptFilterException if the stream is not a filter, names an unknown format version, layout or
     *     hash scheme, is truncated, or fails its checksum; the message says which and what was found
     */
    public static FilterLayer read(InputStream in, long maxBytes) throws IOException {
        return FilterFormat.read(in, maxBytes);
    }

    /**
     * Adds {@code url}. Lock-free; the bits are set by atomic writes, so no concurrent put is lost.
     *
     * @return true iff this call changed the filter, i.e. the URL was definitely not in it before;
     *     false if it was (or is a false positive)
     */
    public boolean put(CharSequence url) {
        UrlHash hash = UrlHash.forCurrentThread().hash(url);
        return put(hash.h1(), hash.h2());
    }

    /** @return true if {@code url} might have been put; false means definitely not */
    public boolean mightContain(CharSequence url) {
        UrlHash hash = UrlHash.forCurrentThread().hash(url);
        return mightContain(hash.h1(), hash.h2());
    }

    /** Whether the layer might hold the URL hashed to (h1, h2); false means definitely not. */
    abstract boolean mightContain(long h1, long h2);

    /** Adds the URL hashed to (h1, h2); true iff this call changed the layer. */
    abstract boolean put(long h1, long h2);

    /**
     * Looks up every selected URL of {@code batch} without writing, leaving each URL's {@code missing} mask
     * non-zero iff a bit of it was found clear, and what {@link #putSelected} needs in the batch's positions.
     * Plain loads: a bit seen clear may be set by the time it returns (callers decide by an atomic write).
     */
    abstract void lookUp(HashBatch batch);

    /** Sets the bits of the j-th URL selected by the last {@link #lookUp} of {@code batch}; true iff it changed the layer. */
    abstract boolean putSelected(HashBatch batch, int j);

    /** n*, the estimated number of distinct URLs put, by the layout's formula; O(1). */
    abstract double estimatedCardinality();

    /** The false-positive rate now, by the layout's formula. */
    abstract double expectedFalsePositiveRate();

    /** The number of set bits X at which {@link #estimatedCardinality()} first exceeds {@code cardinality}. */
    abstract long setBitsAtCardinality(double cardinality);

    /** A copy of the layer as it is now: every put that completed before the call is in it. */
    abstract FilterLayer copy();

    /** n, the number of distinct URLs the layer was sized for. */
    long expectedInsertions() {
        return plan().expectedInsertions();
    }

    /** p, the false-positive rate the layer was sized for, reached at n distinct URLs. */
    double configuredFalsePositiveRate() {
        return plan().falsePositiveRate();
    }
}
