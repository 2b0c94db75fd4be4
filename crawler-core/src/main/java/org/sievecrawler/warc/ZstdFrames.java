package org.sievecrawler.warc;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Reads a {@code .warc.zst} file frame by frame: where each Zstandard frame starts, and its content decompressed
 * as a stream (a frame of 46 KB may hold 1.5 GB of zeros: it is checked and measured, never held whole), for jwarc
 * to parse as plain WARC (one record per frame as {@link WarcArchive} writes, or more). jwarc 0.36
 * reads {@code .warc.zst} itself, but its reader loops without end on these files (at the end of a small one, in
 * the middle of a large one), and as well on files the {@code zstd} command line tool made (one WARC record
 * compressed by {@code zstd}, or two such files concatenated: the records are read, then {@code hasNext} never
 * returns), so it is jwarc's, not these files'; the listing and the tests read them through this class.
 *
 * <p>Files with a dictionary frame (allowed by the IIPC WARC-zstd proposal; {@link WarcArchive} writes none) are
 * reported as unreadable rather than read. Not thread-safe: one thread at a time; it holds the file open until
 * {@link #close()}.
 */
final class ZstdFrames implements AutoCloseable {
    private static final int ZSTD_MAGIC = 0xFD2FB528;
    private static final int DICTIONARY_MAGIC = 0x184D2A5D;
    private static final int FIRST_READ = 64 * 1024;
    /** How much is read from the file at once: frames are found and decompressed from this window. */
    private static final int WINDOW = 1024 * 1024;

    /**
     * One frame.
     *
     * @param offset where the frame starts in the file
     * @param compressed the frame as it is in the file
     * @param contentBytes the length of its content, decompressed
     */
    record Frame(long offset, byte[] compressed, long contentBytes) {
        /**
         * Its content, decompressed as it is read: never whole in memory, since a frame of a few kilobytes may hold
         * gigabytes.
         */
        InputStream content() throws IOException {
            return new ZstdInputStream(new ByteArrayInputStream(compressed));
        }
    }

    private final Path file;
    private final FileChannel channel;
    private long position;
    private byte[] window = new byte[0];
    private long windowStart;

    /** Opens {@code file}, to read it from its start (or from {@link #seek}). */
    ZstdFrames(Path file) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file);
    }

    /** Moves to {@code offset}, where a frame starts. */
    void seek(long offset) {
        position = offset;
    }

    /** Whether {@code file} starts as a .warc.zst file does: with a Zstandard frame or a dictionary frame. */
    static boolean startsWithFrame(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file)) {
            ByteBuffer first = ByteBuffer.allocate(4);
            while (first.hasRemaining() && channel.read(first) >= 0) {
                // until 4 bytes or the end
            }
            int magic = magic(first.array(), first.position());
            return magic == ZSTD_MAGIC || magic == DICTIONARY_MAGIC;
        }
    }

    /** The little-endian magic number the first {@code length} of {@code bytes} start with; 0 when under 4. */
    private static int magic(byte[] bytes, int length) {
        return length < 4 ? 0 : ByteBuffer.wrap(bytes, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    }

    /** Where the next frame starts: the end of the last one read whole. */
    long position() {
        return position;
    }

    /**
     * The next frame, or null at the end of the file.
     *
     * @throws IOException naming the file and the offset when the frame there is cut, corrupt, a dictionary frame
     *     or not a Zstandard frame; {@link #position()} stays at its start
     */
    Frame next() throws IOException {
        long remaining = channel.size() - position;
        if (remaining <= 0) {
            return null;
        }
        int want = (int) Math.min(FIRST_READ, remaining);
        while (true) {
            byte[] bytes = read(position, want);
            int magic = magic(bytes, bytes.length);
            if (bytes.length >= 4 && magic == DICTIONARY_MAGIC) {
                throw problem("a dictionary frame (0x184D2A5D), which this reader does not support");
            }
            if (bytes.length < 4 || magic != ZSTD_MAGIC) {
                throw problem("not a Zstandard frame (magic 0x" + Integer.toHexString(bytes.length < 4 ? 0 : magic)
                        + ", must be 0xfd2fb528)");
            }
            long size;
            String error = null;
            try {
                size = Zstd.findFrameCompressedSize(bytes, 0, bytes.length);
                if (Zstd.isError(size)) {
                    error = Zstd.getErrorName(size);
                }
            } catch (ZstdException e) {
                size = -1;
                error = e.getMessage();
            }
            if (error != null) {
                if (want < remaining && want <= Integer.MAX_VALUE / 2) {
                    want = (int) Math.min((long) want * 2, remaining);
                    continue; // the frame goes on past what was read
                }
                throw problem(want < remaining ? "a frame over 1 GB" : "a frame cut at the end of the file ("
                        + error + ")");
            }
            long contentBytes; // decompressed as a stream to check it, whatever size the frame says it has
            try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(bytes, 0, (int) size))) {
                contentBytes = in.transferTo(OutputStream.nullOutputStream());
            } catch (IOException | ZstdException e) {
                throw problem("a corrupt frame (" + e.getMessage() + ")");
            }
            Frame frame = new Frame(position, java.util.Arrays.copyOf(bytes, (int) size), contentBytes);
            position += size;
            return frame;
        }
    }

    /** Up to {@code length} bytes of the file from {@code at} (fewer at its end), from the window when it has them. */
    private byte[] read(long at, int length) throws IOException {
        if (at < windowStart || at + length > windowStart + window.length) {
            long left = channel.size() - at;
            ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(Math.max(length, WINDOW), left));
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, at + buffer.position()) < 0) {
                    break;
                }
            }
            window = buffer.position() == buffer.capacity() ? buffer.array()
                    : java.util.Arrays.copyOf(buffer.array(), buffer.position());
            windowStart = at;
        }
        int from = (int) (at - windowStart);
        return java.util.Arrays.copyOfRange(window, from, Math.min(from + length, window.length));
    }

    private IOException problem(String what) {
        return new IOException(file + " at offset " + position + ": " + what);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
