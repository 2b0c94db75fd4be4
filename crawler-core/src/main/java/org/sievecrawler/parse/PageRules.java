package org.sievecrawler.parse;

import java.util.Locale;
import okhttp3.HttpUrl;

/**
 * The rules both parsers apply to what they read, kept in one place so the two implementations cannot drift:
 * how a {@code rel} is matched, how a title is collapsed, how robots directives and the base are read.
 *
 * <p>Stateless.
 */
final class PageRules {
    private PageRules() {}

    /** Whether the space-separated token list {@code rel} holds {@code token}, ASCII case-insensitively. */
    static boolean relHas(String rel, String token) {
        if (rel == null) {
            return false;
        }
        int i = 0;
        int n = rel.length();
        while (i < n) {
            while (i < n && isHtmlSpace(rel.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n && !isHtmlSpace(rel.charAt(i))) {
                i++;
            }
            if (i - start == token.length() && rel.regionMatches(true, start, token, 0, token.length())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The {@code rel} tokens of a {@code <link>} that point to another page rather than to something the page uses
     * (a stylesheet, an icon, a preload): the HTML spec's hyperlink types and the document relations of HTML 4 that
     * documentation generators still write (Sphinx's {@code search}, {@code index}, {@code next}; DocBook's
     * {@code up}, {@code home}, {@code start}).
     */
    private static final String[] PAGE_RELATIONS = {"alternate", "next", "prev", "previous", "search", "help",
        "index", "contents", "toc", "start", "first", "last", "up", "top", "home", "chapter", "section",
        "subsection", "appendix", "glossary", "copyright", "license", "author"};

    /**
     * What kind of link a {@code <link href>} with this {@code rel} is: {@link Outlink.Kind#CANONICAL} when rel holds
     * {@code canonical}, else {@link Outlink.Kind#STYLESHEET} when it holds {@code stylesheet} (an {@code alternate
     * stylesheet} is a stylesheet), else {@link Outlink.Kind#ICON} for {@code icon} or {@code apple-touch-icon}, else
     * {@link Outlink.Kind#LINK} when it holds a page relation (see {@link #PAGE_RELATIONS}), else null: not a link.
     */
    static Outlink.Kind linkKind(String rel) {
        if (rel == null) {
            return null;
        }
        if (relHas(rel, "canonical")) {
            return Outlink.Kind.CANONICAL;
        }
        if (relHas(rel, "stylesheet")) {
            return Outlink.Kind.STYLESHEET;
        }
        if (relHas(rel, "icon") || relHas(rel, "apple-touch-icon")) {
            return Outlink.Kind.ICON;
        }
        for (String relation : PAGE_RELATIONS) {
            if (relHas(rel, relation)) {
                return Outlink.Kind.LINK;
            }
        }
        return null;
    }

    /** HTML's ASCII whitespace: tab, LF, FF, CR, space. */
    static boolean isHtmlSpace(int c) {
        // Most characters tested are above ' ': one comparison for them, one bit test for the rest.
        return c <= ' ' && c >= 0 && ((HTML_SPACES >>> c) & 1) != 0;
    }

    private static final long HTML_SPACES = 1L << ' ' | 1L << '\t' | 1L << '\n' | 1L << '\f' | 1L << '\r';

    /** Longest title kept, in chars; a longer one is cut at a code-point boundary (a 1 MB title is a hostile page). */
    static final int MAX_TITLE_CHARS = 1_000;

    /**
     * A page title as recorded: whitespace collapsed, then cut to at most {@link #MAX_TITLE_CHARS} chars without
     * splitting a surrogate pair. Both parse paths make titles here, so they agree.
     */
    static String title(String text) {
        String t = collapseWhitespace(text);
        int max = MAX_TITLE_CHARS;
        if (t.length() <= max) {
            return t;
        }
        int end = Character.isLowSurrogate(t.charAt(max)) ? max - 1 : max;
        return t.substring(0, end);
    }

    /** Runs of HTML whitespace become one space; leading and trailing whitespace go. */
    static String collapseWhitespace(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        boolean pendingSpace = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isHtmlSpace(c)) {
                pendingSpace = sb.length() > 0;
            } else {
                if (pendingSpace) {
                    sb.append(' ');
                    pendingSpace = false;
                }
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Whether a {@code <meta>} with this {@code name} is a robots directive. */
    static boolean isRobotsName(String name) {
        return name != null && name.trim().equalsIgnoreCase("robots");
    }

    /**
     * Robots directives in a {@code <meta name=robots content=...>}: bit 1 noindex, bit 2 nofollow; {@code none}
     * means both. Directives are separated by commas or whitespace.
     */
    static int robotsDirectives(String content) {
        if (content == null) {
            return 0;
        }
        int flags = 0;
        for (String token : content.toLowerCase(Locale.ROOT).split("[,\\s]+")) {
            switch (token) {
                case "noindex" -> flags |= NOINDEX;
                case "nofollow" -> flags |= NOFOLLOW;
                case "none" -> flags |= NOINDEX | NOFOLLOW;
                default -> { }
            }
        }
        return flags;
    }

    static final int NOINDEX = 1;
    static final int NOFOLLOW = 2;

    /** The first base href resolved against the page URL, or the page URL when absent or unresolvable. */
    static HttpUrl base(HttpUrl pageUrl, String baseHref) {
        if (baseHref == null) {
            return pageUrl;
        }
        HttpUrl resolved = pageUrl.resolve(baseHref);
        return resolved != null ? resolved : pageUrl;
    }
}
