package org.sievecrawler.warc;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The first place where an archived HTTP/1.1 response, as received, leaves the grammar of RFC 9112 (the status line
 * of section 4, the field lines of section 5, the chunked coding of section 7.1) and RFC 9110 (field values,
 * section 5.5), or where two readers would frame its body differently: OkHttp, which fetched it (the body that was
 * read, and archived, is OkHttp's), and a WARC reader such as jwarc. The crawler archives a response's bytes as
 * received whatever they are; this says, in the record's {@code metadata} note, where they stop being HTTP.
 *
 * <p>A response it finds nothing wrong with reads the same in jwarc as in OkHttp: jwarc's lenient parser accepts
 * everything this grammar does and frames the body the same way, so {@code jwarc validate} passes its record
 * (but for a body cut at the cap, which says {@code WARC-Truncated}). A response it finds fault with may still
 * pass (jwarc reads a bare LF, a NUL in a value, an obs-fold), or not (a control character in the status line).
 *
 * <p>What it checks, strictly: the status line is {@code HTTP/x.y SP 3DIGIT SP reason CRLF}, the reason tabs,
 * spaces, visible characters and obs-text; each field line is {@code token ":" value CRLF}, the value the same
 * characters as a reason, no obs-fold; every line ends with CRLF, with no other CR or LF; Content-Length is digits,
 * one value, and not beside Transfer-Encoding; Transfer-Encoding names chunked as the last coding of its last
 * field or not at all (OkHttp de-chunks only then, jwarc whenever chunked is listed); a chunked body's lines are
 * {@code HEXDIG+ *(";" token "=" (token / quoted-string)) *WS CRLF}, each chunk's data ends with CRLF, and its
 * trailer fields are field lines (the grammar jwarc's chunked reader follows; a chunk extension without a value is
 * RFC 9112's but not jwarc's). It does not check what fields mean (a Location that is no URL is a page's problem).
 *
 * <p>Stateless and pure; one pass over the head, and over a chunked body's lines (not its data).
 */
final class ResponseGrammar {
    private ResponseGrammar() {
    }

    /**
     * The first problem of a response, or null when it has none.
     *
     * @param head the status line and fields, up to and including the empty line
     * @param body the body as received
     * @param chunked whether the body has the chunked coding (as OkHttp read it)
     * @return a sentence naming where (the byte offset in the head or the body), what and the rule
     */
    static String problem(byte[] head, byte[] body, boolean chunked) {
        Reader reader = new Reader(head, "the head", false);
        String problem = reader.statusLine();
        List<String> transferEncodings = new ArrayList<>(1);
        List<String> contentLengths = new ArrayList<>(1);
        while (problem == null && !reader.emptyLine()) {
            problem = reader.fieldLine(transferEncodings, contentLengths);
        }
        if (problem == null) {
            problem = framing(transferEncodings, contentLengths);
        }
        if (problem == null && chunked) {
            problem = chunks(new Reader(body, "the body", true));
        }
        return problem;
    }

    private static String framing(List<String> transferEncodings, List<String> contentLengths) {
        for (String length : contentLengths) {
            if (length.isEmpty() || !length.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return "Content-Length \"" + length + "\" is not a decimal number (RFC 9112 section 6.3)";
            }
            if (!length.equals(contentLengths.get(0))) {
                return "Content-Length is given twice, \"" + contentLengths.get(0) + "\" and \"" + length
                        + "\" (RFC 9112 section 6.3: the framing is invalid)";
            }
        }
        if (transferEncodings.isEmpty()) {
            return null;
        }
        if (!contentLengths.isEmpty()) {
            return "both Transfer-Encoding and Content-Length are given (RFC 9112 section 6.1)";
        }
        boolean okHttpChunked = transferEncodings.get(transferEncodings.size() - 1).equalsIgnoreCase("chunked");
        boolean listed = transferEncodings.stream().flatMap(value -> List.of(value.split("[ \t]*,[ \t]*")).stream())
                .anyMatch(coding -> coding.equalsIgnoreCase("chunked"));
        if (okHttpChunked != listed) {
            return "Transfer-Encoding " + transferEncodings + " lists chunked, but not as the only coding of its last"
                    + " field: OkHttp read the body as not chunked (to the end of the connection, chunk lines and"
                    + " all), WARC readers that de-chunk when chunked is listed (jwarc) read it otherwise (RFC 9112"
                    + " section 6.1: chunked is the final coding)";
        }
        return null;
    }

    /** The chunk lines of a chunked body, up to its trailer's empty line or the end of the bytes (a cut body). */
    private static String chunks(Reader reader) {
        while (!reader.atEnd()) {
            int start = reader.at;
            long size = 0;
            while (!reader.atEnd() && Character.digit(reader.peek(), 16) >= 0 && size >= 0) {
                size = size << 4 | Character.digit(reader.next(), 16);
            }
            if (reader.at == start) {
                return reader.problem("a chunk does not start with its size in hexadecimal digits",
                        "RFC 9112 section 7.1");
            }
            String problem = reader.chunkExtensions();
            if (problem != null) {
                return problem;
            }
            if (size == 0) {
                while (!reader.atEnd() && !reader.emptyLine()) {
                    problem = reader.fieldLine(new ArrayList<>(), new ArrayList<>());
                    if (problem != null) {
                        return problem;
                    }
                }
                return null;
            }
            if (reader.skip(size) && (problem = reader.lineEnd("the data of a chunk")) != null) {
                return problem;
            }
        }
        return null;
    }

    /** A cursor over the bytes of a head or a body, which reads their lines and says where they go wrong. */
    private static final class Reader {
        private final byte[] bytes;
        private final String what;
        /** Whether the bytes may end anywhere: a body cut at the fetch's cap. */
        private final boolean mayBeCut;
        int at;

        Reader(byte[] bytes, String what, boolean mayBeCut) {
            this.bytes = bytes;
            this.what = what;
            this.mayBeCut = mayBeCut;
        }

        boolean atEnd() {
            return at >= bytes.length;
        }

        int peek() {
            return bytes[at] & 0xff;
        }

        int next() {
            return bytes[at++] & 0xff;
        }

        /** Skips {@code count} bytes; false when the bytes end first (a body cut at the cap). */
        boolean skip(long count) {
            if (bytes.length - at < count) {
                at = bytes.length;
                return false;
            }
            at += (int) count;
            return true;
        }

        String statusLine() {
            if (bytes.length < 12 || bytes[0] != 'H' || bytes[1] != 'T' || bytes[2] != 'T' || bytes[3] != 'P'
                    || bytes[4] != '/' || !isDigit(bytes[5]) || bytes[6] != '.' || !isDigit(bytes[7])) {
                return problem("the status line does not start with an HTTP version (HTTP/1.1)",
                        "RFC 9112 section 2.3");
            }
            at = 8;
            if (next() != ' ' || !isDigit(bytes[9]) || !isDigit(bytes[10]) || !isDigit(bytes[11])) {
                at = 8;
                return problem("the version is not followed by one space and a status code of three digits",
                        "RFC 9112 section 4");
            }
            at = 12;
            if (atEnd() || peek() != ' ') {
                return problem("the status code is not followed by a space (the reason phrase may be empty, the"
                        + " space may not)", "RFC 9112 section 4");
            }
            at++;
            String problem = text("the reason phrase");
            return problem != null ? problem : lineEnd("the status line");
        }

        /** Whether a CRLF, the empty line that ends a head or a trailer, is next (and reads it). */
        boolean emptyLine() {
            if (at + 1 < bytes.length && bytes[at] == '\r' && bytes[at + 1] == '\n') {
                at += 2;
                return true;
            }
            return false;
        }

        String fieldLine(List<String> transferEncodings, List<String> contentLengths) {
            if (atEnd()) {
                return problem("the head ends without an empty line", "RFC 9112 section 2.1");
            }
            if (peek() == '\r' || peek() == '\n') {
                return lineEnd("the empty line");
            }
            if (peek() == ' ' || peek() == '\t') {
                return problem("a line starts with whitespace: an obs-fold, the continuation of the field before",
                        "RFC 9112 section 5.2: obsolete, and OkHttp reads it as a field of its own");
            }
            int start = at;
            while (!atEnd() && isTchar(peek())) {
                at++;
            }
            if (atEnd() || peek() != ':' || at == start) {
                String rule = "RFC 9112 section 5.1: field-name is a token, directly followed by a colon";
                if (!hasColonBeforeLineEnd()) {
                    return problem("a field line has no colon", rule);
                }
                return problem(at == start ? "a field line does not start with a field name (a token)"
                        : "the field name holds " + describe(peek()) + " before its colon", rule);
            }
            String name = new String(bytes, start, at - start, StandardCharsets.ISO_8859_1);
            at++;
            int valueStart = at;
            String problem = text("the value of field " + name);
            if (problem != null) {
                return problem;
            }
            String value = new String(bytes, valueStart, at - valueStart, StandardCharsets.ISO_8859_1)
                    .strip();
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("transfer-encoding")) {
                transferEncodings.add(value);
            } else if (lower.equals("content-length")) {
                contentLengths.add(value);
            }
            return lineEnd("field " + name);
        }

        private boolean hasColonBeforeLineEnd() {
            for (int i = at; i < bytes.length && bytes[i] != '\r' && bytes[i] != '\n'; i++) {
                if (bytes[i] == ':') {
                    return true;
                }
            }
            return false;
        }

        /** Chunk extensions and whitespace up to the CRLF that ends a chunk's size line. */
        String chunkExtensions() {
            while (!atEnd() && peek() == ';') {
                at++;
                int name = at;
                while (!atEnd() && isTchar(peek())) {
                    at++;
                }
                if (at == name || atEnd() || next() != '=') {
                    at = Math.max(name, at - 1);
                    return problem("a chunk extension is not a token, '=' and a value", "RFC 9112 section 7.1.1"
                            + " makes the value optional, jwarc's reader needs one");
                }
                String problem = atEnd() || peek() != '"' ? token() : quotedString();
                if (problem != null) {
                    return problem;
                }
            }
            while (!atEnd() && (peek() == ' ' || peek() == '\t')) {
                at++;
            }
            return lineEnd("a chunk size line");
        }

        private String token() {
            int start = at;
            while (!atEnd() && isTchar(peek())) {
                at++;
            }
            return at == start ? problem("a chunk extension has no value", "RFC 9112 section 7.1.1") : null;
        }

        private String quotedString() {
            at++;
            while (!atEnd() && peek() != '"') {
                int c = next();
                if (c == '\\' && !atEnd()) {
                    at++;
                } else if (c != '\t' && (c < 0x20 || c == 0x7f)) {
                    at--;
                    return problem(describe(c) + " in a quoted chunk extension value", "RFC 9110 section 5.6.4");
                }
            }
            if (atEnd()) {
                return problem("a quoted chunk extension value does not end", "RFC 9110 section 5.6.4");
            }
            at++;
            return null;
        }

        /** Reason-phrase or field-value characters up to the CR (or LF) that ends the line. */
        private String text(String where) {
            while (!atEnd()) {
                int c = peek();
                if (c == '\r' || c == '\n') {
                    return null;
                }
                if (c != '\t' && (c < 0x20 || c == 0x7f)) {
                    return problem(describe(c) + " in " + where, "RFC 9110 section 5.5 and RFC 9112 section 4 allow"
                            + " tab, space, visible characters and obs-text");
                }
                at++;
            }
            return null;
        }

        /** The CRLF that ends a line. */
        String lineEnd(String line) {
            if (at + 1 < bytes.length && bytes[at] == '\r' && bytes[at + 1] == '\n') {
                at += 2;
                return null;
            }
            if (atEnd()) {
                return mayBeCut ? null : problem(line + " does not end", "RFC 9112 section 2.1");
            }
            String found = bytes[at] == '\n' ? "a bare LF (without CR)" : bytes[at] == '\r' ? "a bare CR (without LF)"
                    : describe(peek());
            return problem(line + " ends with " + found + ", not CRLF", "RFC 9112 section 2.1");
        }

        String problem(String what, String rule) {
            return "byte " + at + " of " + this.what + ": " + what + " (" + rule + ")";
        }
    }

    private static String describe(int c) {
        if (c < 0) {
            return "the end of the head";
        }
        if (c == 0) {
            return "a NUL";
        }
        if (c < 0x20 || c == 0x7f) {
            return String.format(Locale.ROOT, "control character 0x%02X", c);
        }
        return c < 0x7f ? "'" + (char) c + "'" : String.format(Locale.ROOT, "byte 0x%02X", c);
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    /** RFC 9110 section 5.6.2: tchar. */
    private static boolean isTchar(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c < 0x80
                && "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
}
