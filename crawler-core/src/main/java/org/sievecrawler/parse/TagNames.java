package org.sievecrawler.parse;

import java.nio.charset.StandardCharsets;
import java.util.function.ToIntFunction;

/**
 * The tags read from page bytes, without allocating for the HTML elements: a known name comes back as the same
 * {@link Tag}, found by an open-addressing table over its ASCII bytes, carrying the bits its user assigned to that
 * name (what kind of element it is), so the scanner asks one field instead of probing sets; only an unknown name
 * allocates a new Tag. Immutable and thread-safe.
 */
final class TagNames {
    private static final String[] KNOWN = {
        "a", "abbr", "address", "area", "article", "aside", "audio", "b", "base", "basefont", "bdi", "bdo",
        "bgsound", "big", "blockquote", "body", "br", "button", "canvas", "caption", "center", "cite", "code", "col",
        "colgroup", "data", "datalist", "dd", "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em",
        "embed", "fieldset", "figcaption", "figure", "font", "footer", "form", "frame", "frameset", "h1", "h2", "h3",
        "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "i", "iframe", "image", "img", "input", "ins",
        "isindex", "kbd", "keygen", "label", "legend", "li", "link", "listing", "main", "map", "mark", "marquee",
        "math", "menu", "meta", "meter", "nav", "nobr", "noembed", "noframes", "noscript", "object", "ol",
        "optgroup", "option", "output", "p", "param", "picture", "plaintext", "pre", "progress", "q", "rb", "rp",
        "rt", "rtc", "ruby", "s", "samp", "script", "search", "section", "select", "slot", "small", "source", "span",
        "strike", "strong", "style", "sub", "summary", "sup", "svg", "table", "tbody", "td", "template", "textarea",
        "tfoot", "th", "thead", "time", "title", "tr", "track", "tt", "u", "ul", "var", "video", "wbr", "xmp"};
    private static final int SLOTS = 512;

    /**
     * A lower-case tag name and its kind bits.
     *
     * @param known whether the name is one of the known elements (a shared constant), not a name read from a page
     */
    record Tag(String name, int kinds, boolean known) {
        boolean is(int kind) {
            return (kinds & kind) != 0;
        }

        /** The tag as {@code <name>} when it is a known element, else {@code <unknown>}: fit for a reason label. */
        String shown() {
            return known ? "<" + name + ">" : "<unknown>";
        }

        /** The end tag as {@code </name>} when it is a known element, else {@code </unknown>}. */
        String shownEnd() {
            return known ? "</" + name + ">" : "</unknown>";
        }
    }

    private final Tag[] table = new Tag[SLOTS];
    /** Per slot, the name's hash and its bytes, so a probe compares an int and then bytes. */
    private final int[] hashes = new int[SLOTS];
    private final byte[][] bytes = new byte[SLOTS][];
    private final ToIntFunction<String> kinds;

    /** @param kinds the kind bits of a lower-case name, for known and unknown names alike */
    TagNames(ToIntFunction<String> kinds) {
        this.kinds = kinds;
        for (String name : KNOWN) {
            int slot = hash(name) & (SLOTS - 1);
            while (table[slot] != null) {
                slot = (slot + 1) & (SLOTS - 1);
            }
            table[slot] = new Tag(name, kinds.applyAsInt(name), true);
            hashes[slot] = hash(name);
            bytes[slot] = name.getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** The tag whose name, in any case, is {@code b[start, stop)}: a shared constant for a known element. */
    Tag tag(byte[] b, int start, int stop) {
        return tag(b, start, stop, hash(b, start, stop));
    }

    /** {@link #tag(byte[], int, int)} for a name whose {@link #hash(byte[], int, int)} is {@code h}. */
    Tag tag(byte[] b, int start, int stop, int h) {
        Tag known = known(b, start, stop, h);
        if (known != null) {
            return known;
        }
        char[] chars = new char[stop - start];
        for (int i = start; i < stop; i++) {
            chars[i - start] = (char) TagLexer.lower(b[i]);
        }
        String name = new String(chars);
        return new Tag(name, kinds.applyAsInt(name), false);
    }

    /** The known element whose name, in any case, is {@code b[start, stop)}, or null; never allocates. */
    Tag known(byte[] b, int start, int stop) {
        return known(b, start, stop, hash(b, start, stop));
    }

    /** The hash of a tag name, in any case: {@link String#hashCode()} of its lower-case form. */
    static int hash(byte[] b, int start, int stop) {
        int h = 0;
        for (int i = start; i < stop; i++) {
            h = 31 * h + TagLexer.lower(b[i]);
        }
        return h;
    }

    private Tag known(byte[] b, int start, int stop, int h) {
        for (int slot = h & (SLOTS - 1); table[slot] != null; slot = (slot + 1) & (SLOTS - 1)) {
            if (hashes[slot] == h && matches(bytes[slot], b, start, stop)) {
                return table[slot];
            }
        }
        return null;
    }

    private static boolean matches(byte[] name, byte[] b, int start, int stop) {
        if (name.length != stop - start) {
            return false;
        }
        for (int i = start; i < stop; i++) {
            if (name[i - start] != TagLexer.lower(b[i])) {
                return false;
            }
        }
        return true;
    }

    private static int hash(String name) {
        int h = 0;
        for (int i = 0; i < name.length(); i++) {
            h = 31 * h + name.charAt(i);
        }
        return h;
    }
}
