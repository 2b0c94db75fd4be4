package org.sievecrawler.sieve;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The one binary encoding of a {@link PendingUrl}, shared by the spill segments ({@link SpillingQueue}) and the
 * checkpoint's pending list: the URL and referrer as length-prefixed UTF-8 (length -1 for no referrer), then
 * depth, attempt and redirects as ints and the purpose as one byte. Framing and checksums are the caller's.
 * Stateless and thread-safe.
 */
public final class PendingUrlCodec {
    /** The longest URL or referrer accepted when reading, in UTF-8 bytes: a longer length means corrupt data. */
    public static final int MAX_TEXT_BYTES = 1 << 20;
    /**
     * The longest encoded URL accepted when reading, in bytes: two texts of {@link #MAX_TEXT_BYTES}, their
     * lengths and the numbers, with room to spare. A record framing one URL that claims more is corrupt.
     */
    public static final int MAX_ENCODED_BYTES = 2 * MAX_TEXT_BYTES + 64;

    private PendingUrlCodec() {
    }

    public static void write(DataOutput out, PendingUrl url) throws IOException {
        writeText(out, url.url());
        writeText(out, url.referrer());
        out.writeInt(url.depth());
        out.writeInt(url.attempt());
        out.writeInt(url.redirects());
        out.writeByte(url.purpose().ordinal());
    }

    /**
     * Reads one URL written by {@link #write}.
     *
     * @throws IOException (an {@link java.io.EOFException} when the input ends) or
     *     {@link CorruptFilterException} when a length, a number or the purpose is out of range
     */
    public static PendingUrl read(DataInput in) throws IOException {
        String url = readText(in);
        String referrer = readText(in);
        int depth = in.readInt();
        int attempt = in.readInt();
        int redirects = in.readInt();
        int purpose = in.readByte();
        if (url == null || purpose < 0 || purpose >= PendingUrl.Purpose.values().length) {
            throw new CorruptFilterException("pending URL record is invalid: url " + (url == null ? "missing" : url)
                    + ", purpose " + purpose);
        }
        try {
            return new PendingUrl(url, depth, referrer, attempt, redirects, PendingUrl.Purpose.values()[purpose]);
        } catch (IllegalArgumentException e) {
            throw new CorruptFilterException("pending URL record is invalid: " + e.getMessage());
        }
    }

    /** Writes {@code text} as its UTF-8 length (-1 for null) and bytes: the form of a URL inside {@link #write}. */
    public static void writeText(DataOutput out, String text) throws IOException {
        if (text == null) {
            out.writeInt(-1);
            return;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    /**
     * Reads a text written by {@link #writeText}: null for length -1.
     *
     * @throws IOException (an {@link java.io.EOFException} when the input ends) or
     *     {@link CorruptFilterException} when the length is below -1 or above {@link #MAX_TEXT_BYTES}
     */
    public static String readText(DataInput in) throws IOException {
        int length = in.readInt();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > MAX_TEXT_BYTES) {
            throw new CorruptFilterException("pending URL record has a text of " + length
                    + " bytes; expected -1 to " + MAX_TEXT_BYTES);
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
