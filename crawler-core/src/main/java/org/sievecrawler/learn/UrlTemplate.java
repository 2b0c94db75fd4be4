package org.sievecrawler.learn;

import java.util.Arrays;
import okhttp3.HttpUrl;

/**
 * A URL's template: its host (and port, when not the scheme's default) and its path and query with the parts that
 * look like variables generalized, so that the URLs of a calendar, a session, a facet or a paginated list share
 * one template while a site's distinct pages (named by words) keep their own. {@code pattern} is the generalized
 * path, then {@code ?} and the query's parameters sorted, each {@code name=CLASS}: e.g.
 * {@code /cal?date={date}}, {@code /s/home;jsessionid=*}, {@code /shop?page={n}&sort=*&view=*},
 * {@code /a/{n}}, {@code /std/sync/struct.Arc.html}.
 *
 * <p>A path segment (without its {@code ;params}, and without an extension of at most {@value #MAX_EXTENSION}
 * letters or digits after its last dot) is generalized to:
 * <ul>
 * <li>{@code {n}}: all ASCII digits (ids, years, days: {@code 12345}, {@code 2026}, {@code 20261129});
 * <li>{@code {date}}: {@code dddd-dd-dd};
 * <li>{@code {uuid}}: 8-4-4-4-12 hex digits;
 * <li>{@code {hex}}: at least {@value #MIN_HEX} hex digits, at least one a digit and one a letter;
 * <li>{@code {token}}: at least {@value #MIN_TOKEN} of {@code [A-Za-z0-9_-]} with a digit, an upper-case and a
 *     lower-case letter (base64-ish), or at least {@value #MIN_ALNUM_TOKEN} letters and digits with at least two of
 *     each (base32-ish);
 * </ul>
 * and is kept as it is otherwise, up to {@value #MAX_LITERAL} characters ({@code {long}} past that). A path
 * parameter keeps its name and generalizes its value ({@code ;jsessionid=*}). A query parameter's value is
 * generalized to one of those classes, to {@code *} when it is none (a word: {@code sort=price}), and kept empty
 * when empty; a parameter's name is kept unless it is itself a variable. The fragment and the scheme are left out.
 *
 * <p>Bounded: at most {@value #MAX_SEGMENTS} segments and {@value #MAX_PARAMS} parameters are kept ({@code /…}
 * and {@code &…} stand for the rest), and a pattern longer than {@value #MAX_LENGTH} characters is cut and ends
 * with {@code ~} and a 64-bit hash of the whole, so templates stay distinct and small.
 *
 * <p>Cost: one pass over the URL's characters with a few counters per segment (no regular expression, no
 * decoding); one {@code StringBuilder} and the record. Immutable, thread-safe. Out of scope: deciding what a
 * template's pages have in common ({@link TemplateStats}), and normalizing the URL (the caller gives it
 * normalized, as the Sieve sees it).
 */
public record UrlTemplate(String host, String pattern) {
    public static final int MIN_HEX = 8;
    public static final int MIN_TOKEN = 20;
    public static final int MIN_ALNUM_TOKEN = 16;
    public static final int MAX_LITERAL = 64;
    public static final int MAX_EXTENSION = 5;
    public static final int MAX_SEGMENTS = 32;
    public static final int MAX_PARAMS = 32;
    public static final int MAX_LENGTH = 512;
    /** Host names longer than this are cut (DNS allows 253). */
    public static final int MAX_HOST = 255;

    /** The template of a URL as the crawl holds it (http or https, host, optional port). */
    public static UrlTemplate of(HttpUrl url) {
        boolean defaultPort = url.port() == HttpUrl.defaultPort(url.scheme());
        String name = url.host().indexOf(':') >= 0 ? "[" + url.host() + "]" : url.host(); // IPv6, as in the URL
        String host = defaultPort ? name : name + ":" + url.port();
        String query = url.encodedQuery();
        return new UrlTemplate(bounded(host), pattern(url.encodedPath(), query == null ? "" : query, true));
    }

