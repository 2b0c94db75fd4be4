package org.sievecrawler.fetch;

import java.nio.charset.StandardCharsets;

/**
 * Where OkHttp's HTTP/1.1 reader draws its lines in the bytes of a response as they came off the socket: the end of
 * each response head (interim 1xx heads, then the final one) and the end of a chunked body. It follows OkHttp 5.5's
 * own rules, read in {@code Http1ExchangeCodec}, {@code HeadersReader}, {@code StatusLine} and
 * {@code CallServerInterceptor}, not RFC 9112's, so that the bytes it cuts out are those OkHttp parsed:
 * <ul>
 *   <li>a line ends at LF; a CR just before the LF is part of the line end, any other CR is part of the line;
 *   <li>a head is its status line (whatever it holds), then lines up to the first empty one (nothing, or a lone
 *   CR, before its LF); every other line is one field, whatever it holds (OkHttp adds a line without a colon, or
 *   an obs-fold continuation, as a field of its own);
 *   <li>a head whose status code is 100 or 102 to 199 is interim: another head follows at once;
 *   <li>a chunked body is chunks, each a line starting with its size in hex (anything after the digits, up to the
 *   LF, is the chunk extension), its data and one more line, up to a chunk of size 0 and the trailer lines, which
 *   end with an empty line as a head does.
 * </ul>
 * Bytes that break HTTP's grammar are cut the same way; whether they break it is the archive's question. A head
 * OkHttp refused never gets here (the fetch failed).
 *
 * <p>Stateless and pure.
 */
final class WireFraming {
    /**
     * Bytes of response heads OkHttp reads at most for one exchange, interim heads included: it reads 256 KiB of
     * head text, counted in characters after UTF-8 decoding, and a line of n characters is at most 3n bytes and its
     * line end (a 3-byte sequence decodes to 1 character), so at most 5 bytes per character counted.
     */
    static final int MAX_HEAD_BYTES = 5 * 256 * 1024 + 1024;
    /** Bytes okio may read past the end of the heads in the read that held their end (one segment). */
    static final int READ_AHEAD = 8192;

    private WireFraming() {
    }

    /**
     * The heads at the start of a response.
     *
     * @param finalStart where the final head starts: the interim heads are the bytes before it
     * @param end where the final head ends, just past its empty line: the body starts there
     * @param status the final head's status code, read as OkHttp reads it
     * @param fields the final head's field lines (OkHttp makes one header of each)
     */
    record Heads(int finalStart, int end, int status, int fields) {
    }

    /**
     * Where a chunked body ends.
     *
     * @param end where the bytes kept end: past the last chunk's trailer section when complete, else where the
     *     data reached the given cut or the bytes ran out
     * @param data the bytes of chunk data in the bytes kept: the body without its chunked coding
     * @param complete whether the bytes kept run to the end of the trailer section
     */
    record Chunked(int end, long data, boolean complete) {
    }

    /** The heads that {@code bytes[0, size)} starts with, or null when the final head does not end within them. */
    static Heads heads(byte[] bytes, int size) {
        int start = 0;
        while (true) {
            int statusEnd = lineEnd(bytes, start, size);
            if (statusEnd < 0) {
                return null;
            }
            int fields = 0;
            int at = statusEnd;
            while (true) {
                int next = lineEnd(bytes, at, size);
                if (next < 0) {
                    return null;
                }
                if (isEmptyLine(bytes, at, next)) {
                    at = next;
                    break;
                }
                fields++;
                at = next;
            }
            int status = status(bytes, start, statusEnd);
            if (status == 100 || status >= 102 && status <= 199) {
                start = at;
                continue;
            }
            return new Heads(start, at, status, fields);
        }
    }

    /**
     * Where the chunked body that starts at {@code bytes[from]} ends within {@code bytes[from, size)}.
     *
     * @param cut the data bytes to keep at most (the body was cut at the fetcher's cap: the bytes kept end just
     *     after that much data), or -1 to run to the end of the body
     */
    static Chunked chunked(byte[] bytes, int from, int size, long cut) {
        int at = from;
        long data = 0;
        boolean first = true;
        while (true) {
            if (!first) { // the line that ends a chunk's data
                int next = lineEnd(bytes, at, size);
                if (next < 0) {
                    return new Chunked(at, data, false);
                }
                at = next;
            }
            first = false;
            long chunk = 0;
            for (int i = at; i < size && hexValue(bytes[i]) >= 0 && chunk >= 0; i++) {
                chunk = chunk << 4 | hexValue(bytes[i]);
            }
            int next = lineEnd(bytes, at, size);
            if (next < 0 || chunk < 0) {
                return new Chunked(at, data, false);
            }
            at = next;
            if (chunk == 0) {
                while (true) {
                    next = lineEnd(bytes, at, size);
                    if (next < 0) {
                        return new Chunked(at, data, false);
                    }
                    boolean empty = isEmptyLine(bytes, at, next);
                    at = next;
                    if (empty) {
                        return new Chunked(at, data, true);
                    }
                }
            }
            long take = Math.min(chunk, size - at);
            if (cut >= 0) {
                take = Math.min(take, cut - data);
            }
            at += (int) take;
            data += take;
            if (cut >= 0 && data == cut || take < chunk) {
                return new Chunked(at, data, false);
            }
        }
    }

    /** Just past the LF ending the line that starts at {@code from}, or -1 when there is none before {@code size}. */
    private static int lineEnd(byte[] bytes, int from, int size) {
        for (int i = from; i < size; i++) {
            if (bytes[i] == '\n') {
                return i + 1;
            }
        }
        return -1;
    }

    /** Whether the line {@code bytes[from, end)} (its LF included) is empty: nothing, or a CR, before its LF. */
    private static boolean isEmptyLine(byte[] bytes, int from, int end) {
        int length = end - 1 - from;
        return length == 0 || length == 1 && bytes[from] == '\r';
    }

    /**
     * The status code of the status line {@code bytes[from, end)} as OkHttp's {@code StatusLine.parse} reads it:
     * the three characters after {@code HTTP/1.x }, {@code ICY } or {@code SOURCETABLE } as a signed decimal number;
     * or {@link Integer#MIN_VALUE} when it is not one.
     */
    static int status(byte[] bytes, int from, int end) {
        String line = new String(bytes, from, Math.min(end - from, 16), StandardCharsets.ISO_8859_1);
        int codeStart = line.startsWith("HTTP/1.") ? 9 : line.startsWith("ICY ") ? 4
                : line.startsWith("SOURCETABLE ") ? 12 : -1;
        if (codeStart < 0 || line.length() < codeStart + 3) {
            return Integer.MIN_VALUE;
        }
        try {
            return Integer.parseInt(line.substring(codeStart, codeStart + 3));
        } catch (NumberFormatException e) {
            return Integer.MIN_VALUE;
        }
    }

    private static int hexValue(byte b) {
        return b >= '0' && b <= '9' ? b - '0' : b >= 'a' && b <= 'f' ? b - 'a' + 10 : b >= 'A' && b <= 'F'
                ? b - 'A' + 10 : -1;
    }
}
