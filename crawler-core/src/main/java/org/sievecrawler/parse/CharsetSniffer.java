package org.sievecrawler.parse;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Picks the charset a page is decoded with, as the WHATWG encoding sniffing algorithm orders the sources: a byte
 * order mark first (it wins over the header, as in browsers), else the Content-Type header's {@code charset} if
 * present and supported, else a {@code <meta charset>} or {@code <meta http-equiv=Content-Type>} in the first
 * {@value #PRESCAN_BYTES} bytes, else UTF-8. Labels follow the WHATWG Encoding Standard where Java differs:
 * {@code iso-8859-1}, {@code latin1}, {@code us-ascii} decode as windows-1252, and a {@code <meta>} naming UTF-16
 * means UTF-8 (a page that could read its own meta is not UTF-16).
 *
 * <p>Stateless. Out of scope: statistical detection of undeclared charsets.
 */
final class CharsetSniffer {
    static final int PRESCAN_BYTES = 4096;
    private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

    private CharsetSniffer() {}

    /** The charset and the number of leading BOM bytes to skip before decoding. */
    record Sniffed(Charset charset, int bomLength) {}

    static Sniffed sniff(byte[] body, int length, String contentType) {
        Charset bom = bomCharset(body, length);
        int bomLength = bom == null ? 0 : bom == StandardCharsets.UTF_8 ? 3 : 2;
        if (bom != null) {
            return new Sniffed(bom, bomLength);
        }
        Charset header = fromContentType(contentType);
        if (header != null) {
            return new Sniffed(header, 0);
        }
        Charset meta = fromMeta(body, length);
        return new Sniffed(meta != null ? meta : StandardCharsets.UTF_8, 0);
    }

    /** Whether every byte below 0x80 is the ASCII character and never part of a multi-byte sequence. */
    static boolean isAsciiCompatible(Charset charset) {
        String name = charset.name().toLowerCase(Locale.ROOT);
        return name.equals("utf-8") || name.equals("us-ascii") || name.startsWith("iso-8859-")
                || name.startsWith("windows-125") || name.startsWith("koi8-") || name.equals("euc-jp")
                || name.equals("euc-kr") || name.equals("x-mac-roman") || name.equals("x-maccyrillic");
    }

    private static Charset bomCharset(byte[] b, int length) {
        if (length >= 3 && (b[0] & 0xff) == 0xEF && (b[1] & 0xff) == 0xBB && (b[2] & 0xff) == 0xBF) {
            return StandardCharsets.UTF_8;
        }
        if (length >= 2 && (b[0] & 0xff) == 0xFE && (b[1] & 0xff) == 0xFF) {
            return StandardCharsets.UTF_16BE;
        }
        if (length >= 2 && (b[0] & 0xff) == 0xFF && (b[1] & 0xff) == 0xFE) {
            return StandardCharsets.UTF_16LE;
        }
        return null;
    }

    /** The charset parameter of a Content-Type value, if present and supported. */
    static Charset fromContentType(String contentType) {
        if (contentType == null) {
            return null;
        }
        String lower = contentType.toLowerCase(Locale.ROOT);
        int at = lower.indexOf("charset");
        while (at >= 0) {
            int i = at + "charset".length();
            while (i < lower.length() && PageRules.isHtmlSpace(lower.charAt(i))) {
                i++;
            }
            if (i < lower.length() && lower.charAt(i) == '=') {
                i++;
                while (i < lower.length() && PageRules.isHtmlSpace(lower.charAt(i))) {
                    i++;
                }
                int end;
                if (i < lower.length() && (lower.charAt(i) == '"' || lower.charAt(i) == '\'')) {
                    char quote = lower.charAt(i++);
                    end = lower.indexOf(quote, i);
                    if (end < 0) {
                        return null;
                    }
                } else {
                    end = i;
                    while (end < lower.length() && lower.charAt(end) != ';'
                            && !PageRules.isHtmlSpace(lower.charAt(end))) {
                        end++;
                    }
                }
                return forLabel(contentType.substring(i, end));
            }
            at = lower.indexOf("charset", at + 1);
        }
        return null;
    }

    /** A supported charset for an encoding label, WHATWG-mapped, or null. */
    static Charset forLabel(String label) {
        String l = label.trim().toLowerCase(Locale.ROOT);
        if (l.isEmpty()) {
            return null;
        }
        switch (l) {
            case "iso-8859-1", "iso8859-1", "latin1", "l1", "us-ascii", "ascii", "cp1252", "x-user-defined" -> {
                return WINDOWS_1252;
            }
            default -> { }
        }
        try {
            return Charset.isSupported(l) ? Charset.forName(l) : null;
        } catch (IllegalCharsetNameException e) {
            return null;
        }
    }

    private static Charset fromMeta(byte[] b, int length) {
        int end = Math.min(length, PRESCAN_BYTES);
        MetaCollector meta = new MetaCollector(b);
        int i = 0;
        while (i < end) {
            if (b[i] != '<') {
                i++;
                continue;
            }
            if (TagLexer.startsWith(b, i, end, "<!--")) {
                int close = TagLexer.indexOf(b, i + 4, end, "-->");
                if (close < 0) {
                    return null;
                }
                i = close + 3;
            } else if (TagLexer.startsWithIgnoreCase(b, i, end, "<meta")
                    && i + 5 < end && (PageRules.isHtmlSpace(b[i + 5]) || b[i + 5] == '/')) {
                meta.reset();
                int next = TagLexer.readAttributes(b, i + 5, end, meta);
                if (next < 0) {
                    return null;
                }
                Charset found = meta.charset();
                if (found != null) {
                    return found;
                }
                i = next;
            } else {
                i++;
            }
        }
        return null;
    }

    /** Collects the charset-bearing attributes of one {@code <meta>}. */
    private static final class MetaCollector implements TagLexer.AttributeSink {
        private final byte[] b;
        private String charset;
        private String httpEquiv;
        private String content;

        MetaCollector(byte[] b) {
            this.b = b;
        }

        void reset() {
            charset = null;
            httpEquiv = null;
            content = null;
        }

        @Override
        public void attribute(int nameStart, int nameEnd, int valueStart, int valueEnd) {
            String value = new String(b, valueStart, valueEnd - valueStart, StandardCharsets.ISO_8859_1);
            if (TagLexer.nameIs(b, nameStart, nameEnd, "charset") && charset == null) {
                charset = value;
            } else if (TagLexer.nameIs(b, nameStart, nameEnd, "http-equiv") && httpEquiv == null) {
                httpEquiv = value;
            } else if (TagLexer.nameIs(b, nameStart, nameEnd, "content") && content == null) {
                content = value;
            }
        }

        Charset charset() {
            Charset found = null;
            if (charset != null) {
                found = forLabel(charset);
            } else if (httpEquiv != null && httpEquiv.trim().equalsIgnoreCase("content-type") && content != null) {
                found = fromContentType(content);
            }
            if (found != null && found.name().toLowerCase(Locale.ROOT).startsWith("utf-16")) {
                return StandardCharsets.UTF_8;
            }
            return found;
        }
    }
}
