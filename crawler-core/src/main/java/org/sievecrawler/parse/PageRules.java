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

    /** HTML's ASCII whitespace: tab, LF, FF, CR, space. */
    static boolean isHtmlSpace(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
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
