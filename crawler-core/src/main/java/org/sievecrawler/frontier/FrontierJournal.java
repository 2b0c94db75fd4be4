package org.sievecrawler.frontier;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.zip.CRC32C;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.sieve.CorruptFilterException;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.PendingUrlCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The frontier's journal: every admission (a URL new to the Bloom filter, entering the pending URLs) and every
 * completion (a URL whose last record was written) appended as it happens, so that a resume replays what changed
 * after the last checkpoint and a kill -9 refetches only the URLs in flight.
 *
 * <p>Files: segments {@code DIR/NNNNNN.jnl} (the crawl uses {@code OUT/frontier/journal/}), numbered from 0. A
 * checkpoint {@link #rotate}s to a new segment inside its snapshot and records that segment's number; a resume
 * replays the segments from it on ({@link #resume}), and after the checkpoint is committed the older ones are
 * deleted ({@link #deleteBefore}).
 *
 * <p>Record format: {@code int length, byte type, payload, int CRC-32C(type + payload)}, big-endian,
 * {@code length} counting the payload's bytes. Type {@value #ADMIT} (admit): the payload is a
 * {@link PendingUrlCodec} URL. Type {@value #DONE} (done): the payload is the URL as a
 * {@link PendingUrlCodec#writeText} text. No header: the extension names the format, the type byte and the CRC
 * catch anything else.
 *
 * <p>Durability: one {@link #append} is one group (the links a page admitted, then the page's completion),
 * encoded into a per-thread buffer and handed to the kernel by one {@code write(2)}, with no buffering in the
 * JVM: once {@code append} returns, the entries survive a kill -9 of the process (they are in the page cache).
 * Segments are fsynced when rotated and closed, so after a power loss the entries up to the last checkpoint
 * survive, and perhaps some after. A torn or corrupt tail (a kill or power loss mid-write) can only be at the end
 * of the last segment; a resume cuts it, with a warning. The completion is the last entry of its group, so a torn
 * group never records a page completed while losing links found on it: a page whose completion is lost is
 * fetched again and offers its links again.
 *
 * <p>Writes go through a {@link FileOutputStream}, not a {@link FileChannel}: an interrupt of a thread writing to
 * a channel closes the channel for every thread, and the journal is written by every fetcher; a stream's write
 * is not interruptible. Fsync is {@link java.io.FileDescriptor#sync()}, which is not interruptible either.
 *
 * <p>Thread-safe: appends, rotation, deletion and close take one lock, held only for the write itself (the
 * encoding happens before it, in the calling thread's buffer). I/O errors of {@link #append} surface as
 * {@link UncheckedIOException} naming the segment, as the spill's do ({@code SpillingQueue}): the frontier calls
 * it on paths that declare no checked exceptions, and a crawl that cannot journal cannot go on. The
 * checkpoint-time methods throw {@link IOException}. Out of scope: what is admitted and completed and when (the
 * frontier decides, inside its own locking), and applying a {@link Replay} to the frontier.
 */
public final class FrontierJournal implements Journal {
    /** The type byte of an admission: a URL new to the Bloom filter, entering the pending URLs. */
    public static final byte ADMIT = 1;
    /** The type byte of a completion: a URL whose last record was written. */
    public static final byte DONE = 2;
    static final String SUFFIX = ".jnl";
    private static final Logger LOG = LoggerFactory.getLogger(FrontierJournal.class);
    /** The length and type in front of a payload. */
    private static final int HEAD = Integer.BYTES + 1;
    /** The CRC after it. */
    private static final int TAIL = Integer.BYTES;
    private static final ThreadLocal<Group> GROUPS = ThreadLocal.withInitial(Group::new);

    private final Path dir;
    private final ReentrantLock lock = new ReentrantLock();
    /** The segment being appended to. */
    private int segment;
    /** Its stream, or null once closed. */
    private FileOutputStream out;
    /**
     * The error of a failed append, after which the segment may end in a torn record: every later append fails
     * too (the crawl stops), so no good entry lands after the torn one, where a resume would cut it.
     */
    private IOException failure;
    private volatile long bytesAppended;
    private volatile long entriesAppended;

    private FrontierJournal(Path dir, int segment, FileOutputStream out) {
        this.dir = dir;
        this.segment = segment;
        this.out = out;
    }

    /**
     * A new, empty journal in {@code dir} (created if missing): segments an earlier crawl left there are deleted,
     * and segment 0 is created for appending.
     *
     * @throws IOException naming the folder or file that cannot be created or cleared
     */
    public static FrontierJournal create(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (int number : segmentNumbers(dir)) {
            Files.delete(segmentPath(dir, number));
        }
        return new FrontierJournal(dir, 0, openNew(dir, 0));
    }

    /**
     * Reads back the journal from segment {@code fromSegment} (the one the checkpoint being resumed named), in
     * append order, and opens it for appending in a new segment after the last one. Segments before
     * {@code fromSegment} are deleted. A torn or corrupt tail of the last segment (a kill or power loss during an
     * append) is cut off with a warning naming the file, the offset and the bytes cut; the entries before it are
     * replayed. A completion whose URL has no record in the crawl's output ({@code recorded} says no: the record
     * was lost after the journal noted it, e.g. pages.jsonl cut back) is not replayed as one, so its URL is fetched
     * again; {@link Replay#unrecorded()} counts them.
     *
     * @throws CorruptFilterException naming the file and the byte offset if a segment before the last holds a bad
     *     record (it was fsynced whole when rotated, so the disk or something else damaged it), or naming the
     *     missing file if {@code fromSegment} or a segment after it is missing
     * @throws IOException naming the file that cannot be read, cut or created
     */
    public static Replay resume(Path dir, int fromSegment, Predicate<String> recorded) throws IOException {
        if (fromSegment < 0) {
            throw new IllegalArgumentException("journal segment to resume from must be >= 0, was " + fromSegment);
        }
        List<Integer> numbers = segmentNumbers(dir);
        List<Integer> older = new ArrayList<>();
        List<Integer> replayed = new ArrayList<>();
        for (int number : numbers) {
            (number < fromSegment ? older : replayed).add(number);
        }
        for (int i = 0; i <= replayed.size(); i++) {
            int expected = fromSegment + i;
            if (i < replayed.size() ? replayed.get(i) != expected : i == 0) {
                throw new CorruptFilterException(segmentPath(dir, expected) + " is missing; the checkpoint replays"
                        + " the frontier journal from segment " + fromSegment + " on, and "
                        + (replayed.isEmpty() ? "no segment from it on is there" : "segments " + replayed
                        + " are there"));
            }
        }
        SegmentReader reader = new SegmentReader(recorded);
        for (int i = 0; i < replayed.size(); i++) {
            reader.read(segmentPath(dir, replayed.get(i)), i == replayed.size() - 1);
        }
        for (int number : older) { // only once the segments replayed were read
            Files.delete(segmentPath(dir, number));
        }
        int next = replayed.get(replayed.size() - 1) + 1;
        FrontierJournal journal = new FrontierJournal(dir, next, openNew(dir, next));
        return new Replay(Collections.unmodifiableList(reader.admitted), reader.completed, journal, replayed.size(),
                reader.done, reader.unrecorded, reader.bytesCut);
    }

    /**
     * Appends one group: the URLs admitted (may be empty), then the URL completed (may be null), with one write
     * call, so that the group is never interleaved with another thread's. Does nothing for an empty group.
     *
     * @throws UncheckedIOException naming the segment if the write fails
     * @throws IllegalStateException if the journal is closed
     * @throws IllegalArgumentException if {@code completed} is empty or a URL is longer than
     *     {@link PendingUrlCodec#MAX_TEXT_BYTES} in UTF-8 (it could not be read back)
     */
    public void append(List<PendingUrl> admitted, String completed) {
        if (admitted.isEmpty() && completed == null) {
            return;
        }
        Group group = GROUPS.get();
        int entries = group.encode(admitted, completed);
        lock.lock();
        try {
            if (out == null) {
                throw new IllegalStateException("the frontier journal in " + dir + " is closed; cannot append "
                        + entries + " entries");
            }
            if (failure != null) {
                throw new UncheckedIOException("the frontier journal " + segmentPath(dir, segment) + " failed to"
                        + " append earlier (" + failure.getMessage() + "); it takes no more entries", failure);
            }
            out.write(group.bytes(), 0, group.size());
            bytesAppended += group.size();
            entriesAppended += entries;
        } catch (IOException e) {
            failure = e; // part of the group may be written: an entry after it would follow a torn record
            throw new UncheckedIOException("cannot append to the frontier journal " + segmentPath(dir, segment)
                    + ": " + FileErrors.reason(segmentPath(dir, segment), e), e);
        } finally {
            lock.unlock();
            group.release();
        }
    }

    /**
     * Fsyncs and closes the current segment and starts the next; returns the new segment's number, the one a
     * checkpoint records. Call it inside the checkpoint's snapshot (while nothing is admitted or completed), so
     * that the new segment holds exactly the entries after the snapshot; it is safe against concurrent appends
     * all the same (each lands whole in one segment or the other).
     *
     * @throws IOException naming the file that cannot be synced or created; the current segment then stays
     */
    public int rotate() throws IOException {
        lock.lock();
        try {
            requireOpen();
            Path current = segmentPath(dir, segment);
            if (failure != null) {
                throw new IOException("cannot rotate the frontier journal " + current + ": an append failed ("
                        + failure.getMessage() + "), so it may end in a torn record, which only the last segment"
                        + " may", failure);
            }
            try {
                out.getFD().sync();
            } catch (IOException e) {
                throw new IOException("cannot sync the frontier journal " + current + ": "
                        + FileErrors.reason(current, e), e);
            }
            FileOutputStream next = openNew(dir, segment + 1);
            FileOutputStream previous = out;
            out = next;
            segment++;
            try {
                previous.close();
            } catch (IOException e) {
                throw new IOException("cannot close the frontier journal " + current + ": "
                        + FileErrors.reason(current, e), e);
            }
            return segment;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Deletes the segments before {@code before} (never the current one): call it once a checkpoint naming
     * {@code before} is committed, whose resume no longer needs them.
     *
     * @throws IOException naming the file that cannot be deleted
     */
    public void deleteBefore(int before) throws IOException {
        lock.lock();
        try {
            int limit = Math.min(before, segment);
            for (int number : segmentNumbers(dir)) {
                if (number < limit) {
                    Path file = segmentPath(dir, number);
                    try {
                        Files.deleteIfExists(file);
                    } catch (IOException e) {
                        throw new IOException("cannot delete the frontier journal " + file + ": "
                                + FileErrors.reason(file, e), e);
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** The number of the segment being appended to. */
    public int segment() {
        lock.lock();
        try {
            return segment;
        } finally {
            lock.unlock();
        }
    }

    /** Bytes appended since this journal was created or resumed (replayed bytes are not counted). */
    public long bytesAppended() {
        return bytesAppended;
    }

    /** Entries (admissions and completions) appended since this journal was created or resumed. */
    public long entriesAppended() {
        return entriesAppended;
    }

    /** The folder holding the segments. */
    public Path dir() {
        return dir;
    }

    /** Fsyncs and closes the current segment; appending afterwards fails. Closing twice does nothing. */
    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (out == null) {
                return;
            }
            Path current = segmentPath(dir, segment);
            try (FileOutputStream closing = out) {
                out = null;
                closing.getFD().sync();
            } catch (IOException e) {
                throw new IOException("cannot close the frontier journal " + current + ": "
                        + FileErrors.reason(current, e), e);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "FrontierJournal[" + segmentPath(dir, segment) + ", " + entriesAppended + " entries appended]";
    }

    private void requireOpen() {
        if (out == null) {
            throw new IllegalStateException("the frontier journal in " + dir + " is closed");
        }
    }

    /** Creates segment {@code number}, which must not exist, and makes its name durable. */
    private static FileOutputStream openNew(Path dir, int number) throws IOException {
        Path file = segmentPath(dir, number);
        try {
            Files.createFile(file);
            FileOutputStream stream = new FileOutputStream(file.toFile(), true);
            syncDirectory(dir);
            return stream;
        } catch (IOException e) {
            throw new IOException("cannot create the frontier journal " + file + ": " + FileErrors.reason(file, e),
                    e);
        }
    }

    /** Fsyncs a folder so a new name in it survives a power loss; a no-op where unsupported (Windows). */
    private static void syncDirectory(Path folder) {
        try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // not supported on this platform; the file's contents are still synced at rotation
        }
    }

    static Path segmentPath(Path dir, int number) {
        return dir.resolve(String.format(Locale.ROOT, "%06d%s", number, SUFFIX));
    }

    /** The numbers of the segments in {@code dir}, ascending; none if it does not exist. */
    private static List<Integer> segmentNumbers(Path dir) throws IOException {
        List<Integer> numbers = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return numbers;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "[0-9][0-9][0-9][0-9][0-9][0-9]" + SUFFIX)) {
            for (Path file : files) {
                numbers.add(Integer.parseInt(file.getFileName().toString().substring(0, 6)));
            }
        }
        numbers.sort(null);
        return numbers;
    }

    /**
     * A thread's encoding buffer: one group's records, back to back. Not thread-safe (one per thread); a buffer
     * grown past {@link #KEEP_BYTES} by a page with very many links is dropped after use.
     */
    private static final class Group extends ByteArrayOutputStream {
        private static final int KEEP_BYTES = 1 << 20;
        private final DataOutputStream data = new DataOutputStream(this);
        private final CRC32C crc = new CRC32C();

        Group() {
            super(4096);
        }

        /** Encodes the group into this buffer; returns the number of entries. */
        int encode(List<PendingUrl> admitted, String completed) {
            reset();
            try {
                for (PendingUrl url : admitted) {
                    requireReadable(url.url());
                    requireReadable(url.referrer());
                    int start = begin(ADMIT);
                    PendingUrlCodec.write(data, url);
                    end(start);
                }
                if (completed != null) {
                    if (completed.isEmpty()) {
                        throw new IllegalArgumentException("a completed URL must not be empty");
                    }
                    requireReadable(completed);
                    int start = begin(DONE);
                    PendingUrlCodec.writeText(data, completed);
                    end(start);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot encode a frontier journal entry: " + e.getMessage(), e);
            }
            return admitted.size() + (completed == null ? 0 : 1);
        }

        private int begin(byte type) throws IOException {
            int start = count;
            data.writeInt(0); // the payload length, set in end()
            data.writeByte(type);
            return start;
        }

        private void end(int start) throws IOException {
            int payload = count - start - HEAD;
            buf[start] = (byte) (payload >>> 24);
            buf[start + 1] = (byte) (payload >>> 16);
            buf[start + 2] = (byte) (payload >>> 8);
            buf[start + 3] = (byte) payload;
            crc.reset();
            crc.update(buf, start + Integer.BYTES, payload + 1);
            data.writeInt((int) crc.getValue());
        }

        private static void requireReadable(String text) {
            if (text != null && text.length() > PendingUrlCodec.MAX_TEXT_BYTES / 3
                    && text.getBytes(StandardCharsets.UTF_8).length > PendingUrlCodec.MAX_TEXT_BYTES) {
                throw new IllegalArgumentException("a URL of " + text.getBytes(StandardCharsets.UTF_8).length
                        + " bytes cannot be journaled: the limit is " + PendingUrlCodec.MAX_TEXT_BYTES + " ("
                        + text.substring(0, 80) + "...)");
            }
        }

        byte[] bytes() {
            return buf;
        }

        /** After the write: drops a buffer a huge group grew, so a thread does not keep it for the crawl. */
        void release() {
            if (buf.length > KEEP_BYTES) {
                GROUPS.remove();
            }
        }
    }

    /** Reads segments in order, collecting their entries. Not thread-safe (one resume). */
    private static final class SegmentReader {
        final List<PendingUrl> admitted = new ArrayList<>();
        final CompletedUrls completed = CompletedUrls.none();
        final Predicate<String> recorded;
        long done;
        long unrecorded;
        long bytesCut;
        private final CRC32C crc = new CRC32C();
        /** The bytes of the record {@link #readRecord} read last. */
        private long consumed;

        SegmentReader(Predicate<String> recorded) {
            this.recorded = recorded;
        }

        /** Reads {@code file}; a bad record ends it with a cut if it is the last segment, else is an error. */
        void read(Path file, boolean last) throws IOException {
            long size = Files.size(file);
            long offset = 0;
            String bad = null;
            try (InputStream stream = new BufferedInputStream(Files.newInputStream(file), 64 * 1024)) {
                DataInputStream in = new DataInputStream(stream);
                while (offset < size) {
                    bad = readRecord(in, size - offset);
                    if (bad != null) {
                        break;
                    }
                    offset += consumed;
                }
            }
            if (bad == null) {
                return;
            }
            if (!last) {
                throw new CorruptFilterException(String.format(Locale.ROOT, "%s: at byte %d found %s; the segment"
                        + " was synced whole before the next was started, so the disk or another program damaged"
                        + " it", file, offset, bad));
            }
            long cut = size - offset;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(offset);
                channel.force(true);
            }
            bytesCut += cut;
            LOG.warn("{}: cut {} bytes at byte {} ({}): the tail of an append a kill or power loss interrupted;"
                    + " the entries before it are replayed", file, cut, offset, bad);
        }

        /**
         * Reads one record of at most {@code available} bytes and applies it; returns null, or what is wrong with
         * it (then nothing is applied). Sets {@link #consumed}.
         */
        private String readRecord(DataInputStream in, long available) throws IOException {
            if (available < HEAD + TAIL) {
                return "a record cut short (" + available + " bytes left, a record needs at least "
                        + (HEAD + TAIL) + ")";
            }
            int length = in.readInt();
            int type = in.readByte();
            if (length < 0 || length > PendingUrlCodec.MAX_ENCODED_BYTES) {
                return "a record length of " + length + " (expected 0 to " + PendingUrlCodec.MAX_ENCODED_BYTES + ")";
            }
            if (available < (long) HEAD + length + TAIL) {
                return "a record cut short (its length says " + (HEAD + length + TAIL) + " bytes, " + available
                        + " are left)";
            }
            byte[] payload = new byte[length];
            in.readFully(payload);
            int stored = in.readInt();
            crc.reset();
            crc.update(type);
            crc.update(payload);
            if (stored != (int) crc.getValue()) {
                return String.format(Locale.ROOT, "a checksum mismatch (stored 0x%08x, computed 0x%08x)", stored,
                        (int) crc.getValue());
            }
            DataInputStream fields = new DataInputStream(new ByteArrayInputStream(payload));
            try {
                if (type == ADMIT) {
                    PendingUrl url = PendingUrlCodec.read(fields);
                    if (fields.available() > 0) {
                        return "an admit record with " + fields.available() + " bytes after its URL";
                    }
                    admitted.add(url);
                } else if (type == DONE) {
                    String url = PendingUrlCodec.readText(fields);
                    if (url == null || url.isEmpty() || fields.available() > 0) {
                        return "a done record that is not one URL";
                    }
                    if (recorded.test(url)) {
                        completed.add(url);
                    } else {
                        unrecorded++;
                    }
                    done++;
                } else {
                    return "a record of type " + type + " (expected " + ADMIT + " admit or " + DONE + " done)";
                }
            } catch (EOFException | CorruptFilterException e) {
                return "a record whose payload cannot be read (" + e.getMessage() + ")";
            }
            consumed = (long) HEAD + length + TAIL;
            return null;
        }
    }
}
