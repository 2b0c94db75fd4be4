package org.sievecrawler.politeness;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;

/**
 * A copy of a {@link HostBudget}'s counts, as a checkpoint saves them: one 64-bit hash per host key and its count, in
 * two arrays sorted by hash (12 bytes a host), with the key the hashes were made with. No host names: a count is
 * found again by hashing the host key with {@link #hashKey()}.
 *
 * <p>The hash: each char of the host key mixed in turn into a state that starts from a random 64-bit key drawn when
 * the budget is made ({@link #newHashKey()}, kept in the checkpoint so that a resume hashes alike), then Murmur3's
 * 64-bit finalizer, so that a page cannot name a host whose hash is another's and spend that host's share. Two hosts
 * share a hash with probability 2^-64 per pair: among n hosts, some two share one with probability at most
 * n^2 / 2^65 (3e-10 at 10^5 hosts, 3e-6 at 10^7), and then they share one budget, nothing worse.
 *
 * <p>Immutable and thread-safe. File form ({@link #writeTo}): int {@code 0x53564842} ("SVHB"), int format version
 * {@value #FORMAT}, long hash key, int hosts, then each host's long hash and int count, hashes strictly ascending (as
 * signed numbers), counts > 0.
 */
public final class HostCounts {
    /** The version {@link #writeTo} writes. */
    public static final int FORMAT = 2;
    private static final int MAGIC = 0x53564842;
    private static final int HEADER_BYTES = 4 + 4 + 8 + 4;
    private static final int ENTRY_BYTES = 8 + 4;
    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;
    private static final SecureRandom KEYS = new SecureRandom();

    /** No host counted. */
    public static final HostCounts NONE = new HostCounts(0, new long[0], new int[0]);

    private final long hashKey;
    private final long[] hashes;
    private final int[] counts;

    /** {@code hashes} sorted strictly ascending, none 0, {@code counts[i]} that of {@code hashes[i]}, each > 0. */
    HostCounts(long hashKey, long[] hashes, int[] counts) {
        this.hashKey = hashKey;
        this.hashes = hashes;
        this.counts = counts;
    }

    /**
     * The counts of {@code byHostKey} (host key to count), hashed with a new key: a checkpoint written before the
     * counts were kept as hashes (its file names every host), or a test's counts.
     *
     * @throws IllegalArgumentException naming the host whose count is not in 0..2^31-1
     */
    public static HostCounts ofHostKeys(Map<String, Long> byHostKey) {
        long key = newHashKey();
        long[] hashes = new long[byHostKey.size()];
        int n = 0;
        for (Map.Entry<String, Long> host : byHostKey.entrySet()) {
            long count = host.getValue();
            if (count < 0 || count > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("host " + host.getKey() + ": count must be in 0.."
                        + Integer.MAX_VALUE + ", was " + count);
            }
            if (count > 0) {
                hashes[n++] = hash(key, host.getKey());
            }
        }
        hashes = Arrays.copyOf(hashes, n);
        Arrays.sort(hashes);
        int[] counts = new int[n];
        for (Map.Entry<String, Long> host : byHostKey.entrySet()) {
            if (host.getValue() > 0) {
                counts[Arrays.binarySearch(hashes, hash(key, host.getKey()))] += (int) (long) host.getValue();
            }
        }
        return dropDuplicates(key, hashes, counts);
    }

    /** Merges the entries of hosts whose hashes are equal (a collision: they share one budget). */
    private static HostCounts dropDuplicates(long key, long[] hashes, int[] counts) {
        int n = 0;
        for (int i = 0; i < hashes.length; i++) {
            if (n > 0 && hashes[n - 1] == hashes[i]) {
                counts[n - 1] = (int) Math.min(Integer.MAX_VALUE, (long) counts[n - 1] + counts[i]);
            } else {
                hashes[n] = hashes[i];
                counts[n] = counts[i];
                n++;
            }
        }
        return new HostCounts(key, Arrays.copyOf(hashes, n), Arrays.copyOf(counts, n));
    }

