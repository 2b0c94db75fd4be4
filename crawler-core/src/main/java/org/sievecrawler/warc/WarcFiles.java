package org.sievecrawler.warc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The series of WARC files a crawl appends to: {@code PREFIX-yyyyMMddHHmmss-NNNNN.warc.gz} in one folder, the
 * timestamp the file's creation (UTC) and NNNNN its number in the crawl, from 00000. Each file starts with the
 * record that {@link Opening} makes for it (the warcinfo). A group of records goes to a new file when it would
 * take the current one past the maximum size, unless the current one holds nothing but its warcinfo: a file is
 * never left without records, and a group larger than the maximum gets a file of its own.
 *
 * <p>Thread-safe: {@link #append} holds the lock only to write already-compressed records, with one gathering
 * write, straight to the file (no buffer in the JVM), so a crash loses nothing appended and leaves every file
 * readable to its last whole record. A failed write is cut back to the last whole record before it is reported.
 */
final class WarcFiles implements AutoCloseable {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmss")
            .withZone(ZoneOffset.UTC);
    private static final int MAX_SERIAL = 99_999;

    /** Makes the first record of a new file, knowing its name. */
    @FunctionalInterface
    interface Opening {
        byte[] firstRecord(String fileName) throws IOException;
    }

    /** Where a group of records went: the file's name and the offset of the group's first record. */
    record Placement(String file, long offset) {
    }

    private final Path dir;
    private final String prefix;
    private final long maxSize;
    private final Clock clock;
    private final Opening opening;
    private final List<Path> files = new ArrayList<>();
    private int serial;
    private FileChannel channel;
    private String name;
    private long size;
    /** The size of the current file with just its first record: a file this size holds no other record yet. */
    private long openingSize;
    private boolean closed;

    WarcFiles(Path dir, String prefix, long maxSize, Clock clock, Opening opening) {
        this.dir = dir;
        this.prefix = prefix;
        this.maxSize = maxSize;
        this.clock = clock;
        this.opening = opening;
    }

    /**
     * Appends records, in order and next to each other, to the current file or to a new one.
     *
     * @return the file and the offset of the first record
     * @throws IOException naming the file when it cannot be created or written
     */
    synchronized Placement append(byte[]... records) throws IOException {
        if (closed) {
            throw new IOException("the WARC files in " + dir + " are closed");
        }
        long length = 0;
        for (byte[] record : records) {
            length += record.length;
        }
        if (channel == null || (size > openingSize && size + length > maxSize)) {
            roll();
        }
        long offset = size;
        write(records);
        return new Placement(name, offset);
    }

    /** The files written so far, oldest first. */
    synchronized List<Path> files() {
        return List.copyOf(files);
    }

    /** Opens the first file now (so that an unwritable folder is reported before the crawl starts). */
    synchronized void open() throws IOException {
        if (channel == null) {
            roll();
        }
    }

    private void roll() throws IOException {
        closeCurrent();
        String stamp = STAMP.format(clock.instant());
        while (true) {
            if (serial > MAX_SERIAL) {
                throw new IOException("no free WARC file name left in " + dir + " for prefix " + prefix
                        + " (serials up to " + MAX_SERIAL + " are taken)");
            }
            String candidate = String.format("%s-%s-%05d.warc.gz", prefix, stamp, serial++);
            Path path = dir.resolve(candidate);
            try {
                channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                continue; // an earlier crawl's file of the same second: take the next number
            } catch (IOException e) {
                throw new IOException("cannot create the WARC file " + path + ": " + describe(e), e);
            }
            name = candidate;
            files.add(path);
            size = 0;
            write(new byte[][] {opening.firstRecord(candidate)});
            openingSize = size;
            return;
        }
    }

    private void write(byte[][] records) throws IOException {
        ByteBuffer[] buffers = new ByteBuffer[records.length];
        long length = 0;
        for (int i = 0; i < records.length; i++) {
            buffers[i] = ByteBuffer.wrap(records[i]);
            length += records[i].length;
        }
        try {
            long written = 0;
            while (written < length) {
                written += channel.write(buffers);
            }
            size += length;
        } catch (IOException e) {
            try {
                channel.truncate(size); // back to the last whole record
            } catch (IOException ignored) {
                // the write's own error is the one to report
            }
            throw new IOException("cannot write to the WARC file " + dir.resolve(name) + ": " + describe(e), e);
        }
    }

    private void closeCurrent() throws IOException {
        if (channel != null) {
            FileChannel current = channel;
            channel = null;
            try {
                current.force(false);
            } finally {
                current.close();
            }
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            closed = true;
            closeCurrent();
        }
    }

    private static String describe(IOException e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
    }
}
