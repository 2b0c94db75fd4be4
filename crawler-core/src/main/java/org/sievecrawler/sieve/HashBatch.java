package org.sievecrawler.sieve;

import java.util.Arrays;

/**
 * The 128-bit hashes of a batch of URLs (a page's links), with the scratch a filter needs to look them all up
 * at once, so that the cache misses of different URLs overlap (see {@link BloomFilter#lookUp}). Each URL of the
 * batch is <em>open</em> until some pass decides about it (seen before, admitted, refused) and closes it.
 *
 * <p>A lookup works on a <em>selection</em>: the open URLs when {@link #select()} was last called, in batch
 * order. For selected URL j the filter writes its k bit positions to {@code positions[j·k .. j·k+k-1]} and
 * the mask of its bits it found clear to {@code missing[j]} (0: all k set, so the filter holds the URL or
 * a false positive). Both stay valid until the next lookup, so a following write finds its positions there.
 *
 * <p>Not thread-safe: one instance per thread ({@link #forCurrentThread()}), reused by every batch of that
 * thread and grown to the largest batch it has seen; a batch allocates nothing once the arrays are large
 * enough. A batch operation ({@link BloomFilter#putAll}, {@link Sieve#offerAll}) uses it from start to end,
 * so it must not start another on the same thread before it returns (neither does). Out of scope: the URLs
 * themselves, which the caller keeps in batch order.
 */
final class HashBatch {
    private static final ThreadLocal<HashBatch> SCRATCH = ThreadLocal.withInitial(() -> new HashBatch(256));

    private long[] h1;
    private long[] h2;
    private boolean[] open;
    private int size;
    private int[] selected;
    private int selectedCount;
    private long[] missing;
    private long[] positions;

    /** An empty batch with room for {@code capacity} URLs before its arrays grow. */
    HashBatch(int capacity) {
        h1 = new long[capacity];
        h2 = new long[capacity];
        open = new boolean[capacity];
        selected = new int[capacity];
        missing = new long[capacity];
        positions = new long[capacity * 16];
    }

    /** This thread's batch, emptied. */
    static HashBatch forCurrentThread() {
        return SCRATCH.get().clear();
    }

    /** Empties the batch, keeping its arrays. */
    HashBatch clear() {
        size = 0;
        selectedCount = 0;
        return this;
    }

    /** Appends an open URL by its hash (h1, h2); its index is the batch size before the call. */
    void add(long hash1, long hash2) {
        if (size == h1.length) {
            int capacity = 2 * size;
            h1 = Arrays.copyOf(h1, capacity);
            h2 = Arrays.copyOf(h2, capacity);
            open = Arrays.copyOf(open, capacity);
            selected = new int[capacity];
            missing = new long[capacity];
        }
        h1[size] = hash1;
        h2[size] = hash2;
        open[size] = true;
        size++;
    }

    /** Appends the hash of {@code url}. */
    void add(CharSequence url) {
        UrlHash hash = UrlHash.forCurrentThread().hash(url);
        add(hash.h1(), hash.h2());
    }

    long h1(int url) {
        return h1[url];
    }

    long h2(int url) {
        return h2[url];
    }

    boolean isOpen(int url) {
        return open[url];
    }

    void close(int url) {
        open[url] = false;
    }

    /** Selects the open URLs, in batch order, for the next lookup; returns how many there are. */
    int select() {
        int count = 0;
        for (int url = 0; url < size; url++) {
            if (open[url]) {
                selected[count++] = url;
            }
        }
        selectedCount = count;
        return count;
    }

    int selectedCount() {
        return selectedCount;
    }

    /** The batch index of the j-th selected URL. */
    int selected(int j) {
        return selected[j];
    }

    /** The mask of the bits of the j-th selected URL that the last lookup found clear; 0 if it found all set. */
    long missing(int j) {
        return missing[j];
    }

    long[] missing() {
        return missing;
    }

    /** The position array, grown if need be to hold {@code k} positions of every selected URL. */
    long[] positionsFor(int k) {
        int needed = selectedCount * k;
        if (positions.length < needed) {
            positions = new long[Math.max(needed, 2 * positions.length)];
        }
        return positions;
    }

    /** The position array as the last lookup left it. */
    long[] positions() {
        return positions;
    }
}
