package org.sievecrawler.politeness;

import java.util.Arrays;
import java.util.Optional;
import org.sievecrawler.profile.ProfileKeys;

/**
 * A count per host (scheme, host name and port) with a ceiling: each {@link #take} spends one of the host's share
 * until it is gone. The frontier spends {@code limits.max-pages-per-host} as it admits a host's URLs (a URL past
 * the host's share is counted and not queued: the bound on a trap its URLs do not show, such as a calendar whose
 * every day links to the next); the page checks spend {@code scope.max-sitemaps-per-host} as a sitemap is about
 * to be requested, in a budget of their own.
 *
 * <p>Counts may be carried over a resume: {@link #counts()} copies them for a checkpoint and {@link #restore} puts
 * them back.
 *
 * <p>Memory: a host is its 64-bit keyed hash ({@link HostCounts} states the hash and its collision bound, n^2/2^65)
 * and an {@code int} count in an open-addressing table of two primitive arrays (linear probing, slot 0 = empty),
 * doubled when three quarters full: 12 bytes a slot, 16 to 32 bytes a host (25 at 10^6 hosts: 2^21 slots, 25 MB),
 * against ~130 for a map of host names to counters. No host name is kept. Counts saturate at 2^31-1 (a limit above
 * that is, in effect, 2^31-1).
 *
 * <p>Thread-safe: one lock around the table (a take is a hash computed outside it, then a probe or two); the
 * frontier's threads admit under a lock of their own, so it is not contended. Out of scope: the crawl's own page
 * limit ({@code limits.max-pages}) and anything to do with time; the scheduler paces hosts.
 */
public final class HostBudget {
    private static final int FIRST_CAPACITY = 1 << 10;

    private final long maxPerHost;
    private final int ceiling;
    private final String key;
    private long hashKey = HostCounts.newHashKey();
    private long[] hashes = new long[FIRST_CAPACITY];
    private int[] counts = new int[FIRST_CAPACITY];
    private int size;

    /** @param maxPagesPerHost URLs of one host admitted at most ({@code limits.max-pages-per-host}); 0 for no limit */
    public HostBudget(long maxPagesPerHost) {
        this(maxPagesPerHost, ProfileKeys.LIMITS_MAX_PAGES_PER_HOST.name());
    }

    /**
     * @param maxPerHost takes of one host at most; 0 for no limit
     * @param key the profile key the limit comes from, named when a host has had its share
     */
    public HostBudget(long maxPerHost, String key) {
        if (maxPerHost < 0) {
            throw new IllegalArgumentException(key + " must be >= 0 (0 = no limit), was " + maxPerHost);
        }
        this.maxPerHost = maxPerHost;
        this.ceiling = (int) Math.min(maxPerHost, Integer.MAX_VALUE);
        this.key = key;
    }

    /**
     * Takes one of {@code url}'s host's share: empty if it was taken, else why not, e.g.
     * {@code host http://127.0.0.1:8080 reached limits.max-pages-per-host 10000}.
     *
     * @param url an absolute, normalized URL
     */
    public Optional<String> take(String url) {
        if (maxPerHost == 0) {
            return Optional.empty();
        }
        String host = HostKey.of(url);
        synchronized (this) {
            long hash = HostCounts.hash(hashKey, host);
            int slot = slot(hash);
            if (hashes[slot] == 0) {
                if (size + 1 > hashes.length - (hashes.length >>> 2)) {
                    grow();
                    slot = slot(hash);
                }
                hashes[slot] = hash;
                size++;
            } else if (counts[slot] >= ceiling) {
                return Optional.of("host " + host + " reached " + key + " " + maxPerHost);
            }
            counts[slot]++;
            return Optional.empty();
        }
    }

    /** Taken of {@code hostKey} so far. */
    public synchronized long taken(String hostKey) {
        int slot = slot(HostCounts.hash(hashKey, hostKey));
        return hashes[slot] == 0 ? 0 : counts[slot];
    }

    /** Hosts counted. */
    public synchronized int hosts() {
        return size;
    }

    /** Bytes the table holds now: its two arrays (12 bytes a slot). */
    public synchronized long tableBytes() {
        return (long) hashes.length * (Long.BYTES + Integer.BYTES);
    }

    /**
     * A copy of the counts, sorted by hash: for a checkpoint, taken while no one takes (a take meanwhile waits).
     */
    public synchronized HostCounts counts() {
        long[] sorted = new long[size];
        int n = 0;
        for (long hash : hashes) {
            if (hash != 0) {
                sorted[n++] = hash;
            }
        }
        Arrays.sort(sorted);
        int[] sortedCounts = new int[size];
        for (int i = 0; i < size; i++) {
            sortedCounts[i] = counts[slot(sorted[i])];
        }
        return new HostCounts(hashKey, sorted, sortedCounts);
    }

    /**
     * Puts back {@code saved} (a checkpoint's {@link #counts()}) and its hash key: for a resume, before any take.
     *
     * @throws IllegalStateException if a host was counted already (its hash under another key could not be matched)
     */
    public synchronized void restore(HostCounts saved) {
        if (size > 0) {
            throw new IllegalStateException("a host budget is restored before any take; it counts " + size
                    + " hosts already");
        }
        if (saved.size() == 0) {
            return; // keeps its own random key
        }
        hashKey = saved.hashKey();
        int capacity = FIRST_CAPACITY;
        while (saved.size() > capacity - (capacity >>> 2)) {
            capacity <<= 1;
        }
        hashes = new long[capacity];
        counts = new int[capacity];
        for (int i = 0; i < saved.size(); i++) {
            int slot = slot(saved.hashAt(i));
            hashes[slot] = saved.hashAt(i);
            counts[slot] = saved.countAt(i);
        }
        size = saved.size();
    }

    /** The slot of {@code hash}: where it is, or the empty slot where it would go (linear probing). */
    private int slot(long hash) {
        int mask = hashes.length - 1;
        int slot = (int) (hash ^ hash >>> 32) & mask;
        while (hashes[slot] != 0 && hashes[slot] != hash) {
            slot = slot + 1 & mask;
        }
        return slot;
    }

    private void grow() {
        long[] oldHashes = hashes;
        int[] oldCounts = counts;
        if (oldHashes.length >= 1 << 30) {
            throw new IllegalStateException("a host budget holds at most " + (3 << 28) + " hosts; it holds " + size);
        }
        hashes = new long[oldHashes.length << 1];
        counts = new int[oldHashes.length << 1];
        for (int i = 0; i < oldHashes.length; i++) {
            if (oldHashes[i] != 0) {
                int slot = slot(oldHashes[i]);
                hashes[slot] = oldHashes[i];
                counts[slot] = oldCounts[i];
            }
        }
    }
}
