package org.sievecrawler.cluster;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32C;
import org.sievecrawler.sieve.FilterLayer;
import org.sievecrawler.sieve.CorruptFilterException;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.PendingUrlCodec;

/**
 * The one binary form of a {@link PartitionSnapshot}, as {@link SieveStateStore} cuts it into chunks: big-endian,
 * <pre>
 *   int   magic 0x53435053 ("SCPS": Sieve Crawler Partition Snapshot)
 *   int   format version, 1
 *   int   partition
 *   long  frontier offset
 *   int   F, the filters; then F filters, each as {@link FilterLayer#writeTo} writes it (its own header, bit array
 *         and CRC-32C: it knows its length)
 *   int   N, the pending URLs; then N URLs, each as {@link PendingUrlCodec#write} writes it
 *   int   CRC-32C of every byte before it
 * </pre>
 * Size: about the filters' bit arrays (1.2 MB for a filter sized for 1M URLs at 1 %) plus, per pending URL, its
 * URL and referrer in UTF-8 and 21 bytes (about 10 MB for 100,000 URLs with 80-character URLs and referrers).
 *
 * <p>{@link #decode} checks the magic, the version and the checksum before anything else, then that every count
 * fits the bytes left and that nothing follows the last URL; damaged bytes are a {@link CorruptFilterException}
 * naming the snapshot and what is wrong, with the values found.
 *
 * <p>Stateless and thread-safe. Out of scope: chunks, ids and Kafka ({@link SieveStateStore}).
 */
public final class PartitionSnapshotCodec {
    /** "SCPS": Sieve Crawler Partition Snapshot. */
    static final int MAGIC = 0x53435053;
    static final int FORMAT_VERSION = 1;
    /** Magic, version, partition, offset, the two counts and the checksum: the size of an empty snapshot. */
    static final int FIXED_BYTES = 4 + 4 + 4 + 8 + 4 + 4 + 4;
    /** The fewest bytes of a filter: its header (40 bytes), one word of bits and its checksum. */
    private static final int MIN_FILTER_BYTES = 40 + 8 + 4;
    /** The fewest bytes of a pending URL: a URL of one byte, no referrer, three ints and the purpose. */
    private static final int MIN_URL_BYTES = 4 + 1 + 4 + 3 * 4 + 1;

    private PartitionSnapshotCodec() {
    }

