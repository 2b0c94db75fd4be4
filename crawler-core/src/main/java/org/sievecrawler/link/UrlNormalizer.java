package org.sievecrawler.link;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import okhttp3.HttpUrl;
import org.sievecrawler.address.IpLiteral;
import org.sievecrawler.link.LinkDecision.Accept;
import org.sievecrawler.link.LinkDecision.Reject;

/**
 * Turns raw links into one canonical absolute URL string per resource, so that the Sieve sees equal strings for
 * equal resources, or refuses them with a reason. Parsing and resolution follow browsers (OkHttp's
 * {@link HttpUrl}, which implements the WHATWG URL standard for http and https); on top of that the string is
 * normalized:
 * <ul>
 *   <li>scheme and host lower case, IDN hosts in punycode, a trailing dot on the host dropped, IPv4 literals in
 *       any WHATWG form ({@code 0x7f.1}, {@code 2130706433}) written as dotted decimal, IPv6 compressed;
 *   <li>user info dropped (OkHttp would not send it and it would leak into outputs); default ports dropped;
 *   <li>dot segments removed; an empty path becomes {@code /}; the fragment dropped;
 *   <li>percent-encoding in path and query: hex upper case, escapes of unreserved characters
 *       ({@code A-Za-z0-9-._~}) decoded, a {@code %} not followed by two hex digits written {@code %25}, and
 *       every character RFC 3986 does not allow there (controls, space, {@code "<>[\]^`{|}}, non-ASCII as
 *       UTF-8) encoded;
 *   <li>the query is otherwise kept as is: not sorted, empty parameters and an empty {@code ?} kept;
 *   <li>the parameters {@code scope.ignore-params} names removed ({@link IgnoredParams}), the others kept in
 *       their order and encoding, and the {@code ?} with them when none is left; such a URL is accepted with
 *       {@link Accept#paramsIgnored()} set, so the crawl can count it.
 * </ul>
 * A result longer than {@link #MAX_LENGTH} characters is refused as {@link RejectReason#TOO_LONG}.
 *
 * <p>Thread-safe: immutable; one instance may serve every parser thread. The hot path avoids
 * {@code java.net.URL}, {@code java.net.URI} and regular expressions.
 *
 * <p>Out of scope: anything that needs the network or knowledge of the site (DNS, redirects, {@code www.}
 * aliases, session-id or tracking parameters {@code scope.ignore-params} does not name, query sorting) and scope
 * decisions ({@link LinkScope}).
 */
public final class UrlNormalizer {
    /** Longest normalized URL accepted, in characters (the de facto limit of browsers and sitemaps). */
    public static final int MAX_LENGTH = 2048;

    private static final int QUOTED_INPUT_LENGTH = 120;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    private static final boolean[] UNRESERVED = new boolean[128];
    /** ASCII characters a normalized path keeps unescaped. */
    static final boolean[] PATH_ALLOWED = new boolean[128];
    /** ASCII characters a normalized query keeps unescaped. */
    static final boolean[] QUERY_ALLOWED = new boolean[128];

    static {
        String unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
        for (char c : unreserved.toCharArray()) {
            UNRESERVED[c] = true;
            PATH_ALLOWED[c] = true;
            QUERY_ALLOWED[c] = true;
        }
        // RFC 3986 pchar = unreserved / pct-encoded / sub-delims / ":" / "@"; path adds "/", query "/" and "?".
        for (char c : "!$&'()*+,;=:@/".toCharArray()) {
            PATH_ALLOWED[c] = true;
            QUERY_ALLOWED[c] = true;
        }
        QUERY_ALLOWED['?'] = true;
    }

    /** The parameters {@code scope.ignore-params} removes from every query. */
    private final IgnoredParams ignored;

    /** A normalizer that removes no query parameter. */
    public UrlNormalizer() {
        this.ignored = IgnoredParams.NONE;
    }

    /**
     * A normalizer that also removes the query parameters {@code ignoreParams} names (as {@code
     * scope.ignore-params}, already checked by the profile): exact names, or prefixes ending in {@code *}.
     */
    public UrlNormalizer(List<String> ignoreParams) {
        this.ignored = IgnoredParams.of(ignoreParams);
    }

