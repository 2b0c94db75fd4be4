package org.sievecrawler.learn;

/**
 * The rewrites a {@link Rule} makes to a normalized URL, as strings (no parsing, no decoding): a parameter dropped
 * ({@code ?sid=...}, every occurrence; a path parameter {@code ;jsessionid=...} in any segment) or a path segment
 * dropped ({@code /print/a/1} to {@code /a/1}). The URL's other parts keep their order and encoding, and a
 * fragment is left as it is.
 *
 * <p>Stateless.
 */
final class UrlEdit {
    private UrlEdit() {
    }

    /**
     * {@code url} without parameter {@code name} (a query parameter; a path parameter when it starts with
     * {@code ;}), or null when it has none; the {@code ?} goes when no query parameter is left.
     */
    static String withoutParam(String url, String name) {
        return name.startsWith(";") ? withoutPathParam(url, name) : withoutQueryParam(url, name);
    }

    /** {@code url} without its path segment {@code index} (0 for the first), or null when it has none so many. */
    static String withoutSegment(String url, int index) {
        int[] at = segmentAt(url, index);
        if (at == null) {
            return null;
        }
        if (at[1] == at[2]) { // the last segment: "/a/print" keeps "/a/"
            return at[0] == at[2] ? null : url.substring(0, at[0]) + url.substring(at[2]);
        }
        return url.substring(0, at[0]) + url.substring(at[1] + 1);
    }

    /** Path segment {@code index} of {@code url} (its {@code ;params} with it), or null when it has none so many. */
    static String segment(String url, int index) {
        int[] at = segmentAt(url, index);
        return at == null ? null : url.substring(at[0], at[1]);
    }

    /**
     * Where path segment {@code index} of {@code url} starts and ends, and where the path ends:
     * {@code [from, to, pathEnd]}; null when it has none so many.
     */
    private static int[] segmentAt(String url, int index) {
        int pathStart = pathStart(url);
        if (pathStart < 0) {
            return null;
        }
        int pathEnd = pathEnd(url, pathStart);
        int from = pathStart + 1; // after the leading '/'
        for (int i = 0; i < index; i++) {
            int slash = url.indexOf('/', from);
            if (slash < 0 || slash >= pathEnd) {
                return null;
            }
            from = slash + 1;
        }
        if (from > pathEnd) {
            return null;
        }
        int slash = url.indexOf('/', from);
        return new int[] {from, slash < 0 || slash >= pathEnd ? pathEnd : slash, pathEnd};
    }

    /** Where the path of {@code url} starts (its '/'), or -1 when it has none. */
    static int pathStart(String url) {
        int authority = url.indexOf("://");
        int slash = url.indexOf('/', authority < 0 ? 0 : authority + 3);
        int question = url.indexOf('?', authority < 0 ? 0 : authority + 3);
        return slash < 0 || question >= 0 && question < slash ? -1 : slash;
    }

    /** Where the path that starts at {@code pathStart} ends: at its query, its fragment, or the end. */
    static int pathEnd(String url, int pathStart) {
        for (int i = pathStart; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c == '?' || c == '#') {
                return i;
            }
        }
        return url.length();
    }

    private static String withoutQueryParam(String url, String name) {
        int fragment = url.indexOf('#');
        int end = fragment < 0 ? url.length() : fragment;
        int q = url.indexOf('?');
        if (q < 0 || q > end) {
            return null;
        }
        StringBuilder kept = new StringBuilder(end - q);
        boolean dropped = false;
        int from = q + 1;
        while (from <= end) {
            int amp = url.indexOf('&', from);
            int to = amp < 0 || amp > end ? end : amp;
            int eq = url.indexOf('=', from);
            int nameEnd = eq < 0 || eq > to ? to : eq;
            if (nameEnd - from == name.length() && url.startsWith(name, from)) {
                dropped = true;
            } else if (to > from || amp >= 0 && amp < end) {
                kept.append(kept.length() == 0 ? "" : "&").append(url, from, to);
            }
            if (to == end) {
                break;
            }
            from = to + 1;
        }
        if (!dropped) {
            return null;
        }
        return url.substring(0, q) + (kept.length() == 0 ? "" : "?" + kept) + url.substring(end);
    }

    private static String withoutPathParam(String url, String name) {
        int pathStart = pathStart(url);
        if (pathStart < 0) {
            return null;
        }
        int pathEnd = pathEnd(url, pathStart);
        StringBuilder out = null;
        int copied = 0;
        int at = url.indexOf(name, pathStart);
        while (at >= 0 && at < pathEnd) {
            int after = at + name.length();
            boolean whole = after == pathEnd || "=;/".indexOf(url.charAt(after)) >= 0;
            int to = after;
            while (to < pathEnd && url.charAt(to) != ';' && url.charAt(to) != '/') {
                to++;
            }
            if (whole) {
                out = out == null ? new StringBuilder(url.length()) : out;
                out.append(url, copied, at);
                copied = to;
            }
            at = url.indexOf(name, to);
        }
        return out == null ? null : out.append(url, copied, url.length()).toString();
    }
}
