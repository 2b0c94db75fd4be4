package org.sievecrawler.seed;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.link.SeedHosts;

/**
 * A crawl's seed file as the crawl keeps it: copied once, when the crawl starts, into its folder (the user's file may
 * change or go; a resume reads the copy), with its length and CRC-32C, which each checkpoint records
 * ({@link SeedPosition}) and a resume checks. Bounds: the file must be a regular file of at most
 * {@link #MAX_BYTES} bytes (checked by type before it is opened, and again while it is copied, for a file that
 * grows); each line is read up to {@link #MAX_LINE_BYTES} bytes, a longer one skipped and named. Beside the copy, the
 * seeds' hosts once gathered ({@link #writeHosts}), so a resume has them at once instead of reading the file again
 * (a file of another seed file or damaged is ignored: the hosts are gathered again).
 *
 * <p>Stateless and thread-safe. Out of scope: what its lines mean ({@link SeedFeed}).
 */
public final class SeedFile {
    /** The most bytes a seed file may have: 16 GiB, some 500 million seeds of ~30 bytes. */
    public static final long MAX_BYTES = 16L << 30;
    /**
     * The most bytes of a line read: a URL is at most 2,048 characters
     * ({@link org.sievecrawler.link.UrlNormalizer#MAX_LENGTH}), up to 3 bytes each, and a comment may follow it.
     */
    public static final int MAX_LINE_BYTES = 16 * 1024;

    private SeedFile() {
    }

    /**
     * Copies {@code from} to {@code to} (replaced if it exists, then synced to disk) and returns its identity, at
     * offset 0.
     *
     * @throws InputFileException naming {@code from} when it is not a regular file, is larger than
     *     {@link #MAX_BYTES} or cannot be read, or naming {@code to} when it cannot be written
     */
    public static SeedPosition copy(Path from, Path to) throws InputFileException {
        InputFile.requireRegularFile(from, "a seed file");
        CRC32C crc = new CRC32C();
        byte[] buffer = new byte[64 * 1024];
        long bytes = 0;
        try (InputStream in = Files.newInputStream(from);
                FileChannel channel = FileChannel.open(to, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            OutputStream out = Channels.newOutputStream(channel);
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                bytes += n;
                if (bytes > MAX_BYTES) {
                    throw InputFile.refusal(from, "larger than " + MAX_BYTES + " bytes, the most a seed file may"
                            + " have");
                }
                crc.update(buffer, 0, n);
                out.write(buffer, 0, n);
            }
            channel.force(true);
        } catch (InputFileException e) {
            throw e;
        } catch (IOException e) {
            throw InputFile.refusal(from, "cannot be copied to " + to + ": " + FileErrors.reason(to, e));
        }
        return new SeedPosition(bytes, crc.getValue(), 0, 0);
    }

    /**
     * Writes the hosts gathered from the seed file {@code identity} names to {@code file} (through a temporary file,
     * synced, then renamed into place), with that identity and a CRC-32C of its own, for {@link #readHosts}.
     *
     * @throws IOException naming the file when it cannot be written
     */
    public static void writeHosts(Path file, SeedPosition identity, SeedHosts hosts) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            CRC32C crc = new CRC32C();
            DataOutputStream out = new DataOutputStream(new CheckedOutputStream(new BufferedOutputStream(
                    Channels.newOutputStream(channel), 1 << 16), crc));
            out.writeLong(identity.fileBytes());
            out.writeLong(identity.fileCrc32c());
            hosts.writeTo(out);
            out.flush();
            new DataOutputStream(Channels.newOutputStream(channel)).writeLong(crc.getValue());
            channel.force(true);
        } catch (IOException e) {
            throw new IOException("cannot write " + temporary + ": " + FileErrors.reason(temporary, e), e);
        }
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * The hosts {@link #writeHosts} wrote for the seed file {@code identity} names, still filling; empty when there
     * is no such file, or it is of another seed file, damaged or unreadable (the caller reads the seed file again).
     */
    public static Optional<SeedHosts> readHosts(Path file, SeedPosition identity) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (InputStream raw = Files.newInputStream(file)) {
            long length = Files.size(file);
            CRC32C crc = new CRC32C();
            DataInputStream in = new DataInputStream(new CheckedInputStream(new BufferedInputStream(
                    new LimitedStream(raw, length - Long.BYTES), 1 << 16), crc));
            if (in.readLong() != identity.fileBytes() || in.readLong() != identity.fileCrc32c()) {
                return Optional.empty();
            }
            SeedHosts hosts = SeedHosts.readFrom(in, length);
            long expected = crc.getValue();
            if (in.read() != -1 || new DataInputStream(raw).readLong() != expected) {
                return Optional.empty();
            }
            return Optional.of(hosts);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The first {@code limit} bytes of a stream, the rest left in it. */
    private static final class LimitedStream extends FilterInputStream {
        private long left;

        LimitedStream(InputStream in, long limit) {
            super(in);
            this.left = limit;
        }

        @Override
        public int read() throws IOException {
            if (left <= 0) {
                return -1;
            }
            int b = in.read();
            left -= b < 0 ? 0 : 1;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            left -= Math.max(n, 0);
            return n;
        }
    }

    /**
     * Checks that {@code copy} is the file {@code position} names, by its length and CRC-32C.
     *
     * @throws InputFileException naming the copy and what differs
     */
    public static void verify(Path copy, SeedPosition position) throws InputFileException {
        InputFile.requireRegularFile(copy, "the crawl's copy of its seed file");
        CRC32C crc = new CRC32C();
        byte[] buffer = new byte[64 * 1024];
        long bytes = 0;
        try (InputStream in = Files.newInputStream(copy)) {
            for (int n = in.read(buffer); n > 0 && bytes <= position.fileBytes(); n = in.read(buffer)) {
                bytes += n;
                crc.update(buffer, 0, n);
            }
        } catch (IOException e) {
            throw InputFile.refusal(copy, FileErrors.reason(copy, e));
        }
        if (bytes != position.fileBytes() || crc.getValue() != position.fileCrc32c()) {
            throw InputFile.refusal(copy, "not the seed file the checkpoint names (" + position.fileBytes()
                    + " bytes, CRC-32C " + Long.toHexString(position.fileCrc32c()) + "; found "
                    + (bytes > position.fileBytes() ? "more bytes" : bytes + " bytes, CRC-32C "
                            + Long.toHexString(crc.getValue())) + ")");
        }
    }
}
