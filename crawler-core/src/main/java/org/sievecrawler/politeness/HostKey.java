package org.sievecrawler.politeness;

/**
 * The politeness unit of a URL: its scheme, host and port, e.g. {@code https://example.org} or
 * {@code http://127.0.0.1:8080}, read straight from a normalized absolute URL; and its {@link #host host} alone
 * ({@code example.org}), the unit to route by where several processes share a crawl, so that every scheme and port of
 * a host has one owner.
 * Pure functions.
 */
public final class HostKey {
    private HostKey() {
    }

    /**
     * The host key of {@code url}, which must be absolute and normalized (lower-case scheme and host, no
     * user info, default port dropped).
     *
     * @throws IllegalArgumentException naming the URL when it has no "scheme://authority"
     */
    public static String of(String url) {
        int schemeEnd = url.indexOf("://");
        if (schemeEnd <= 0) {
            throw new IllegalArgumentException("not an absolute URL: \"" + url + "\"");
        }
        int pathStart = url.indexOf('/', schemeEnd + 3);
        int queryStart = url.indexOf('?', schemeEnd + 3);
        int end = pathStart < 0 ? url.length() : pathStart;
        if (queryStart >= 0 && queryStart < end) {
            end = queryStart;
        }
        return url.substring(0, end);
    }

    /**
     * The host of {@code url} alone, without scheme, user info or port: {@code example.org} for both
     * {@code http://example.org/} and {@code https://example.org:8443/a}, {@code 127.0.0.1}, {@code [::1]} (an IPv6
     * literal keeps its brackets, as in the URL). {@code url} must be normalized as for {@link #of} (lower-case
     * host); the result is then the same for every URL of the host, whatever the scheme and port.
     *
     * @throws IllegalArgumentException naming the URL when it has no "scheme://authority" or an empty host
     */
    public static String host(String url) {
        String key = of(url);
        int start = key.indexOf("://") + 3;
        int at = key.lastIndexOf('@');
        if (at >= start) {
            start = at + 1;
        }
        int end = key.length();
        int colon = key.lastIndexOf(':');
        int bracket = key.lastIndexOf(']');
        if (colon >= start && colon > bracket) {
            end = colon;
        }
        if (end <= start) {
            throw new IllegalArgumentException("URL has no host: \"" + url + "\"");
        }
        return key.substring(start, end);
    }

    /** The sitemap URL a host key has by convention, {@code /sitemap.xml} (fetched with {@code scope.sitemaps}). */
    public static String sitemapUrl(String hostKey) {
        return hostKey + "/sitemap.xml";
    }
}
