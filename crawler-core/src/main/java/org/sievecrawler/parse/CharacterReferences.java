package org.sievecrawler.parse;

import org.jsoup.nodes.Entities;

/**
 * Decodes the character references the scanner is sure about: numeric ones for ordinary code points, the common
 * {@code &amp; &lt; &gt; &quot; &apos; &nbsp;}, and any other full entity name followed by its semicolon (looked up
 * in jsoup's table). Anything a parser might read differently (legacy names without a semicolon or used as a prefix,
 * as in {@code &copy=2} or {@code &notit;}, control, surrogate and non-character code points) yields null,
 * "unsure"; an ampersand that starts no entity at all (the usual {@code ?a=1&b=2}) stays literal.
 *
 * <p>Stateless. The entity tables are jsoup's.
 */
final class CharacterReferences {
    private static final int MAX_DIGITS = 7;

    private CharacterReferences() {}

    /** {@code text} with its references decoded, or null if one is beyond what this class is sure of. */
    static String decode(String text) {
        int amp = text.indexOf('&');
        if (amp < 0) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length());
        sb.append(text, 0, amp);
        int i = amp;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c != '&') {
                sb.append(c);
                i++;
                continue;
            }
            int next = i + 1 < n && text.charAt(i + 1) == '#' ? numeric(text, i, sb) : named(text, i, sb);
            if (next == -1) {
                return null;
            }
            i = next;
        }
        return sb.toString();
    }

    /** Decodes {@code &#...} at {@code amp}; returns the next index, or -1 when unsure. */
    private static int numeric(String text, int amp, StringBuilder sb) {
        int n = text.length();
        int i = amp + 2;
        boolean hex = i < n && (text.charAt(i) == 'x' || text.charAt(i) == 'X');
        if (hex) {
            i++;
        }
        int start = i;
        int value = 0;
        while (i < n && Character.digit(text.charAt(i), hex ? 16 : 10) >= 0 && text.charAt(i) < 128) {
            if (i - start >= MAX_DIGITS) {
                return -1;
            }
            value = value * (hex ? 16 : 10) + Character.digit(text.charAt(i), hex ? 16 : 10);
            i++;
        }
        if (i == start) {
            sb.append('&');
            return amp + 1;
        }
        boolean ordinary = value == '\t' || value == '\n' || (value >= 0x20 && value < 0x7f)
                || (value >= 0xa0 && value < 0xd800) || (value >= 0xe000 && value < 0xfdd0)
                || (value > 0xfdef && value <= 0x10ffff && (value & 0xfffe) != 0xfffe);
        if (!ordinary) {
            return -1;
        }
        sb.appendCodePoint(value);
        return i < n && text.charAt(i) == ';' ? i + 1 : i;
    }

    /** Decodes {@code &name;} at {@code amp}; returns the next index, or -1 when unsure. */
    private static int named(String text, int amp, StringBuilder sb) {
        int n = text.length();
        int i = amp + 1;
        while (i < n && isAsciiLetter(text.charAt(i))) {
            i++;
        }
        if (i < n && text.charAt(i) > 127 && Character.isLetter(text.charAt(i))) {
            return -1;
        }
        while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
            i++;
        }
        String name = text.substring(amp + 1, i);
        boolean semicolon = i < n && text.charAt(i) == ';';
        if (semicolon) {
            String decoded = switch (name) {
                case "amp" -> "&";
                case "lt" -> "<";
                case "gt" -> ">";
                case "quot" -> "\"";
                case "apos" -> "'";
                case "nbsp" -> "\u00a0";
                default -> null;
            };
            if (decoded == null && Entities.isNamedEntity(name)) {
                decoded = Entities.getByName(name);
            }
            if (decoded != null && !decoded.isEmpty()) {
                sb.append(decoded);
                return i + 1;
            }
        }
        if ((semicolon && Entities.isNamedEntity(name)) || hasBaseEntityPrefix(name)) {
            return -1;
        }
        sb.append('&');
        return amp + 1;
    }

    private static boolean hasBaseEntityPrefix(String name) {
        for (int len = 1; len <= name.length(); len++) {
            if (Entities.isBaseNamedEntity(name.substring(0, len))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
