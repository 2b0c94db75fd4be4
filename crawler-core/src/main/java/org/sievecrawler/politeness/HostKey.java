package org.sievecrawler.politeness;

/**
 * The politeness unit of a URL: its scheme, host and port, e.g. {@code https://example.org} or
 * {@code http://127.0.0.1:8080}, read straight from a normalized absolute URL. Pure functions.
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

    /** The robots.txt URL of a host key. */
    public static String robotsUrl(String hostKey) {
        return hostKey + "/robots.txt";
    }
}
