package org.sievecrawler.sieve;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;

/**
 * A {@link PendingQueue} that keeps at most {@code maxInMemory} URLs in the queue it wraps (the politeness
 * scheduler) and spills the rest, in order, to append-only segment files, so heap use does not grow with the
 * number of pending URLs.
 *
 * <p>While the wrapped queue holds fewer than {@code maxInMemory} URLs and nothing is spilled, URLs pass
 * straight through; otherwise they are appended to the current segment {@code DIR/NNNNNN.seg}. When the
 * wrapped queue falls below half the limit (checked on each {@link #poll()}), spilled URLs are read back in the
 * order they were written, up to the limit, and handed to it; per-host scheduling then goes on as before. A
 * URL handed back to the wrapped queue directly (a retry, a put-back) never passes through here and stays in
 * memory.
 *
 * <p>Shares: the wrapped queue may refuse a URL ({@link PendingQueue#offer}: the politeness scheduler refuses a URL
 * whose host holds its share of the memory already), so a few big hosts cannot fill the memory while the URLs of
 * other hosts wait on disk. A refused URL goes to the end of the spill (a refused one read back goes there again),
 * to be offered once its host has drained: a big host's URLs then come out in about their order, not exactly. Such
 * re-writing is bounded by the writes it rides on: a refill re-writes at most as many URLs as were spilled afresh
 * (plus the limit's worth to start with, e.g. after a resume), and at most a quarter of the limit at once, so at
 * worst it doubles the spill's I/O; a spill whose head holds only refused hosts is read on as new URLs come, or
 * once the wrapped queue is empty (its first URL read is then taken), so no URL waits for ever.
 *
 * <p>Segment format: records of {@code int length, payload, int CRC-32C(payload)}, the payload a
 * {@link PendingUrlCodec} URL; a segment is closed (and fsynced) once it passes {@code segmentBytes}. A torn
 * tail after a crash is cut by {@link #resume}, which truncates to the checkpointed write position; a record
 * whose checksum fails when read back is reported as corrupt.
 *
 * <p>Checkpoints: {@link #position()} flushes and returns the read and write positions; after a checkpoint
 * holding a position is safely on disk, {@link #releaseBefore} deletes the segments read before it.
 *
 * <p>Thread-safe: one lock guards the spill state and is held while URLs pass to the wrapped queue, so the
 * order is kept (lock order: this queue, then the wrapped one). I/O errors surface as
 * {@link UncheckedIOException} naming the segment file.
 */
public final class SpillingQueue implements PendingQueue, AutoCloseable {
    /** A segment is closed and a new one started once it passes this many bytes. */
    public static final long SEGMENT_BYTES = 64L << 20;
    private static final int WRITE_BUFFER = 64 * 1024;

    private final PendingQueue memory;
    private final int maxInMemory;
    /** Refused URLs a refill may write back to the spill's end at once. */
    private final int maxRequeuedPerRefill;
    /** Refused URLs refills may still write back: earned by URLs spilled afresh. Lock held. */
    private long requeueCredit;
    private long requeued;
    private final int refillBelow;
    private final Path dir;
    private final long segmentBytes;
    private final ReentrantLock lock = new ReentrantLock();
    private final ByteArrayOutputStream recordBytes = new ByteArrayOutputStream(256);
    private final DataOutputStream record = new DataOutputStream(recordBytes);
    private final ByteBuffer writeBuffer = ByteBuffer.allocate(WRITE_BUFFER);
    private final CRC32C crc = new CRC32C();
    private volatile long spilled;
    private int readSegment;
    private long readOffset;
    private int writeSegment;
    private long writeOffset;
    /** The open segment being written, or null before the first spill (or after close). */
    private FileChannel writer;

