package org.sievecrawler.frontier;

import org.sievecrawler.sieve.UrlHash;

/**
 * The URLs a crawl completed after its last checkpoint, read back from the {@link FrontierJournal} on resume:
 * the frontier asks {@link #remove} for each URL it is about to hand out again, and skips the URL when it is
 * found. A URL found is removed, since each URL completes once; once every one has been matched,
 * {@link #isEmpty()} is the fast path and the set costs nothing more. A resume also keeps the URLs whose records
 * pages.jsonl holds after the checkpoint in one, which the journal's completions are checked against
 * ({@link #contains}).
 *
 * <p>Kept as numbers, not strings: each URL is its 64-bit {@link UrlHash#fingerprint} in an open-addressing set
 * of {@code long}s (linear probing, deletion by backward shift: Knuth, TAOCP vol. 3, 6.4, Algorithm R), at most
 * two-thirds full. Memory at n URLs: 8 bytes a slot, slots the next power of two above 1.5 n: 4 MiB at n =
 * 300,000 (a {@code HashSet<Long>} would take about 20 MiB, a {@code HashSet<String>} of 80-char URLs 60 MiB).
 *
 * <p>False matches: two distinct URLs share a fingerprint with probability 2^-64, so a URL handed out is wrongly
 * taken as completed with probability about n / 2^64 (1.6e-14 at n = 300,000); over 10^9 URLs handed out while
 * the set is not empty, about 1.6e-5. A false match costs one page not fetched and not recorded. There are no
 * false misses: a completed URL asked for is found.
 *
 * <p>Thread-safe: {@link #remove}, {@link #add} and {@link #contains} lock the set; {@link #isEmpty()} and {@link #size()} read a
 * volatile count without locking. Out of scope: which URLs count as completed (the frontier decides; the journal
 * records them).
 */
public final class CompletedUrls {
    private static final int MIN_SLOTS = 16;

    /** The slots; 0 is an empty slot, so a fingerprint of 0 is kept in {@link #hasZero} instead. */
    private long[] slots;
    private int mask;
    private boolean hasZero;
    private volatile int size;

    /** An empty set with room for {@code expected} URLs before it grows. */
    public CompletedUrls(int expected) {
        if (expected < 0) {
            throw new IllegalArgumentException("expected URLs must be >= 0, was " + expected);
        }
        int slots = Integer.highestOneBit(Math.max(MIN_SLOTS, expected + expected / 2) - 1) << 1;
        this.slots = new long[slots];
        this.mask = slots - 1;
    }

    /** An empty set: a resume with nothing completed since its checkpoint, or a fresh crawl. */
    public static CompletedUrls none() {
        return new CompletedUrls(0);
    }

    /** Adds {@code url}; returns whether it was not there yet. */
    public synchronized boolean add(String url) {
        long key = UrlHash.fingerprint(url);
        if (key == 0) {
            if (hasZero) {
                return false;
            }
            hasZero = true;
            size++;
            return true;
        }
        int i = (int) key & mask;
        for (long found = slots[i]; found != 0; found = slots[i]) {
            if (found == key) {
                return false;
            }
            i = (i + 1) & mask;
        }
        slots[i] = key;
        size++;
        if (size * 3L > slots.length * 2L) {
            grow();
        }
        return true;
    }

    /** Whether {@code url} is in the set (not removed). */
    public synchronized boolean contains(String url) {
        long key = UrlHash.fingerprint(url);
        if (key == 0) {
            return hasZero;
        }
        for (int i = (int) key & mask; slots[i] != 0; i = (i + 1) & mask) {
            if (slots[i] == key) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code url} completed after the checkpoint (and is not to be fetched again); a URL found is removed,
     * so a second call for it returns false.
     */
    public boolean remove(String url) {
        if (size == 0) {
            return false;
        }
        long key = UrlHash.fingerprint(url);
        synchronized (this) {
            return key == 0 ? removeZero() : removeKey(key);
        }
    }

    /** URLs not matched yet. */
    public int size() {
        return size;
    }

    /** Whether every URL has been matched (or none completed): then {@link #remove} returns false at once. */
    public boolean isEmpty() {
        return size == 0;
    }

    private boolean removeZero() {
        if (!hasZero) {
            return false;
        }
        hasZero = false;
        size--;
        return true;
    }

    /** Removes {@code key} and shifts back the keys after it whose probe ran through its slot. Lock held. */
    private boolean removeKey(long key) {
        int hole = (int) key & mask;
        while (slots[hole] != key) {
            if (slots[hole] == 0) {
                return false;
            }
            hole = (hole + 1) & mask;
        }
        for (int j = (hole + 1) & mask; slots[j] != 0; j = (j + 1) & mask) {
            int home = (int) slots[j] & mask;
            // The key at j may move into the hole unless its home lies cyclically in (hole, j].
            boolean stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
            if (!stays) {
                slots[hole] = slots[j];
                hole = j;
            }
        }
        slots[hole] = 0;
        size--;
        return true;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        mask = slots.length - 1;
        for (long key : old) {
            if (key != 0) {
                int i = (int) key & mask;
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = key;
            }
        }
    }

    @Override
    public String toString() {
        return "CompletedUrls[size=" + size + ", slots=" + slots.length + "]";
    }
}
