package org.sievecrawler.parse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte-level lexing of the inside of an HTML tag, following the WHATWG tokenizer's attribute states: quoted,
 * single-quoted and unquoted values, attributes without values, {@code /} between attributes, a missing space
 * after a quoted value. It refuses (returns {@link #SUSPICIOUS}) a {@code <} outside quotes, where parsers are
 * known to disagree, and returns {@link #EOF} when the tag never closes (the tokenizer then drops it).
 *
 * <p>Stateless.
 */
final class TagLexer {
    static final int EOF = -1;
    static final int SUSPICIOUS = -2;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    private TagLexer() {}

    /** Receives each attribute; a value-less attribute has an empty value range. */
    interface AttributeSink {
        void attribute(int nameStart, int nameEnd, int valueStart, int valueEnd);
    }

    /**
     * Reads attributes from {@code pos} (just after the tag name) to the closing {@code >}.
     *
     * @return the position after {@code >}, or {@link #EOF} or {@link #SUSPICIOUS}
     */
    static int readAttributes(byte[] b, int pos, int end, AttributeSink sink) {
        while (true) {
            while (pos < end && PageRules.isHtmlSpace(b[pos])) {
                pos++;
            }
            if (pos >= end) {
                return EOF;
            }
            byte c = b[pos];
            if (c == '>') {
                return pos + 1;
            }
            if (c == '/') {
                pos++;
                continue;
            }
            int nameStart = pos++;
            if (c == '<') {
                return SUSPICIOUS;
            }
            while (pos < end) {
                c = b[pos];
                if (PageRules.isHtmlSpace(c) || c == '/' || c == '>' || c == '=') {
                    break;
                }
                if (c == '<') {
                    return SUSPICIOUS;
                }
                pos++;
            }
            int nameEnd = pos;
            while (pos < end && PageRules.isHtmlSpace(b[pos])) {
                pos++;
            }
            if (pos >= end) {
                return EOF;
            }
            if (b[pos] != '=') {
                sink.attribute(nameStart, nameEnd, pos, pos);
                continue;
            }
            pos++;
            while (pos < end && PageRules.isHtmlSpace(b[pos])) {
                pos++;
            }
            if (pos >= end) {
                return EOF;
            }
            c = b[pos];
            if (c == '"' || c == '\'') {
                int close = indexOf(b, pos + 1, end, c);
                if (close < 0) {
                    return EOF;
                }
                sink.attribute(nameStart, nameEnd, pos + 1, close);
                pos = close + 1;
            } else if (c == '>') {
                sink.attribute(nameStart, nameEnd, pos, pos);
                return pos + 1;
            } else {
                int valueStart = pos;
                while (pos < end && !PageRules.isHtmlSpace(b[pos]) && b[pos] != '>') {
                    if (b[pos] == '<') {
                        return SUSPICIOUS;
                    }
                    pos++;
                }
                sink.attribute(nameStart, nameEnd, valueStart, pos);
            }
        }
    }

    /**
     * Whether the start tag whose attributes {@link #readAttributes} read up to {@code next} (the position after its
     * {@code >}) self-closes: a {@code /} right before the {@code >} that is not the end of an unquoted attribute
     * value ({@code <path d=M0/>} does not self-close).
     *
     * @param lastValueEnd the end of the last attribute value the sink received for this tag, or -1
     */
    static boolean selfClosing(byte[] b, int next, int lastValueEnd) {
        return b[next - 2] == '/' && lastValueEnd != next - 1;
    }

    /** Whether the bytes in [start, end) are {@code lowerName}, ASCII case-insensitively. */
    static boolean nameIs(byte[] b, int start, int end, String lowerName) {
        if (end - start != lowerName.length()) {
            return false;
        }
        for (int i = 0; i < lowerName.length(); i++) {
            if (lower(b[start + i]) != lowerName.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    static int lower(byte c) {
        return c >= 'A' && c <= 'Z' ? c + 32 : c & 0xff;
    }

    static boolean startsWith(byte[] b, int pos, int end, String ascii) {
        if (end - pos < ascii.length()) {
            return false;
        }
        for (int i = 0; i < ascii.length(); i++) {
            if (b[pos + i] != ascii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    static boolean startsWithIgnoreCase(byte[] b, int pos, int end, String lowerAscii) {
        if (end - pos < lowerAscii.length()) {
            return false;
        }
        for (int i = 0; i < lowerAscii.length(); i++) {
            if (lower(b[pos + i]) != lowerAscii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The first index in {@code b[from, end)} holding {@code c}, or -1. Eight bytes at a time: a word XORed with
     * c repeated has a zero byte where c is, and {@code (v - 0x01..01) & ~v & 0x80..80} marks the lowest zero
     * byte exactly (a borrow can only mark bytes above it).
     */
    static int indexOf(byte[] b, int from, int end, byte c) {
        long pattern = ONES * (c & 0xff);
        int i = from;
        for (; i <= end - Long.BYTES; i += Long.BYTES) {
            long v = (long) LONGS.get(b, i) ^ pattern;
            long found = (v - ONES) & ~v & HIGHS;
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < end; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    static int indexOf(byte[] b, int from, int end, String ascii) {
        byte first = (byte) ascii.charAt(0);
        int last = end - ascii.length();
        for (int i = indexOf(b, from, end, first); i >= 0 && i <= last; i = indexOf(b, i + 1, end, first)) {
            if (startsWith(b, i, end, ascii)) {
                return i;
            }
        }
        return -1;
    }
}