    /** The bytes of {@code snapshot}, checksum included. */
    public static byte[] encode(PartitionSnapshot snapshot) {
        long estimate = FIXED_BYTES + snapshot.filterBytes() + 48L * snapshot.filters().size();
        for (PendingUrl url : snapshot.pending()) {
            estimate += MIN_URL_BYTES + url.url().length() + (url.referrer() == null ? 0 : url.referrer().length());
        }
        if (estimate > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("snapshot of partition " + snapshot.partition() + " would take about "
                    + estimate + " bytes, more than one byte array holds (2 GiB): " + snapshot);
        }
        Buffer buffer = new Buffer((int) estimate);
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeInt(MAGIC);
            out.writeInt(FORMAT_VERSION);
            out.writeInt(snapshot.partition());
            out.writeLong(snapshot.frontierOffset());
            out.writeInt(snapshot.filters().size());
            for (FilterLayer filter : snapshot.filters()) {
                filter.writeTo(out);
            }
            out.writeInt(snapshot.pending().size());
            for (PendingUrl url : snapshot.pending()) {
                PendingUrlCodec.write(out, url);
            }
            out.writeInt(buffer.crc());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot happen: writing to memory", e);
        }
        return buffer.bytes();
    }

    /**
     * The snapshot {@link #encode} wrote.
     *
     * @param name what the bytes are, for messages: {@code snapshot p3-1700000000000-9f2c41d0}
     * @throws CorruptFilterException naming {@code name} and what is wrong (not a snapshot, another version, a
     *     checksum mismatch, cut short, a count or a value out of range, bytes after the end)
     */
    public static PartitionSnapshot decode(String name, byte[] bytes) throws CorruptFilterException {
        if (bytes.length < FIXED_BYTES) {
            throw corrupt(name, "cut short: " + bytes.length + " bytes, a snapshot has at least " + FIXED_BYTES);
        }
        ByteBuffer header = ByteBuffer.wrap(bytes);
        int magic = header.getInt();
        if (magic != MAGIC) {
            throw corrupt(name, String.format(Locale.ROOT,
                    "not a partition snapshot: it starts with 0x%08x, expected 0x%08x (\"SCPS\")", magic, MAGIC));
        }
        int version = header.getInt();
        if (version != FORMAT_VERSION) {
            throw corrupt(name, "format version " + version + " is not supported; this build reads version "
                    + FORMAT_VERSION);
        }
        int end = bytes.length - 4;
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, end);
        int stored = ByteBuffer.wrap(bytes, end, 4).getInt();
        if (stored != (int) crc.getValue()) {
            throw corrupt(name, String.format(Locale.ROOT,
                    "checksum mismatch over its %d bytes: stored 0x%08x, computed 0x%08x (the data is damaged or"
                            + " cut short)", bytes.length, stored, (int) crc.getValue()));
        }
        ByteArrayInputStream remaining = new ByteArrayInputStream(bytes, 8, end - 8);
        DataInputStream in = new DataInputStream(remaining);
        String where = "the header";
        try {
            int partition = in.readInt();
            long frontierOffset = in.readLong();
            if (partition < 0 || frontierOffset < 0) {
                throw corrupt(name, "partition " + partition + " and frontier offset " + frontierOffset
                        + " must be >= 0");
            }
            int filterCount = in.readInt();
            if (filterCount < 0 || (long) filterCount * MIN_FILTER_BYTES > remaining.available()) {
                throw corrupt(name, "claims " + filterCount + " filters in the " + remaining.available()
                        + " bytes left");
            }
            List<FilterLayer> filters = new ArrayList<>(filterCount);
            for (int i = 0; i < filterCount; i++) {
                where = "filter " + (i + 1) + " of " + filterCount;
                filters.add(FilterLayer.read(in, Long.MAX_VALUE));
            }
            where = "the count of pending URLs";
            int pendingCount = in.readInt();
            if (pendingCount < 0 || (long) pendingCount * MIN_URL_BYTES > remaining.available()) {
                throw corrupt(name, "claims " + pendingCount + " pending URLs in the " + remaining.available()
                        + " bytes left");
            }
            List<PendingUrl> pending = new ArrayList<>(pendingCount);
            for (int i = 0; i < pendingCount; i++) {
                where = "pending URL " + (i + 1) + " of " + pendingCount;
                pending.add(PendingUrlCodec.read(in));
            }
            if (remaining.available() > 0) {
                throw corrupt(name, remaining.available() + " bytes after its last pending URL");
            }
            return new PartitionSnapshot(partition, frontierOffset, filters, pending);
        } catch (CorruptFilterException e) {
            throw e.getMessage().startsWith(name + ": ") ? e : corrupt(name, where + ": " + e.getMessage());
        } catch (EOFException e) {
            throw corrupt(name, "cut short in " + where);
        } catch (IOException e) {
            throw corrupt(name, where + ": " + e.getMessage());
        }
    }

    private static CorruptFilterException corrupt(String name, String why) {
        return new CorruptFilterException(name + ": " + why);
    }

    /** A byte array output that checksums what it holds and gives it back without a copy when it is exactly full. */
    private static final class Buffer extends ByteArrayOutputStream {
        Buffer(int size) {
            super(size);
        }

        /** The CRC-32C of every byte written so far. */
        int crc() {
            CRC32C crc = new CRC32C();
            crc.update(buf, 0, count);
            return (int) crc.getValue();
        }

        byte[] bytes() {
            return count == buf.length ? buf : Arrays.copyOf(buf, count);
        }
    }
}
