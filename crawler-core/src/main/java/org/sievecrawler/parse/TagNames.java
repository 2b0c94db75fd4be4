package org.sievecrawler.parse;

/**
 * The lower-case name of a tag read from page bytes, without allocating for the HTML elements: known names
 * come back as the same interned constant, found by an open-addressing table over their ASCII bytes; only
 * an unknown name allocates a new String. Immutable and thread-safe.
 */
final class TagNames {
    private static final String[] KNOWN = {
        "a", "abbr", "address", "area", "article", "aside", "audio", "b", "base", "bdi", "bdo", "blockquote",
        "body", "br", "button", "canvas", "caption", "center", "cite", "code", "col", "colgroup", "data", "datalist",
        "dd", "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em", "embed", "fieldset", "figcaption",
        "figure", "font", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head",
        "header", "hgroup", "hr", "html", "i", "iframe", "image", "img", "input", "ins", "kbd", "label", "legend",
        "li", "link", "listing", "main", "map", "mark", "marquee", "math", "menu", "meta", "meter", "nav", "nobr",
        "noembed", "noframes", "noscript", "object", "ol", "optgroup", "option", "output", "p", "param", "picture",
        "plaintext", "pre", "progress", "q", "rb", "rp", "rt", "rtc", "ruby", "s", "samp", "script", "search",
        "section", "select", "slot", "small", "source", "span", "strike", "strong", "style", "sub", "summary",
        "sup", "svg", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "time", "title", "tr",
        "track", "tt", "u", "ul", "var", "video", "wbr", "xmp"};
    private static final int SLOTS = 512;
    private static final String[] TABLE = new String[SLOTS];

    static {
        for (String name : KNOWN) {
            int slot = hash(name) & (SLOTS - 1);
            while (TABLE[slot] != null) {
                slot = (slot + 1) & (SLOTS - 1);
            }
            TABLE[slot] = name;
        }
    }

    private TagNames() {
    }

    /** The lower-case name in {@code b[start, stop)}: a shared constant for a known element. */
    static String lowerCase(byte[] b, int start, int stop) {
        int h = 0;
        for (int i = start; i < stop; i++) {
            h = 31 * h + TagLexer.lower(b[i]);
        }
        for (int slot = h & (SLOTS - 1); TABLE[slot] != null; slot = (slot + 1) & (SLOTS - 1)) {
            if (matches(TABLE[slot], b, start, stop)) {
                return TABLE[slot];
            }
        }
        char[] chars = new char[stop - start];
        for (int i = start; i < stop; i++) {
            chars[i - start] = (char) TagLexer.lower(b[i]);
        }
        return new String(chars);
    }

    private static boolean matches(String name, byte[] b, int start, int stop) {
        if (name.length() != stop - start) {
            return false;
        }
        for (int i = start; i < stop; i++) {
            if (name.charAt(i - start) != TagLexer.lower(b[i])) {
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