    /** A new random key to hash host keys with. */
    static long newHashKey() {
        return KEYS.nextLong();
    }

    /** The 64-bit hash of {@code hostKey} under {@code key}; never 0 (the empty slot of {@link HostBudget}'s table). */
    static long hash(long key, String hostKey) {
        long h = key;
        for (int i = 0; i < hostKey.length(); i++) {
            h = mix(h ^ hostKey.charAt(i));
        }
        h = mix(h ^ hostKey.length());
        return h == 0 ? 1 : h;
    }

    /** Murmur3's 64-bit finalizer after a multiply: every input bit moves every output bit. */
    private static long mix(long h) {
        h *= MULTIPLIER;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ h >>> 33;
    }

    /** Hosts counted. */
    public int size() {
        return hashes.length;
    }

    /** The key the hashes were made with. */
    public long hashKey() {
        return hashKey;
    }

    /** The count of {@code hostKey} (e.g. {@code http://127.0.0.1:8080}), 0 if it has none. */
    public long count(String hostKey) {
        int at = Arrays.binarySearch(hashes, hash(hashKey, hostKey));
        return at < 0 ? 0 : counts[at];
    }

    /** The sum of the counts. */
    public long total() {
        long total = 0;
        for (int count : counts) {
            total += count;
        }
        return total;
    }

    long hashAt(int i) {
        return hashes[i];
    }

    int countAt(int i) {
        return counts[i];
    }

    /** Writes these counts in the form {@link #read} reads: {@value #HEADER_BYTES} bytes and 12 a host. */
    public void writeTo(DataOutput out) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(FORMAT);
        out.writeLong(hashKey);
        out.writeInt(hashes.length);
        for (int i = 0; i < hashes.length; i++) {
            out.writeLong(hashes[i]);
            out.writeInt(counts[i]);
        }
    }

    /**
     * Reads what {@link #writeTo} wrote, from a file of {@code fileBytes} bytes.
     *
     * @throws IOException saying what is wrong: not this form, another version, more hosts than the file holds, hashes
     *     out of order, a count not > 0, or the end of the input
     */
    public static HostCounts read(DataInput in, long fileBytes) throws IOException {
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw new IOException(String.format("it does not start with a host budget's mark (0x%08x, expected"
                    + " 0x%08x)", magic, MAGIC));
        }
        int version = in.readInt();
        if (version != FORMAT) {
            throw new IOException("it is host budget format " + version + "; this build reads " + FORMAT);
        }
        long key = in.readLong();
        int hosts = in.readInt();
        if (hosts < 0 || HEADER_BYTES + (long) hosts * ENTRY_BYTES > fileBytes) {
            throw new IOException("it says it holds " + hosts + " hosts; " + fileBytes + " bytes hold at most "
                    + Math.max(0, (fileBytes - HEADER_BYTES) / ENTRY_BYTES));
        }
        long[] hashes = new long[hosts];
        int[] counts = new int[hosts];
        for (int i = 0; i < hosts; i++) {
            hashes[i] = in.readLong();
            counts[i] = in.readInt();
            if (hashes[i] == 0 || i > 0 && hashes[i] <= hashes[i - 1]) {
                throw new IOException("host " + i + "'s hash " + Long.toHexString(hashes[i]) + " is 0 or not above"
                        + " the one before");
            }
            if (counts[i] <= 0) {
                throw new IOException("host " + i + "'s count must be > 0, was " + counts[i]);
            }
        }
        return new HostCounts(key, hashes, counts);
    }

    /** Equal when they hold the same hashes, counts and key. */
    @Override
    public boolean equals(Object o) {
        return o instanceof HostCounts other && hashKey == other.hashKey && Arrays.equals(hashes, other.hashes)
                && Arrays.equals(counts, other.counts);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(hashKey) * 31 + Arrays.hashCode(hashes);
    }

    @Override
    public String toString() {
        return "HostCounts[" + hashes.length + " hosts, " + total() + " in all]";
    }
}
