package org.sievecrawler.parse;

import java.util.Arrays;
import java.util.Set;

/**
 * Navigation boilerplate: the elements whose text does not enter a page's {@link SimHash} (see
 * {@link ParsedPage#simhash()}), because it repeats on every page of a site and would make short pages look alike
 * (rust-doc's mdBook pages share a {@code <nav id="sidebar">} of ~600 words). A root of boilerplate is an HTML
 * {@code nav} or {@code aside}, or one of {@link #ROLE_ROOTS} whose {@code role} attribute has the token
 * {@code navigation} (Sphinx's {@code <div class="sphinxsidebar" role="navigation">}); everything inside a root is
 * boilerplate. {@code header} and {@code footer} are not roots: they also hold a page's own heading and dates (see
 * crawler-bench/README.md, "Near-duplicate pages", for the measurements behind the choice).
 *
 * <p>{@link JsoupPageParser} skips roots in its DOM. {@link HrefScanner} has no DOM, so an instance of this class
 * follows, from a root's start tag to the end tag that closes it, the elements opened inside it, with the parts of
 * tree construction that may close a root: "pop until" end tags and their scopes, the start tags that close an
 * open {@code li}, {@code dd}, {@code dt}, {@code p} or {@code button}. It throws {@link NotSure} where a tag might
 * close an element opened outside the roots (and so the roots): a root started inside a table (cells close
 * what they hold), an end tag of a special element open nowhere inside the roots, an {@code li}, {@code dd} or
 * {@code dt} start tag that may close one outside, a {@code button} start tag while a button may be open outside.
 *
 * <p>Not thread-safe: one instance per scan.
 */
final class Boilerplate {
    /** HTML elements that are always roots of boilerplate. */
    private static final Set<String> ROOT_NAMES = Set.of("nav", "aside");
    /**
     * Elements that are roots when their role is navigation: block elements whose start tag closes an open
     * {@code p}, so no {@code p} stays open around them.
     */
    static final Set<String> ROLE_ROOTS = Set.of("div", "section", "ul", "ol", "menu", "header", "footer",
            "article", "main", "nav", "aside");
    /** The special elements of the HTML standard ("any other end tag" stops at them). */
    private static final Set<String> SPECIAL = Set.of("address", "applet", "area", "article", "aside", "base",
            "basefont", "bgsound", "blockquote", "body", "br", "button", "caption", "center", "col", "colgroup", "dd",
            "details", "dir", "div", "dl", "dt", "embed", "fieldset", "figcaption", "figure", "footer", "form",
            "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html",
            "iframe", "img", "input", "keygen", "li", "link", "listing", "main", "marquee", "menu", "meta", "nav",
            "noembed", "noframes", "noscript", "object", "ol", "p", "param", "plaintext", "pre", "script", "search",
            "section", "select", "source", "style", "summary", "table", "tbody", "td", "template", "textarea",
            "tfoot", "th", "thead", "title", "tr", "track", "ul", "wbr", "xmp");
    /** The elements that bound the default scope. */
    private static final Set<String> SCOPE = Set.of("applet", "caption", "html", "table", "td", "th", "marquee",
            "object", "template");
    /** Start tags tree construction ignores outside a table. */
    private static final Set<String> TABLE_PARTS = Set.of("caption", "col", "colgroup", "tbody", "td", "tfoot", "th",
            "thead", "tr");
    /** End tags that close (nearly) nothing: {@code </br>} is a br, {@code </body>} and {@code </html>} pop none. */
    private static final Set<String> HARMLESS_END = Set.of("br", "body", "html");

    /** The elements opened since the outermost open root (it at 0), innermost last. */
    private TagNames.Tag[] open = new TagNames.Tag[16];
    private boolean[] root = new boolean[16];
    private int depth;
    /** How many of {@link #open} are roots. */
    private int roots;
    /** Whether a button start tag was met outside the roots (one may be open there). */
    private boolean buttonOutside;

    /** Whether an element named {@code name} with that {@code role} attribute (or null) is a root. */
    static boolean isRoot(String name, String role) {
        return ROOT_NAMES.contains(name) || (role != null && ROLE_ROOTS.contains(name) && isNavigation(role));
    }

