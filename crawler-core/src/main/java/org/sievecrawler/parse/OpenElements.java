package org.sievecrawler.parse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The part of HTML tree construction that {@link HrefScanner} must follow to know that document order is source
 * order and that no {@code <a>} gets cloned: which elements are open where it matters (tables and their cells, an
 * open {@code <a>} and what was opened inside it, whether a {@code <p>} may be open), and what kind each element
 * is. It throws {@link NotSure} for what it does not follow: foster-parented content in tables, misnested or
 * implicitly closed {@code <a>} elements, a block in an {@code <a>} that may close a {@code <p>} outside it,
 * and the elements whose content tree construction treats apart ({@code template}, {@code frameset},
 * {@code frame}, {@code plaintext}, {@code xmp}, {@code noembed}, {@code noframes}, {@code isindex},
 * {@code image}). A {@code noscript}, {@code svg} or {@code math} is to it an element that closes nothing and
 * leaves the open elements as they were: the scanner reads their content apart (a noscript island, foreign
 * content through {@link ForeignElements}), and tree construction leaves the stack as it was when they end; a
 * noscript stays in a table (jsoup's rule), an svg or math there is foster-parented.
 *
 * <p>Not thread-safe: one instance per scan. Tags come interned from {@link #TAGS}, carrying their kinds.
 */
final class OpenElements {
    private static final Set<String> BAIL_OUT_NAMES = Set.of("template", "frameset", "frame", "plaintext", "xmp",
            "noembed", "noframes", "isindex", "image");
    /**
     * Start tags tree construction accepts directly in a table (outside a cell) without foster parenting; jsoup
     * keeps a noscript there too.
     */
    private static final Set<String> IN_TABLE_NAMES = Set.of("caption", "colgroup", "col", "tbody", "thead",
            "tfoot", "tr", "td", "th", "script", "style", "noscript");
    /**
     * Elements that close nothing and leave the open elements as they were once the scanner is past them: the void
     * elements; noscript, svg and math, whose content the scanner reads apart (as a noscript island and as
     * foreign content) and which leave the stack as they found it when they end; and head, whose start tag tree
     * construction drops once it is past the head (and before it, opens the head, where no a or p can be open).
     */
    private static final Set<String> VOID_NAMES = Set.of("br", "img", "wbr", "input", "embed", "source", "track",
            "param", "area", "meta", "link", "base", "keygen", "basefont", "bgsound", "col", "noscript", "svg",
            "math", "head");
    /** The start tags that end foreign content (jsoup's {@code InForeignToHtml}; font only with some attributes). */
    private static final Set<String> BREAKOUT_NAMES = Set.of("b", "big", "blockquote", "body", "br", "center",
            "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i",
            "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small", "span", "strike",
            "strong", "sub", "sup", "table", "tt", "u", "ul", "var");
    private static final Set<String> READ_NAMES = Set.of("a", "area", "iframe", "frame", "link", "base", "meta",
            "img", "script");
    /** Elements whose content is raw text inside a noscript island, beyond {@link #RAW_TEXT_NAMES}. */
    private static final Set<String> ISLAND_RAW_TEXT_NAMES = Set.of("xmp", "noembed", "noframes");
    /** Non-special elements (the spec's "ordinary" and formatting ones) safe to open and close inside an a. */
    private static final Set<String> PHRASING_NAMES = Set.of("span", "b", "i", "em", "strong", "small", "code",
            "abbr", "cite", "q", "sub", "sup", "u", "s", "mark", "time", "kbd", "samp", "var", "bdi", "bdo", "dfn",
            "data", "font", "label", "big", "tt", "strike", "ins", "del", "picture", "video", "audio", "canvas",
            "output", "meter", "progress", "slot", "nobr");
    /** Special block elements an a may wrap, provided no p outside the a gets closed by them. */
    private static final Set<String> BLOCK_NAMES = Set.of("div", "p", "section", "article", "header", "footer",
            "nav", "aside", "main", "figure", "figcaption", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "ul",
            "ol", "dl", "address", "center", "details", "summary", "hgroup", "menu", "search", "fieldset", "dialog",
            "dir");
    /** Start tags that close an open p in button scope. */
    private static final Set<String> P_CLOSER_NAMES = union(BLOCK_NAMES, Set.of("pre", "listing", "form", "hr",
            "li", "dd", "dt"));
    private static final Set<String> RAW_TEXT_NAMES = Set.of("script", "style", "textarea", "title", "iframe");

    // A tag's kinds: its membership of the sets above, worked out once per known name (see TagNames).
    static final int BAIL_OUT = 1;
    static final int IN_TABLE = 1 << 1;
    static final int VOID = 1 << 2;
    static final int PHRASING = 1 << 3;
    static final int BLOCK = 1 << 4;
    static final int P_CLOSER = 1 << 5;
    static final int RAW_TEXT = 1 << 6;
    static final int HEADING = 1 << 7;
    /** noscript: jsoup reads its content as an island of plain markup (see {@link HrefScanner}). */
    static final int ISLAND = 1 << 8;
    /** svg and math: they open foreign content (see {@link ForeignElements}). */
    static final int FOREIGN = 1 << 9;
    /** Start tags that end foreign content. */
    static final int BREAKOUT = 1 << 10;
    /** Raw text inside a noscript island only. */
    static final int ISLAND_RAW_TEXT = 1 << 11;
    /** select: the scanner reads its options apart. */
    static final int SELECT = 1 << 12;
    /** Elements whose start tag the scanner reads something from: a link, the base, robots directives. */
    static final int READ = 1 << 13;
    /** Elements whose content the scanner reads apart from the main loop. */
    static final int CONTENT_APART = RAW_TEXT | ISLAND | FOREIGN | SELECT;
    static final TagNames TAGS = new TagNames(OpenElements::kindsOf);

    private static final byte TABLE = 1;
    private static final byte CELL = 2;

    private byte[] tables = new byte[8];
    private int tableDepth;
    private boolean aOpen;
    /** Elements opened inside the open a, innermost last. */
    private final List<TagNames.Tag> insideA = new ArrayList<>();
    private boolean pMaybeOpen;

    /**
     * Follows a start tag (its attributes read, its raw text not yet skipped).
     *
     * @throws NotSure where tree construction might not keep source order (see the class comment)
     */
    void start(TagNames.Tag tag, int at) {
        String name = tag.name();
        if (tag.is(BAIL_OUT)) {
            throw new NotSure(tag.shown(), at);
        }
        byte table = tableDepth == 0 ? 0 : tables[tableDepth - 1];
        if (table == TABLE && !tag.is(IN_TABLE)) {
            throw new NotSure("foster-parented " + tag.shown(), at);
        }
        if (aOpen) {
            startInsideA(tag, at);
        } else if (name.equals("p")) {
            pMaybeOpen = true;
        } else if (tableDepth == 0 && tag.is(P_CLOSER)) {
            pMaybeOpen = false;
        }
        switch (name) {
            case "a" -> {
                aOpen = true;
                insideA.clear();
            }
            case "table" -> pushTable(TABLE);
            case "td", "th", "caption" -> {
                if (table == CELL) {
                    tableDepth--;
                    table = tableDepth == 0 ? 0 : tables[tableDepth - 1];
                }
                if (table == TABLE) {
                    pushTable(CELL);
                }
            }
            case "tr", "tbody", "thead", "tfoot", "colgroup" -> {
                if (table == CELL) {
                    tableDepth--;
                }
            }
            default -> { }
        }
    }

    /** Whether a table is open here (in a cell or not). */
    boolean inTable() {
        return tableDepth > 0;
    }

    /** Whether text here would be in a table outside its cells, where tree construction foster-parents it. */
    boolean inTableOutsideCells() {
        return tableDepth > 0 && tables[tableDepth - 1] == TABLE;
    }

    private void startInsideA(TagNames.Tag tag, int at) {
        String name = tag.name();
        if (tag.is(VOID | RAW_TEXT)) {
            return;
        }
        if (tag.is(PHRASING)) {
            insideA.add(tag);
            return;
        }
        if (name.equals("a")) {
            if (!allPhrasing(0)) {
                throw new NotSure("<a> inside an <a> holding a block", at);
            }
            return;
        }
        if (!tag.is(BLOCK)) {
            throw new NotSure(tag.shown() + " inside an <a>", at);
        }
        int p = lastInsideA("p");
        if (p >= 0) {
            popInsideA(p);
        } else if (pMaybeOpen) {
            throw new NotSure(tag.shown() + " inside an <a> may close a <p> outside it", at);
        }
        if (tag.is(HEADING) && !insideA.isEmpty() && insideA.get(insideA.size() - 1).is(HEADING)) {
            insideA.remove(insideA.size() - 1);
        }
        insideA.add(tag);
    }

    /**
     * Follows an end tag.
     *
     * @throws NotSure where tree construction might not keep source order
     */
    void end(TagNames.Tag tag, int at) {
        String name = tag.name();
        if (aOpen) {
            endInsideA(tag, at);
        }
        byte table = tableDepth == 0 ? 0 : tables[tableDepth - 1];
        switch (name) {
            case "table" -> {
                while (tableDepth > 0 && tables[tableDepth - 1] == CELL) {
                    tableDepth--;
                }
                if (tableDepth > 0) {
                    tableDepth--;
                }
            }
            case "td", "th", "caption", "tr", "tbody", "thead", "tfoot" -> {
                if (table == CELL) {
                    tableDepth--;
                }
            }
            case "p" -> {
                if (tableDepth == 0 && !aOpen) {
                    pMaybeOpen = false;
                }
            }
            default -> { }
        }
    }

    private void endInsideA(TagNames.Tag tag, int at) {
        String name = tag.name();
        if (name.equals("a")) {
            if (!allPhrasing(0)) {
                throw new NotSure("</a> closes an <a> holding an open block", at);
            }
            aOpen = false;
            insideA.clear();
            return;
        }
        if (name.equals("br")) {
            return;
        }
        int index = -1;
        for (int i = insideA.size() - 1; i >= 0 && index < 0; i--) {
            TagNames.Tag open = insideA.get(i);
            if (open.name().equals(name) || (tag.is(HEADING) && open.is(HEADING))) {
                index = i;
            }
        }
        if (index < 0) {
            throw new NotSure(tag.shownEnd() + " closes an element outside the open <a>", at);
        }
        if (!tag.is(BLOCK) && !allPhrasing(index + 1)) {
            throw new NotSure(tag.shownEnd() + " misnested with a block inside an <a>", at);
        }
        popInsideA(index);
    }

    private boolean allPhrasing(int from) {
        for (int i = from; i < insideA.size(); i++) {
            if (insideA.get(i).is(BLOCK)) {
                return false;
            }
        }
        return true;
    }

    private int lastInsideA(String name) {
        for (int i = insideA.size() - 1; i >= 0; i--) {
            if (insideA.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private void popInsideA(int index) {
        while (insideA.size() > index) {
            insideA.remove(insideA.size() - 1);
        }
    }

    private void pushTable(byte kind) {
        if (tableDepth == tables.length) {
            tables = Arrays.copyOf(tables, tableDepth * 2);
        }
        tables[tableDepth++] = kind;
    }

    private static int kindsOf(String name) {
        boolean heading = name.length() == 2 && name.charAt(0) == 'h' && name.charAt(1) >= '1'
                && name.charAt(1) <= '6';
        return (BAIL_OUT_NAMES.contains(name) ? BAIL_OUT : 0) | (IN_TABLE_NAMES.contains(name) ? IN_TABLE : 0)
                | (VOID_NAMES.contains(name) ? VOID : 0)
                | (PHRASING_NAMES.contains(name) || name.indexOf('-') > 0 ? PHRASING : 0) // custom elements too
                | (BLOCK_NAMES.contains(name) ? BLOCK : 0) | (P_CLOSER_NAMES.contains(name) ? P_CLOSER : 0)
                | (RAW_TEXT_NAMES.contains(name) ? RAW_TEXT : 0) | (heading ? HEADING : 0)
                | (name.equals("noscript") ? ISLAND : 0) | (name.equals("svg") || name.equals("math") ? FOREIGN : 0)
                | (BREAKOUT_NAMES.contains(name) ? BREAKOUT : 0)
                | (ISLAND_RAW_TEXT_NAMES.contains(name) ? ISLAND_RAW_TEXT : 0) | (name.equals("select") ? SELECT : 0)
                | (READ_NAMES.contains(name) ? READ : 0);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        HashSet<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
