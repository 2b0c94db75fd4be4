package org.sievecrawler.input;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A file the user hands the crawler, read whole into memory only when it is a regular file (a directory, a device
 * such as {@code /dev/zero}, a FIFO or a socket is refused by its type, before it is opened: opening a FIFO would
 * wait for a writer) and no larger than the {@link Bound} of its kind (refused by the size the file system gives,
 * before reading, and again while reading, for a file that grows or whose size is not its content's, as in
 * {@code /proc}). The bounds of every kind are the table below, each stated in the README.
 *
 * <p>Stateless and thread-safe. Out of scope: what the content means (its reader's), and files read as a stream
 * whose every record is bounded (pages.jsonl, the frontier's journal and spill, WARC files).
 */
public final class InputFile {
    private static final long MIB = 1L << 20;

    /** A crawl profile, and each file its {@code extends} names. */
    public static final Bound PROFILE = new Bound("a profile", MIB);
    /** A seed file ({@code --seeds FILE}): one URL a line. */
    public static final Bound SEED_FILE = new Bound("a seed file", 16 * MIB);
    /**
     * The profile a checkpoint saves: a profile and the seeds of a seed file, which normalizing can make up to 3
     * times as long (percent-encoding), one a line: {@code PROFILE + 4 * SEED_FILE} holds it with room to spare.
     */
    public static final Bound SAVED_PROFILE = new Bound("a checkpoint's profile", PROFILE.maxBytes()
            + 4 * SEED_FILE.maxBytes());
    /** A checkpoint's manifest (a few hundred entries of counters and lengths). */
    public static final Bound MANIFEST = new Bound("a checkpoint manifest", MIB);
    /** A crawl's summary.json, which {@code crawler report} embeds (its counters and the hosts found unreachable). */
    public static final Bound SUMMARY = new Bound("a crawl summary", 64 * MIB);
    /** A crawl's progress.jsonl, which {@code crawler report} embeds: a line every progress.interval, 30 days at 10 s. */
    public static final Bound PROGRESS = new Bound("a progress log", 64 * MIB);

    /** The largest array read at once, whatever a bound says. */
    private static final long MAX_ARRAY = Integer.MAX_VALUE - 16;

    /**
     * The bound of one kind of file.
     *
     * @param what the kind as a message names it, e.g. "a profile"
     * @param maxBytes the most bytes such a file may have
     */
    public record Bound(String what, long maxBytes) {
        public Bound {
            if (maxBytes < 1 || maxBytes > MAX_ARRAY) {
                throw new IllegalArgumentException("maxBytes must be 1 to " + MAX_ARRAY + ", was " + maxBytes);
            }
        }
    }

    private InputFile() {
    }

    /**
     * The bytes of {@code file}.
     *
     * @throws InputFileException naming the file and why it is refused: no such file, permission denied, not a
     *     regular file (and what it is), larger than {@code bound}, or an I/O error
     */
    public static byte[] read(Path file, Bound bound) throws InputFileException {
        requireRegularFile(file, bound.what());
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw refused(file, e);
        }
        if (size > bound.maxBytes()) {
            throw tooLarge(file, bound, size + " bytes");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) bound.maxBytes() + 1);
        } catch (IOException e) {
            throw refused(file, e);
        }
        if (bytes.length > bound.maxBytes()) {
            throw tooLarge(file, bound, "its size said " + size + " bytes, but it went on");
        }
        return bytes;
    }

    /**
     * Refuses {@code file} unless it is a regular file, by its type, without opening it: for a reader that streams
     * a file whose every record it bounds, which a device without end or a FIFO would still hold forever.
     *
     * @param what the kind of file as a message names it, e.g. "pages.jsonl"
     * @throws InputFileException naming the file and what it is instead (or that it is missing)
     */
    public static void requireRegularFile(Path file, String what) throws InputFileException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            throw refused(file, e);
        }
        if (!attributes.isRegularFile()) {
            throw new InputFileException(file, "not a regular file (" + kind(file, attributes) + "); " + what
                    + " must be one", null);
        }
    }

    /**
     * The text of {@code file}, which must be UTF-8.
     *
     * @throws InputFileException as {@link #read}, or "not UTF-8 text" with the offset of the first bad byte
     */
    public static String readText(Path file, Bound bound) throws InputFileException {
        return decode(file, read(file, bound));
    }

    /**
     * The lines of {@code file}, read whole within {@code bound} as {@link #read} reads it, each line decoded on its
     * own: a line that is not UTF-8 is a {@link TextLine.NotUtf8} and the others are read, for a reader that skips a
     * bad line rather than refuse the file (a seed file). Lines end at LF, CR LF or CR; a UTF-8 byte order mark at
     * the start of the file is dropped.
     *
     * @throws InputFileException as {@link #read}
     */
    public static List<TextLine> readLines(Path file, Bound bound) throws InputFileException {
        byte[] bytes = read(file, bound);
        List<TextLine> lines = new ArrayList<>();
        int start = startsWithByteOrderMark(bytes) ? 3 : 0;
        for (int i = start; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n' || bytes[i] == '\r') {
                if (i == bytes.length && start == i) {
                    break; // the end of the last line, or of an empty file
                }
                lines.add(line(lines.size() + 1, bytes, start, i));
                if (i < bytes.length - 1 && bytes[i] == '\r' && bytes[i + 1] == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        return lines;
    }

    private static boolean startsWithByteOrderMark(byte[] bytes) {
        return bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF;
    }

    /** Line {@code number}, bytes {@code from} to {@code to} of {@code bytes}: its text, or how it is not UTF-8. */
    static TextLine line(long number, byte[] bytes, int from, int to) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, from, to - from);
        CharBuffer out = CharBuffer.allocate(to - from); // UTF-8 never decodes to more chars than bytes
        StringBuilder shown = new StringBuilder();
        int badByte = 0;
        while (true) {
            CoderResult result = decoder.decode(in, out, true);
            if (!result.isError()) {
                break;
            }
            if (badByte == 0) {
                badByte = in.position() - from + 1;
            }
            shown.append(out.flip());
            out.clear();
            for (int k = 0; k < result.length(); k++) {
                shown.append(String.format(Locale.ROOT, "\\x%02x", in.get() & 0xFF));
            }
        }
        decoder.flush(out);
        if (badByte == 0) {
            return new TextLine.Text(number, out.flip().toString());
        }
        return new TextLine.NotUtf8(number, badByte, shown.append(out.flip()).toString());
    }

    /**
     * {@code bytes} as UTF-8 text, malformed input refused.
     *
     * @throws InputFileException naming {@code file} and the offset of the first byte that is not UTF-8
     */
    static String decode(Path file, byte[] bytes) throws InputFileException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer chunk = CharBuffer.allocate(8192); // checked a chunk at a time; the text is made once, below
        for (CoderResult result = decoder.decode(in, chunk, true); !result.isUnderflow();
                result = decoder.decode(in, chunk.clear(), true)) {
            if (result.isError()) {
                throw new InputFileException(file, "not UTF-8 text (a malformed byte sequence at byte "
                        + in.position() + ")", null);
            }
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A refusal of {@code file} for {@code reason}, for a reader of this package's kinds of files elsewhere. */
    public static InputFileException refusal(Path file, String reason) {
        return new InputFileException(file, reason, null);
    }

    private static InputFileException tooLarge(Path file, Bound bound, String size) {
        return new InputFileException(file, "larger than " + bound.maxBytes() + " bytes, the most " + bound.what()
                + " may have (" + size + ")", null);
    }

    private static InputFileException refused(Path file, IOException e) {
        String reason = e instanceof NoSuchFileException
                ? FileErrors.notAFolderOnTheWay(file).orElse("no such file") : FileErrors.reason(file, e);
        return new InputFileException(file, reason, e);
    }

    /** What a file is, "a file" for a regular one, the others from their Unix mode where the platform gives it. */
    static String kind(Path file, BasicFileAttributes attributes) {
        if (attributes.isRegularFile()) {
            return "a file";
        }
        if (attributes.isDirectory()) {
            return "a directory";
        }
        int mode;
        try {
            mode = (Integer) Files.getAttribute(file, "unix:mode");
        } catch (IOException | RuntimeException e) {
            return "a special file";
        }
        return switch (mode & 0170000) { // S_IFMT
            case 0020000 -> "a character device, such as /dev/zero";
            case 0060000 -> "a block device";
            case 0010000 -> "a FIFO, a named pipe";
            case 0140000 -> "a socket";
            default -> "a special file";
        };
    }
}
