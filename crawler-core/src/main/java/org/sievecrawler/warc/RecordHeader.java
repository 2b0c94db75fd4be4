package org.sievecrawler.warc;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

/**
 * The header of one WARC 1.1 record, written straight into bytes: the version line {@code WARC/1.1}, then one
 * {@code Name: value} line per field in the order they are added, then the empty line. It formats the records of
 * the crawl's hot path (a response and a request per page) without building jwarc's header maps and strings; the
 * fields are added in jwarc's order (by name), so that the bytes are those jwarc would write for the same record.
 *
 * <p>Values are written as UTF-8. A control character in a value (which no URL or address of a fetch holds) is
 * written percent-encoded ({@code %0D}), so that a value can never end its line or the header early.
 *
 * <p>Not thread-safe: one per {@link RecordEncoder}, reused from record to record. Out of scope: which fields a
 * record needs (the encoder's) and the digests' computation.
 */
final class RecordHeader {
    private static final byte[] VERSION = asciiBytes("WARC/1.1\r\n");
    private static final byte[] BASE32 = asciiBytes("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567");
    private static final byte[] HEX = asciiBytes("0123456789ABCDEF");

    private byte[] bytes = new byte[1024];
    private int size;

    /** Empties the header and writes the version line. */
    RecordHeader start() {
        size = 0;
        put(VERSION, VERSION.length);
        return this;
    }

    /** A field whose value is text. */
    RecordHeader field(String name, String value) {
        name(name);
        text(value);
        return endLine();
    }

    /** A field whose value is a decimal number. */
    RecordHeader field(String name, long value) {
        name(name);
        ascii(Long.toString(value));
        return endLine();
    }

    /** A field whose value is a record ID, {@code <urn:uuid:ID>}. */
    RecordHeader field(String name, UUID id) {
        name(name);
        ascii("<urn:uuid:");
        ascii(id.toString());
        ascii(">");
        return endLine();
    }

    /** A digest field, {@code sha1:} and the 20 bytes of {@code sha1} in base32 (RFC 4648, 32 letters, no padding). */
    RecordHeader sha1(String name, byte[] sha1) {
        if (sha1.length != 20) {
            throw new IllegalArgumentException("a SHA-1 digest has 20 bytes, not " + sha1.length);
        }
        name(name);
        ascii("sha1:");
        ensure(32);
        for (int group = 0; group < 20; group += 5) {
            long bits = 0;
            for (int i = 0; i < 5; i++) {
                bits = bits << 8 | (sha1[group + i] & 0xff);
            }
            for (int shift = 35; shift >= 0; shift -= 5) {
                bytes[size++] = BASE32[(int) (bits >>> shift) & 31];
            }
        }
        return endLine();
    }

    /** Ends the header with the empty line. */
    RecordHeader end() {
        return endLine();
    }

    /** The header's bytes: the first {@link #size()} of this array. */
    byte[] bytes() {
        return bytes;
    }

    int size() {
        return size;
    }

    private void name(String name) {
        ascii(name);
        ascii(": ");
    }

    private RecordHeader endLine() {
        ensure(2);
        bytes[size++] = '\r';
        bytes[size++] = '\n';
        return this;
    }

    /** Writes {@code text}, known to be printable ASCII. */
    private void ascii(String text) {
        int length = text.length();
        ensure(length);
        for (int i = 0; i < length; i++) {
            bytes[size++] = (byte) text.charAt(i);
        }
    }

    /** Writes a value as UTF-8, its control characters percent-encoded. */
    private void text(String value) {
        int length = value.length();
        ensure(length);
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                bytes[size++] = (byte) c;
            } else {
                textSlow(value, i);
                return;
            }
        }
    }

    private void textSlow(String value, int from) {
        for (int i = from; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                ensure(3);
                bytes[size++] = '%';
                bytes[size++] = HEX[c >>> 4];
                bytes[size++] = HEX[c & 15];
            } else if (c < 0x80) {
                ensure(1);
                bytes[size++] = (byte) c;
            } else {
                int end = i + 1;
                while (end < value.length() && value.charAt(end) >= 0x80) {
                    end++;
                }
                byte[] utf8 = value.substring(i, end).getBytes(StandardCharsets.UTF_8);
                put(utf8, utf8.length);
                i = end - 1;
            }
        }
    }

    private void put(byte[] data, int length) {
        ensure(length);
        System.arraycopy(data, 0, bytes, size, length);
        size += length;
    }

    private void ensure(int room) {
        if (bytes.length - size < room) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + room));
        }
    }

    private static byte[] asciiBytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