    private SpillingQueue(PendingQueue memory, int maxInMemory, Path dir, long segmentBytes, SpillPosition at) {
        if (maxInMemory < 1) {
            throw new IllegalArgumentException("sieve.max-in-memory-urls must be >= 1, was " + maxInMemory);
        }
        this.memory = memory;
        this.maxInMemory = maxInMemory;
        this.refillBelow = Math.max(1, maxInMemory / 2);
        this.maxRequeuedPerRefill = Math.max(1_024, maxInMemory / 4);
        this.requeueCredit = maxInMemory;
        this.dir = dir;
        this.segmentBytes = segmentBytes;
        this.readSegment = at.readSegment();
        this.readOffset = at.readOffset();
        this.writeSegment = at.writeSegment();
        this.writeOffset = at.writeOffset();
        this.spilled = at.spilled();
    }

    /**
     * A new, empty spilling queue in {@code dir} (created at the first spill); segment files a previous crawl left there are deleted.
     *
     * @throws IOException naming the folder if it cannot be created or cleared
     */
    public static SpillingQueue create(PendingQueue memory, int maxInMemory, Path dir, long segmentBytes)
            throws IOException {
        for (Path segment : segments(dir)) {
            Files.delete(segment);
        }
        return new SpillingQueue(memory, maxInMemory, dir, segmentBytes, SpillPosition.empty());
    }