    /**
     * Normalizes an absolute URL.
     *
     * @return {@link Accept} with the normalized URL, or {@link Reject} with {@link RejectReason#MALFORMED},
     *     {@link RejectReason#UNSUPPORTED_SCHEME} or {@link RejectReason#TOO_LONG}
     */
    public LinkDecision normalize(String absoluteUrl) {
        Objects.requireNonNull(absoluteUrl, "absoluteUrl");
        String input = clean(absoluteUrl);
        String scheme = scheme(input);
        if (scheme == null) {
            return new Reject(RejectReason.MALFORMED, "URL " + quote(input) + " has no scheme; expected an absolute"
                    + " http or https URL");
        }
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return unsupported(scheme);
        }
        HttpUrl url = HttpUrl.parse(input);
        if (url == null) {
            return malformed(input, input);
        }
        return canonical(url, input);
    }

    /**
     * Resolves a raw {@code href} against a page's base URL and normalizes the result. Leading and trailing
     * spaces and controls are trimmed and tabs and newlines removed, as browsers do; an empty {@code href} is
     * the base itself (without its fragment).
     *
     * @param base the page's base URL ({@code <base href>} already applied)
     * @return as {@link #normalize(String)}
     */
    LinkDecision resolve(HttpUrl base, String href) {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(href, "href");
        String input = clean(href);
        String scheme = scheme(input);
        if (scheme != null && !scheme.equals("http") && !scheme.equals("https")) {
            return unsupported(scheme);
        }
        HttpUrl url = input.isEmpty() ? base : base.resolve(input);
        if (url == null) {
            String absolute = scheme != null ? input
                    : input.startsWith("//") || input.startsWith("\\\\") || input.startsWith("/\\")
                            || input.startsWith("\\/") ? base.scheme() + ":" + input : null;
            return absolute != null ? malformed(input, absolute)
                    : new Reject(RejectReason.MALFORMED, "href " + quote(input) + " does not resolve against "
                            + base + " to a valid URL");
        }
        return canonical(url, input);
    }

    private LinkDecision canonical(HttpUrl url, String input) {
        String host = url.host();
        if (host.length() > 1 && host.charAt(host.length() - 1) == '.') {
            host = host.substring(0, host.length() - 1);
        }
        boolean ipv6 = host.indexOf(':') >= 0;
        if (!ipv6) {
            long v4 = IpLiteral.parseIpv4(host);
            if (v4 == IpLiteral.INVALID_IPV4) {
                return new Reject(RejectReason.MALFORMED, "host " + quote(host) + " of " + quote(input)
                        + " ends in a number but is not a valid IPv4 address");
            } else if (v4 >= 0) {
                host = IpLiteral.formatIpv4(v4);
            }
        }
        if (host.isEmpty() || host.equals(".")) {
            return new Reject(RejectReason.MALFORMED, "URL " + quote(input) + " has an empty host");
        }
        String path = normalizeEncoding(url.encodedPath(), PATH_ALLOWED);
        String query = url.encodedQuery();
        boolean stripped = false;
        if (query != null) {
            query = normalizeEncoding(query, QUERY_ALLOWED);
            if (!ignored.isEmpty()) {
                String kept = ignored.strip(query);
                stripped = kept != query;
                query = kept;
            }
        }
        int port = url.port();
        boolean defaultPort = port == HttpUrl.defaultPort(url.scheme());

        StringBuilder out = new StringBuilder(url.scheme().length() + host.length() + path.length()
                + (query == null ? 0 : query.length() + 1) + 12);
        out.append(url.scheme()).append("://");
        if (ipv6) {
            out.append('[').append(host).append(']');
        } else {
            out.append(host);
        }
        if (!defaultPort) {
            out.append(':').append(port);
        }
        out.append(path);
        if (query != null) {
            out.append('?').append(query);
        }
        if (out.length() > MAX_LENGTH) {
            return new Reject(RejectReason.TOO_LONG, "normalized URL is " + out.length() + " characters, more than "
                    + MAX_LENGTH + ": " + quote(out.toString()));
        }
        return new Accept(out.toString(), stripped);
    }

    /**
     * Rewrites the percent-encoding of an already encoded path or query; returns {@code s} itself when it is
     * already normal, which is the common case.
     */
    static String normalizeEncoding(String s, boolean[] allowed) {
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '%') {
                if (!isNormalEscape(s, i)) {
                    break;
                }
                i += 3;
            } else if (c < 128 && allowed[c]) {
                i++;
            } else {
                break;
            }
        }
        if (i == n) {
            return s;
        }
        StringBuilder sb = new StringBuilder(n + 16).append(s, 0, i);
        while (i < n) {
            char c = s.charAt(i);
            if (c == '%') {
                int hi = i + 2 < n ? hexValue(s.charAt(i + 1)) : -1;
                int lo = i + 2 < n ? hexValue(s.charAt(i + 2)) : -1;
                if (hi >= 0 && lo >= 0) {
                    int b = (hi << 4) | lo;
                    if (b < 128 && UNRESERVED[b]) {
                        sb.append((char) b);
                    } else {
                        appendEscaped(sb, b);
                    }
                    i += 3;
                } else {
                    sb.append("%25");
                    i++;
                }
            } else if (c < 128) {
                if (allowed[c]) {
                    sb.append(c);
                } else {
                    appendEscaped(sb, c);
                }
                i++;
            } else {
                int cp = s.codePointAt(i);
                int count = Character.charCount(cp);
                for (byte b : s.substring(i, i + count).getBytes(StandardCharsets.UTF_8)) {
                    appendEscaped(sb, b & 0xff);
                }
                i += count;
            }
        }
        return sb.toString();
    }

    /** Whether {@code s} has at {@code i} an upper-case escape of a character that must stay escaped. */
    private static boolean isNormalEscape(String s, int i) {
        if (i + 2 >= s.length()) {
            return false;
        }
        char h = s.charAt(i + 1);
        char l = s.charAt(i + 2);
        boolean upperHex = (h >= '0' && h <= '9' || h >= 'A' && h <= 'F') && (l >= '0' && l <= '9' || l >= 'A' && l <= 'F');
        if (!upperHex) {
            return false;
        }
        int b = (hexValue(h) << 4) | hexValue(l);
        return b >= 128 || !UNRESERVED[b];
    }

    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        } else if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        } else if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    }

    private static void appendEscaped(StringBuilder sb, int b) {
        sb.append('%').append(HEX[b >>> 4]).append(HEX[b & 0xf]);
    }

    /** Trims leading and trailing C0 controls and spaces and removes tabs and newlines, as browsers do. */
    static String clean(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && s.charAt(start) <= ' ') {
            start++;
        }
        while (end > start && s.charAt(end - 1) <= ' ') {
            end--;
        }
        String trimmed = start == 0 && end == s.length() ? s : s.substring(start, end);
        if (trimmed.indexOf('\t') < 0 && trimmed.indexOf('\n') < 0 && trimmed.indexOf('\r') < 0) {
            return trimmed;
        }
        StringBuilder sb = new StringBuilder(trimmed.length());
        for (int i = 0; i < trimmed.length(); i++) {
            char c = trimmed.charAt(i);
            if (c != '\t' && c != '\n' && c != '\r') {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** The lower-cased scheme of {@code s} (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"), or null. */
    static String scheme(String s) {
        int n = s.length();
        if (n == 0 || !isAsciiLetter(s.charAt(0))) {
            return null;
        }
        for (int i = 1; i < n; i++) {
            char c = s.charAt(i);
            if (c == ':') {
                return s.substring(0, i).toLowerCase(Locale.ROOT);
            }
            if (!isAsciiLetter(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') {
                return null;
            }
        }
        return null;
    }

    private static boolean isAsciiLetter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    private static Reject unsupported(String scheme) {
        return new Reject(RejectReason.UNSUPPORTED_SCHEME, "scheme " + quote(scheme) + " is not http or https");
    }

    private static Reject malformed(String input, String absolute) {
        String why;
        try {
            HttpUrl.get(absolute);
            why = "not a valid URL";
        } catch (IllegalArgumentException e) {
            why = e.getMessage();
        }
        if (why.length() > 2 * QUOTED_INPUT_LENGTH) {
            why = why.substring(0, 2 * QUOTED_INPUT_LENGTH) + "\u2026";
        }
        return new Reject(RejectReason.MALFORMED, "URL " + quote(input) + ": " + why);
    }

    /** {@code s} in double quotes, cut to a readable length. */
    static String quote(String s) {
        return s.length() <= QUOTED_INPUT_LENGTH ? '"' + s + '"'
                : '"' + s.substring(0, QUOTED_INPUT_LENGTH) + "\u2026\" (" + s.length() + " characters)";
    }
}
