package org.sievecrawler.input;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * A text file read as a stream, one line at a time, from any byte offset, each line bounded: for a file too large
 * to read whole that is read once, in order (a seed file of millions of lines). A line is a {@link TextLine}, its
 * text or how its bytes are not UTF-8, as {@link InputFile#readLines} gives it (lines end at LF, CR LF or CR; a
 * UTF-8 byte order mark at the file's start is dropped); a line longer than {@code maxLineBytes} is a
 * {@link TextLine.TooLong} holding its first bytes, the rest skipped without being kept. {@link #offset()} is the
 * byte where the next line starts, and {@link #lineNumber()} the number of the last line read, so a reader opened
 * again at that offset and line number goes on where this one was.
 *
 * <p>Not thread-safe: one thread reads. Out of scope: which file may be read (the caller checks its type and size,
 * {@link InputFile#requireRegularFile}) and what a line means.
 */
public final class LineReader implements AutoCloseable {
    private static final int BUFFER = 64 * 1024;
    /** How much of a line too long a {@link TextLine.TooLong} shows. */
    private static final int SHOWN = 100;

    private final Path file;
    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] buffer = new byte[BUFFER];
    private int position;
    private int limit;
    private long offset;
    /** Bytes that may still be read from the file: the reader ends there as at the file's end. */
    private long remaining;
    private long lineNumber;
    private byte[] line = new byte[256];

    private LineReader(Path file, InputStream in, long offset, long lineNumber, int maxLineBytes, long limit) {
        this.file = file;
        this.in = in;
        this.offset = offset;
        this.remaining = Math.max(0, limit - offset);
        this.lineNumber = lineNumber;
        this.maxLineBytes = maxLineBytes;
    }

    /**
     * {@code file} read from byte {@code offset}, where line {@code lineNumber + 1} starts (0 and 0 for the start of
     * the file).
     *
     * @throws InputFileException naming the file when it cannot be opened
     */
    public static LineReader open(Path file, long offset, long lineNumber, int maxLineBytes)
            throws InputFileException {
        return open(file, offset, lineNumber, maxLineBytes, Long.MAX_VALUE);
    }

    /**
     * As {@link #open(Path, long, long, int)}, reading no byte at or past {@code limit}: the reader ends there as at
     * the file's end (its last line then cut there), for a reader that looks only at a file's start.
     *
     * @throws InputFileException naming the file when it cannot be opened
     */
    public static LineReader open(Path file, long offset, long lineNumber, int maxLineBytes, long limit)
            throws InputFileException {
        if (offset < 0 || lineNumber < 0 || maxLineBytes < 1) {
            throw new IllegalArgumentException("offset " + offset + ", line " + lineNumber + " and maxLineBytes "
                    + maxLineBytes + " must be >= 0, >= 0 and >= 1");
        }
        try {
            FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
            channel.position(offset);
            return new LineReader(file, Channels.newInputStream(channel), offset, lineNumber, maxLineBytes, limit);
        } catch (IOException e) {
            throw new InputFileException(file, FileErrors.reason(file, e), e);
        }
    }

    /**
     * The next line, or null at the end of the file.
     *
     * @throws InputFileException naming the file when it cannot be read
     */
    public TextLine next() throws InputFileException {
        long start = offset;
        int length = 0;
        long skipped = 0; // bytes of a line too long, past those kept
        boolean any = false;
        while (true) {
            if (position == limit && !fill()) {
                if (!any) {
                    return null;
                }
                break;
            }
            byte b = buffer[position++];
            offset++;
            any = true;
            if (b == '\n') {
                break;
            }
            if (b == '\r') {
                if ((position < limit || fill()) && buffer[position] == '\n') {
                    position++;
                    offset++;
                }
                break;
            }
            if (length < maxLineBytes) {
                if (length == line.length) {
                    line = Arrays.copyOf(line, Math.min(maxLineBytes, line.length * 2));
                }
                line[length++] = b;
            } else {
                skipped++;
            }
        }
        lineNumber++;
        int from = 0;
        if (start == 0 && length >= 3 && (line[0] & 0xFF) == 0xEF
                && (line[1] & 0xFF) == 0xBB && (line[2] & 0xFF) == 0xBF) {
            from = 3; // the byte order mark of the file's first line
        }
        if (skipped > 0) {
            TextLine shown = InputFile.line(lineNumber, line, from,
                    Math.min(length, from + SHOWN));
            String first = shown instanceof TextLine.Text text ? text.text() : ((TextLine.NotUtf8) shown).shown();
            return new TextLine.TooLong(lineNumber, length - from + skipped, first);
        }
        return InputFile.line(lineNumber, line, from, length);
    }

    /** The byte where the next line starts: all lines before it were returned. */
    public long offset() {
        return offset;
    }

    /** The number of the last line returned (0 before the first). */
    public long lineNumber() {
        return lineNumber;
    }

    private boolean fill() throws InputFileException {
        try {
            int n = remaining <= 0 ? -1 : in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
            if (n <= 0) {
                return false;
            }
            remaining -= n;
            position = 0;
            limit = n;
            return true;
        } catch (IOException e) {
            throw new InputFileException(file, "cannot be read at byte " + offset + ": " + FileErrors.reason(file, e),
                    e);
        }
    }

    @Override
    public void close() throws InputFileException {
        try {
            in.close();
        } catch (IOException e) {
            throw new InputFileException(file, FileErrors.reason(file, e), e);
        }
    }
}