    /** Whether a role attribute's value has the token {@code navigation} (ASCII case-insensitive). */
    static boolean isNavigation(String role) {
        int n = role.length();
        for (int i = 0; i < n; ) {
            while (i < n && PageRules.isHtmlSpace((byte) role.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n && !PageRules.isHtmlSpace((byte) role.charAt(i))) {
                i++;
            }
            if (i - start == 10 && role.regionMatches(true, start, "navigation", 0, 10)) {
                return true;
            }
        }
        return false;
    }

    /** Whether text here is boilerplate. */
    boolean inside() {
        return roots > 0;
    }

    /**
     * Follows a start tag of the main loop (after {@link OpenElements#start}), before its content read apart.
     *
     * @param isRoot whether the element is a root ({@link #isRoot})
     * @param inTable whether a table is open where it starts
     */
    void start(TagNames.Tag tag, boolean isRoot, boolean inTable, int at) {
        String name = tag.name();
        if (roots == 0) {
            if (!isRoot) {
                buttonOutside |= name.equals("button");
                return;
            }
            if (inTable) {
                throw new NotSure(tag.shown() + " navigation inside a table", at);
            }
            push(tag, true);
            return;
        }
        if (tag.is(OpenElements.VOID | OpenElements.CONTENT_APART) || name.equals("body") || name.equals("html")
                || (TABLE_PARTS.contains(name) && lastIndexOf("table") < 0)) {
            return; // no element opened (outside a table, its parts are ignored: a root never starts in a table)
        }
        switch (name) {
            case "li" -> closeListItem(tag, "li", at);
            case "dd", "dt" -> closeListItem(tag, null, at);
            case "button" -> {
                int button = inScope("button", SCOPE);
                if (button >= 0) {
                    popTo(button);
                } else if (buttonOutside) {
                    throw new NotSure("<button> in navigation may close a <button> outside it", at);
                }
            }
            default -> {
                if (tag.is(OpenElements.HEADING) && open[depth - 1].is(OpenElements.HEADING)) {
                    popTo(depth - 1);
                }
            }
        }
        if (tag.is(OpenElements.P_CLOSER) || name.equals("table") || name.equals("button")) {
            int p = inScope("p", SCOPE, "button");
            if (p >= 0) {
                popTo(p);
            }
        }
        if (isRoot && inTable) {
            throw new NotSure(tag.shown() + " navigation inside a table", at);
        }
        push(tag, isRoot);
    }

    /** Follows an end tag of the main loop (after {@link OpenElements#end}). */
    void end(TagNames.Tag tag, int at) {
        if (roots == 0) {
            return;
        }
        String name = tag.name();
        if (HARMLESS_END.contains(name)) {
            return;
        }
        if (!SPECIAL.contains(name)) { // "any other end tag" (and the adoption agency, which keeps every root open)
            for (int i = depth - 1; i >= 0; i--) {
                if (open[i].name().equals(name)) {
                    popTo(i);
                    return;
                }
                if (SPECIAL.contains(open[i].name())) {
                    return;
                }
            }
            return;
        }
        switch (name) {
            case "p" -> popIfFound(inScope("p", SCOPE, "button"));
            case "form" -> removeIfFound(lastIndexOf("form"));
            case "table", "tbody", "thead", "tfoot", "tr", "td", "th", "caption", "colgroup" ->
                    popIfFound(inScope(name, Set.of("html", "table", "template"), name));
            case "li" -> popOrUnsure(inScope("li", SCOPE, "ol", "ul"), tag, at);
            case "nav", "aside" -> popIfFound(inScope(name, SCOPE)); // every open root is followed here
            default -> popOrUnsure(tag.is(OpenElements.HEADING) ? headingInScope() : inScope(name, SCOPE), tag, at);
        }
    }

    private void closeListItem(TagNames.Tag tag, String only, int at) {
        for (int i = depth - 1; i >= 0; i--) {
            String name = open[i].name();
            if (only == null ? name.equals("dd") || name.equals("dt") : name.equals(only)) {
                popTo(i);
                return;
            }
            if (SPECIAL.contains(name) && !name.equals("address") && !name.equals("div") && !name.equals("p")) {
                return;
            }
        }
        throw new NotSure(tag.shown() + " in navigation may close an element outside it", at);
    }

    private void popOrUnsure(int index, TagNames.Tag tag, int at) {
        if (index == OUTSIDE) {
            throw new NotSure(tag.shownEnd() + " in navigation may close an element outside it", at);
        }
        popIfFound(index);
    }

    private void popIfFound(int index) {
        if (index >= 0) {
            popTo(index);
        }
    }

    /** Nothing found, a scope boundary met first. */
    private static final int BOUNDED = -1;
    /** Nothing found inside the roots: what is outside them was not followed. */
    private static final int OUTSIDE = -2;

    /** The innermost element named {@code name} in the scope bounded by {@code bounds} and {@code more}. */
    private int inScope(String name, Set<String> bounds, String... more) {
        for (int i = depth - 1; i >= 0; i--) {
            String open = this.open[i].name();
            if (open.equals(name)) {
                return i;
            }
            if (bounds.contains(open) || Arrays.asList(more).contains(open)) {
                return BOUNDED;
            }
        }
        return OUTSIDE;
    }

    private int headingInScope() {
        for (int i = depth - 1; i >= 0; i--) {
            if (open[i].is(OpenElements.HEADING)) {
                return i;
            }
            if (SCOPE.contains(open[i].name())) {
                return BOUNDED;
            }
        }
        return OUTSIDE;
    }

    private int lastIndexOf(String name) {
        for (int i = depth - 1; i >= 0; i--) {
            if (open[i].name().equals(name)) {
                return i;
            }
        }
        return BOUNDED;
    }

    private void push(TagNames.Tag tag, boolean isRoot) {
        if (depth == open.length) {
            open = Arrays.copyOf(open, depth * 2);
            root = Arrays.copyOf(root, depth * 2);
        }
        open[depth] = tag;
        root[depth++] = isRoot;
        if (isRoot) {
            roots++;
        }
    }

    private void popTo(int index) {
        while (depth > index) {
            if (root[--depth]) {
                roots--;
            }
        }
    }

    /** A form end tag removes the form alone from the open elements. */
    private void removeIfFound(int index) {
        if (index < 0 || root[index]) {
            return;
        }
        System.arraycopy(open, index + 1, open, index, depth - index - 1);
        System.arraycopy(root, index + 1, root, index, depth - index - 1);
        depth--;
    }
}