    /**
     * The template of {@code url}, read as {@code scheme://host[:port]/path?query#fragment} without decoding
     * (user info is left out); a string without {@code ://} is taken as a path and query with an empty host.
     */
    public static UrlTemplate of(String url) {
        int end = url.indexOf('#');
        end = end < 0 ? url.length() : end;
        Authority authority = authority(url, end);
        int q = url.indexOf('?', authority.pathStart);
        q = q < 0 || q > end ? end : q;
        String path = url.substring(authority.pathStart, q);
        String query = q < end ? url.substring(q + 1, end) : "";
        return new UrlTemplate(authority.host, pattern(path.isEmpty() ? "/" : path, query, q < end));
    }

    /** The {@link #host()} of {@link #of(String) of(url)}, without working out its pattern. */
    public static String hostOf(String url) {
        int end = url.indexOf('#');
        return authority(url, end < 0 ? url.length() : end).host;
    }

    /** A URL's host as a template names it, and where its path starts. */
    private record Authority(String host, int pathStart) {
    }

    private static Authority authority(String url, int end) {
        int authority = url.indexOf("://");
        int firstSlash = url.indexOf('/');
        int firstQuestion = url.indexOf('?');
        if (authority <= 0 || firstSlash >= 0 && firstSlash < authority
                || firstQuestion >= 0 && firstQuestion < authority) {
            return new Authority("", 0);
        }
        int from = authority + 3;
        int to = from;
        while (to < end && url.charAt(to) != '/' && url.charAt(to) != '?') {
            to++;
        }
        int at = url.lastIndexOf('@', to - 1);
        from = at >= from ? at + 1 : from;
        String hostPort = url.substring(from, to).toLowerCase(java.util.Locale.ROOT);
        return new Authority(bounded(dropDefaultPort(hostPort, url.regionMatches(true, 0, "https", 0, 5) ? ":443"
                : ":80")), to);
    }

    @Override
    public String toString() {
        return host + pattern;
    }

    private static String dropDefaultPort(String hostPort, String defaultPort) {
        return hostPort.endsWith(defaultPort) ? hostPort.substring(0, hostPort.length() - defaultPort.length())
                : hostPort;
    }

    private static String bounded(String host) {
        return host.length() <= MAX_HOST ? host : host.substring(0, MAX_HOST);
    }

    private static String pattern(String path, String query, boolean hasQuery) {
        StringBuilder out = new StringBuilder(Math.min(MAX_LENGTH + 32, path.length() + query.length() + 16));
        int segments = 0;
        int i = path.startsWith("/") ? 1 : 0;
        if (i == 1) {
            out.append('/');
        }
        while (i < path.length()) {
            int slash = path.indexOf('/', i);
            int segmentEnd = slash < 0 ? path.length() : slash;
            if (++segments > MAX_SEGMENTS) {
                out.append('…');
                break;
            }
            segment(path, i, segmentEnd, out);
            if (slash < 0) {
                break;
            }
            out.append('/');
            i = slash + 1;
        }
        if (hasQuery && !query.isEmpty()) {
            String[] params = new String[Math.min(MAX_PARAMS, count(query, '&') + 1)];
            int n = 0;
            boolean more = false;
            int from = 0;
            while (from < query.length()) {
                int amp = query.indexOf('&', from);
                int to = amp < 0 ? query.length() : amp;
                if (to > from) {
                    if (n == params.length) {
                        more = true;
                        break;
                    }
                    params[n++] = parameter(query, from, to);
                }
                if (amp < 0) {
                    break;
                }
                from = amp + 1;
            }
            Arrays.sort(params, 0, n);
            out.append('?');
            for (int p = 0; p < n; p++) {
                out.append(p == 0 ? "" : "&").append(params[p]);
            }
            if (more) {
                out.append("&…");
            }
        }
        if (out.length() > MAX_LENGTH) {
            long hash = 0xcbf29ce484222325L;
            for (int c = 0; c < out.length(); c++) {
                hash = (hash ^ out.charAt(c)) * 0x100000001b3L;
            }
            out.setLength(MAX_LENGTH - 17);
            out.append('~').append(String.format("%016x", hash));
        }
        return out.toString();
    }

