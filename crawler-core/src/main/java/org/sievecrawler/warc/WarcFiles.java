package org.sievecrawler.warc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.profile.WarcCompression;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The series of WARC files a crawl appends to: {@code PREFIX-yyyyMMddHHmmss-NNNNN.warc.gz} (or the suffix given, {@code
 * .warc.zst}) in one folder, the timestamp the file's creation (UTC) and NNNNN its number in the crawl, from 00000
 * (after the highest an earlier run of a resumed crawl left, whatever its compression; see {@link #open}). Each file
 * starts with the record that {@link Opening} makes for it (the warcinfo). A group of records goes to a new file when
 * it would take the current one past the maximum size, unless the current one holds nothing but its warcinfo: a file is
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
    /** A name this class gives: PREFIX-yyyyMMddHHmmss-NNNNN and the suffix of a {@link WarcCompression}. */
    private static final Pattern NAME = Pattern.compile("(.*)-\\d{14}-(\\d{5})("
            + Arrays.stream(WarcCompression.values()).map(c -> Pattern.quote(c.suffix()))
                    .collect(Collectors.joining("|")) + ")");
    /** The same names as a glob for {@link Files#newDirectoryStream(Path, String)}, after the prefix. */
    private static final String GLOB = "-*{" + Arrays.stream(WarcCompression.values()).map(WarcCompression::suffix)
            .collect(Collectors.joining(",")) + "}";
    private static final Logger LOG = LoggerFactory.getLogger(WarcFiles.class);

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
    private final String suffix;
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

    /** @param suffix the end of each file's name: {@code .warc.gz} or {@code .warc.zst} */
    WarcFiles(Path dir, String prefix, String suffix, long maxSize, Clock clock, Opening opening) {
        this.dir = dir;
        this.prefix = prefix;
        this.suffix = suffix;
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

    /**
     * The WARC files in {@code dir} named as an archive with {@code prefix} names them (either compression), in the
     * order of their names; none when {@code dir} does not exist.
     *
     * @throws IOException when the folder cannot be listed
     */
    static List<Path> existing(Path dir, String prefix) throws IOException {
        List<Path> files = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return files;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, prefix + GLOB)) {
            for (Path file : entries) {
                Matcher matcher = NAME.matcher(file.getFileName().toString());
                if (matcher.matches() && matcher.group(1).equals(prefix)) {
                    files.add(file);
                }
            }
        }
        files.sort(Comparator.naturalOrder());
        return files;
    }

    /** The serial number in the name of a file {@link #existing} found. */
    private static int serialOf(Path file) {
        Matcher matcher = NAME.matcher(file.getFileName().toString());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a WARC file name of this archive: " + file);
        }
        return Integer.parseInt(matcher.group(2));
    }

    /**
     * Opens the first file now (so that an unwritable folder is reported before the crawl starts). Files an
     * earlier run left in the folder with this prefix are kept: numbering goes on after the highest, and the
     * newest of them, if a crash cut its last record, is cut back to its last whole record (the only change ever
     * made to a finished file), so every file reads to its end. A file with no whole record is not touched.
     *
     * @throws IOException naming the file when the newest earlier file cannot be read or cut, or a new one made
     */
    synchronized void open() throws IOException {
        if (channel == null) {
            Path newest = null;
            int highest = -1;
            for (Path file : existing(dir, prefix)) {
                int number = serialOf(file);
                if (number > highest) {
                    highest = number;
                    newest = file;
                }
            }
            if (newest != null) {
                serial = highest + 1;
                cutTornTail(newest);
            }
            roll();
        }
    }

    private static void cutTornTail(Path file) throws IOException {
        WarcListing.End end = WarcListing.list(file, entry -> { });
        if (!end.complete() && end.records() == 0) {
            LOG.warn("{} holds no whole WARC record ({}); left as it is", file, end.problem());
        } else if (!end.complete()) {
            LOG.warn("{} ends in a cut record at byte {} ({}); cutting it back to its last whole record", file,
                    end.stoppedAt(), end.problem());
            try (FileChannel cut = FileChannel.open(file, StandardOpenOption.WRITE)) {
                cut.truncate(end.stoppedAt());
                cut.force(true);
            }
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
            String candidate = String.format("%s-%s-%05d%s", prefix, stamp, serial++, suffix);
            Path path = dir.resolve(candidate);
            try {
                channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                continue; // an earlier crawl's file of the same second: take the next number
            } catch (IOException e) {
                throw new IOException("cannot create the WARC file " + path + ": " + FileErrors.reason(path, e),
                        e);
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
            throw new IOException("cannot write to the WARC file " + dir.resolve(name) + ": "
                    + FileErrors.reason(dir.resolve(name), e), e);
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
}