    /**
     * The queue as a checkpoint left it: segments before the read position and after the write position are
     * deleted, the write segment is cut to the write position (URLs spilled after the checkpoint are dropped:
     * they are not in the checkpointed Bloom filter either, so they are found again), and writing goes on there.
     *
     * @throws CorruptFilterException naming the file if a segment the position needs is missing or too short
     */
    public static SpillingQueue resume(PendingQueue memory, int maxInMemory, Path dir, long segmentBytes,
            SpillPosition at) throws IOException {
        for (Path segment : segments(dir)) {
            int number = segmentNumber(segment);
            if (number < at.readSegment() || number > at.writeSegment()) {
                Files.delete(segment);
            }
        }
        for (int n = at.readSegment(); n <= at.writeSegment(); n++) {
            Path segment = dir.resolve(segmentName(n));
            long needed = n == at.writeSegment() ? at.writeOffset() : n == at.readSegment() ? at.readOffset() : 1;
            long size;
            try {
                size = Files.size(segment);
            } catch (NoSuchFileException e) {
                if (n == at.writeSegment() && at.writeOffset() == 0) {
                    continue; // not created before the checkpoint: nothing spilled into it yet
                }
                throw new CorruptFilterException(segment + " is missing; the checkpoint needs it for "
                        + at.spilled() + " spilled URLs");
            }
            if (size < needed) {
                throw new CorruptFilterException(String.format(Locale.ROOT,
                        "%s is %d bytes long; the checkpoint needs at least %d", segment, size, needed));
            }
            if (n == at.writeSegment() && size > at.writeOffset()) {
                try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
                    channel.truncate(at.writeOffset());
                    channel.force(true);
                }
            }
        }
        return new SpillingQueue(memory, maxInMemory, dir, segmentBytes, at);
    }

    @Override
    public void add(PendingUrl url) {
        lock.lock();
        try {
            if (spilled > 0 || memory.size() >= maxInMemory || !memory.offer(url)) {
                append(url);
                requeueCredit++;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Adds URLs straight to the wrapped queue, ahead of anything spilled and past the limit: for a resume,
     * whose checkpointed in-memory URLs are older than its spilled ones.
     */
    public void addInMemory(List<PendingUrl> urls) {
        lock.lock();
        try {
            urls.forEach(memory::add);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public PendingUrl poll() {
        PendingUrl url = memory.poll();
        if (spilled > 0 && (url == null || memory.size() < refillBelow)) {
            refill(url == null);
            if (url == null) {
                url = memory.poll();
            }
        }
        return url;
    }

    @Override
    public int size() {
        return memory.size() + (int) Math.min(Integer.MAX_VALUE, spilled);
    }

    /** URLs on disk, not yet read back. */
    public long spilled() {
        return spilled;
    }

    /** URLs read back, refused by the wrapped queue (their host's share was full) and written to the end again. */
    public long requeued() {
        lock.lock();
        try {
            return requeued;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes out buffered records and returns where the spill starts and ends. Call it while no URL is added
     * or polled (the checkpoint's snapshot), then {@link #sync()} before the checkpoint is committed.
     */
    public SpillPosition position() {
        lock.lock();
        try {
            flushWriter();
            return new SpillPosition(readSegment, readOffset, writeSegment, writeOffset, spilled);
        } finally {
            lock.unlock();
        }
    }

    /** Forces the segment being written to disk (closed segments were forced when closed). */
    public void sync() {
        lock.lock();
        try {
            if (writer != null) {
                writer.force(false);
            }
        } catch (IOException e) {
            throw failure("cannot sync", writeSegment, e);
        } finally {
            lock.unlock();
        }
    }

    /** Deletes the segments before {@code segment} that were fully read: a committed checkpoint reads on from it. */
    public void releaseBefore(int segment) {
        lock.lock();
        try {
            int limit = Math.min(segment, readSegment);
            for (Path file : segments(dir)) {
                if (segmentNumber(file) < limit) {
                    Files.deleteIfExists(file);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete read spill segments in " + dir + ": " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (writer != null) {
                flushWriter();
                writer.force(false);
                writer.close();
                writer = null;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Appends one record to the write segment. Lock held. */
    private void append(PendingUrl url) {
        try {
            recordBytes.reset();
            record.writeInt(0); // length, patched below
            PendingUrlCodec.write(record, url);
            byte[] bytes = recordBytes.toByteArray();
            int payload = bytes.length - Integer.BYTES;
            ByteBuffer.wrap(bytes).putInt(0, payload);
            crc.reset();
            crc.update(bytes, Integer.BYTES, payload);
            if (writer == null || writeOffset >= segmentBytes) {
                nextWriteSegment();
            }
            if (writeBuffer.remaining() < bytes.length + Integer.BYTES) {
                flushWriter();
            }
            if (bytes.length + Integer.BYTES > writeBuffer.capacity()) {
                writeFully(ByteBuffer.wrap(bytes));
                writeFully(ByteBuffer.allocate(Integer.BYTES).putInt(0, (int) crc.getValue()));
            } else {
                writeBuffer.put(bytes).putInt((int) crc.getValue());
            }
            writeOffset += bytes.length + Integer.BYTES;
            spilled++;
        } catch (IOException e) {
            throw failure("cannot write", writeSegment, e);
        }
    }

    /** Opens the segment to write: the current one on first use, else closes it and starts the next. Lock held. */
    private void nextWriteSegment() throws IOException {
        if (writer != null) {
            flushWriter();
            writer.force(false);
            writer.close();
            writer = null;
            writeSegment++;
            writeOffset = 0;
        }
        Files.createDirectories(dir);
        writer = FileChannel.open(dir.resolve(segmentName(writeSegment)), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        writer.position(writeOffset);
    }

    private void flushWriter() {
        if (writer == null || writeBuffer.position() == 0) {
            return;
        }
        writeBuffer.flip();
        try {
            writeFully(writeBuffer);
        } catch (IOException e) {
            throw failure("cannot write", writeSegment, e);
        } finally {
            writeBuffer.clear();
        }
    }

    private void writeFully(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            writer.write(bytes);
        }
    }

    /**
     * Reads spilled URLs back into the wrapped queue, in order, until it holds the limit or none is left: when
     * it fell below half the limit, or when it had nothing to hand out ({@code starved}; e.g. all its hosts wait
     * on their delay while the spill holds other hosts). A URL the wrapped queue refuses goes to the spill's end
     * (see "Shares" above), while the credit lasts.
     */
    private void refill(boolean starved) {
        lock.lock();
        try {
            int held = memory.size();
            int room = maxInMemory - held;
            if (spilled == 0 || room <= 0 || (!starved && held >= refillBelow)) {
                return;
            }
            flushWriter();
            List<PendingUrl> refused = new ArrayList<>();
            // with nothing held, the first URL read is taken (its host holds none): read on to it whatever the credit
            long mayRefuse = Math.max(held == 0 ? 1 : 0, Math.min(requeueCredit, maxRequeuedPerRefill));
            while (spilled > 0 && room > 0 && refused.size() < mayRefuse) {
                long end = readSegment == writeSegment ? writeOffset : Files.size(segmentPath(readSegment));
                if (readOffset >= end) {
                    if (readSegment >= writeSegment) {
                        throw corrupt(segmentPath(readSegment), "the end of the spill with " + spilled
                                + " URLs still counted as spilled");
                    }
                    readSegment++;
                    readOffset = 0;
                    continue;
                }
                room -= readSegment(end, room, refused, mayRefuse);
            }
            requeueCredit = Math.max(0, requeueCredit - refused.size());
            requeued += refused.size();
            for (PendingUrl url : refused) { // after the reads: the read loop ends where the spill ended
                append(url);
            }
        } catch (IOException e) {
            throw failure("cannot read", readSegment, e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reads records of the read segment, from the read offset to {@code end}, until {@code max} are taken by the
     * wrapped queue or {@code refused} holds {@code mayRefuse} it did not take; returns how many it took. Lock held.
     */
    private int readSegment(long end, int max, List<PendingUrl> refused, long mayRefuse) throws IOException {
        Path file = segmentPath(readSegment);
        int read = 0;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            channel.position(readOffset);
            InputStream stream = new BufferedInputStream(Channels.newInputStream(channel), WRITE_BUFFER);
            DataInputStream in = new DataInputStream(stream);
            while (read < max && readOffset < end && spilled > 0 && refused.size() < mayRefuse) {
                int length = in.readInt();
                if (length <= 0 || length > PendingUrlCodec.MAX_ENCODED_BYTES) {
                    throw corrupt(file, "a record length of " + length);
                }
                byte[] payload = new byte[length];
                in.readFully(payload);
                int stored = in.readInt();
                crc.reset();
                crc.update(payload);
                if (stored != (int) crc.getValue()) {
                    throw corrupt(file, String.format(Locale.ROOT, "a checksum mismatch (stored 0x%08x, computed"
                            + " 0x%08x)", stored, (int) crc.getValue()));
                }
                PendingUrl url = PendingUrlCodec.read(new DataInputStream(new java.io.ByteArrayInputStream(payload)));
                readOffset += length + 2L * Integer.BYTES;
                spilled--;
                if (memory.offer(url)) {
                    read++;
                } else {
                    refused.add(url);
                }
            }
        } catch (EOFException e) {
            throw corrupt(file, "its end before the last record was complete");
        }
        return read;
    }

    private CorruptFilterException corrupt(Path file, String what) {
        return new CorruptFilterException(String.format(Locale.ROOT, "%s: at byte %d found %s", file, readOffset,
                what));
    }

    private UncheckedIOException failure(String what, int segment, IOException e) {
        if (e instanceof CorruptFilterException) {
            return new UncheckedIOException(e.getMessage(), e); // already names the file
        }
        return new UncheckedIOException(what + " spill segment " + segmentPath(segment) + ": " + e.getMessage(), e);
    }

    private Path segmentPath(int segment) {
        return dir.resolve(segmentName(segment));
    }

    static String segmentName(int segment) {
        return String.format(Locale.ROOT, "%06d.seg", segment);
    }

    private static int segmentNumber(Path segment) {
        String name = segment.getFileName().toString();
        return Integer.parseInt(name.substring(0, name.length() - ".seg".length()));
    }

    private static List<Path> segments(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return files;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "[0-9][0-9][0-9][0-9][0-9][0-9].seg")) {
            stream.forEach(files::add);
        }
        return files;
    }
}