    private static int count(String s, char c) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            n += s.charAt(i) == c ? 1 : 0;
        }
        return n;
    }

    /** Appends path segment {@code path[from, to)} generalized, with its {@code ;params}. */
    private static void segment(String path, int from, int to, StringBuilder out) {
        int nameEnd = from;
        while (nameEnd < to && path.charAt(nameEnd) != ';') {
            nameEnd++;
        }
        int dot = nameEnd - 1;
        while (dot > from && path.charAt(dot) != '.' && nameEnd - dot <= MAX_EXTENSION + 1) {
            dot--;
        }
        int stemEnd = nameEnd;
        if (dot > from && path.charAt(dot) == '.' && nameEnd - dot - 1 >= 1 && nameEnd - dot - 1 <= MAX_EXTENSION
                && isAlnum(path, dot + 1, nameEnd)) {
            stemEnd = dot;
        }
        String kind = kind(path, from, stemEnd);
        if (kind != null) {
            out.append(kind).append(path, stemEnd, nameEnd);
        } else if (nameEnd - from > MAX_LITERAL) {
            out.append("{long}");
        } else {
            out.append(path, from, nameEnd);
        }
        int p = nameEnd;
        while (p < to) { // ;name=value;name=value
            int next = p + 1;
            int nameTo = -1;
            while (next < to && path.charAt(next) != ';') {
                nameTo = nameTo < 0 && path.charAt(next) == '=' ? next : nameTo;
                next++;
            }
            nameTo = nameTo < 0 ? next : nameTo;
            out.append(';').append(path, p + 1, Math.min(nameTo, p + 1 + MAX_LITERAL));
            if (nameTo < next) {
                out.append("=*");
            }
            p = next;
        }
    }

    private static String parameter(String query, int from, int to) {
        int eq = query.indexOf('=', from);
        int nameEnd = eq < 0 || eq > to ? to : eq;
        String nameKind = kind(query, from, nameEnd);
        String name = nameKind != null ? nameKind
                : nameEnd - from > MAX_LITERAL ? "{long}" : query.substring(from, nameEnd);
        if (nameEnd == to) {
            return name;
        }
        if (nameEnd + 1 == to) {
            return name + "=";
        }
        String valueKind = kind(query, nameEnd + 1, to);
        return name + "=" + (valueKind != null ? valueKind : "*");
    }

    private static boolean isAlnum(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')) {
                return false;
            }
        }
        return true;
    }

    /** The class of the variable {@code s[from, to)} looks like, or null when it looks like a name. */
    static String kind(String s, int from, int to) {
        int length = to - from;
        if (length <= 0) {
            return null;
        }
        int digits = 0;
        int hexLetters = 0;
        int lower = 0;
        int upper = 0;
        int dashes = 0;
        int underscores = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                digits++;
            } else if (c >= 'a' && c <= 'z') {
                lower++;
                hexLetters += c <= 'f' ? 1 : 0;
            } else if (c >= 'A' && c <= 'Z') {
                upper++;
                hexLetters += c <= 'F' ? 1 : 0;
            } else if (c == '-') {
                dashes++;
            } else if (c == '_') {
                underscores++;
            } else {
                return null;
            }
        }
        if (digits == length) {
            return "{n}";
        }
        if (length == 10 && dashes == 2 && digits == 8 && s.charAt(from + 4) == '-' && s.charAt(from + 7) == '-') {
            return "{date}";
        }
        if (length == 36 && dashes == 4 && digits + hexLetters == 32 && s.charAt(from + 8) == '-'
                && s.charAt(from + 13) == '-' && s.charAt(from + 18) == '-' && s.charAt(from + 23) == '-') {
            return "{uuid}";
        }
        if (length >= MIN_HEX && digits > 0 && hexLetters > 0 && digits + hexLetters == length) {
            return "{hex}";
        }
        if (length >= MIN_TOKEN && digits > 0 && upper > 0 && lower > 0) {
            return "{token}";
        }
        if (length >= MIN_ALNUM_TOKEN && dashes == 0 && underscores == 0 && digits >= 2 && lower + upper >= 2) {
            return "{token}";
        }
        return null;
    }
}
