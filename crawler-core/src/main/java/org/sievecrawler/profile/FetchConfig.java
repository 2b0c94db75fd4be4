package org.sievecrawler.profile;

import java.time.Duration;
import java.util.List;

/**
 * How pages are fetched.
 *
 * @param threads fetcher threads
 * @param userAgent the User-Agent header; its first product token is the robots.txt agent name
 * @param connectTimeout TCP connect timeout
 * @param readTimeout timeout between two reads of the response
 * @param callTimeout timeout for a whole request, from connect to the end of the body
 * @param maxRedirects redirects followed in a chain before it is recorded as an error
 * @param retries retries after a connection error, 429, 502, 503 or 504
 * @param accept media types that are parsed for links (others are recorded, not parsed)
 * @param allowPrivateAddresses whether links may lead to loopback, private or link-local addresses
 */
public record FetchConfig(int threads, String userAgent, Duration connectTimeout, Duration readTimeout,
        Duration callTimeout, int maxRedirects, int retries, List<String> accept, boolean allowPrivateAddresses) {

    public static final String DEFAULT_USER_AGENT =
            "SieveCrawler/0.1 (+https://github.com/sievecrawler/sievecrawler)";

    public FetchConfig {
        accept = List.copyOf(accept);
        if (threads < 1 || threads > 1024) {
            throw new IllegalArgumentException("fetch.threads must be in [1, 1024], was " + threads);
        }
        if (userAgent == null || userAgent.isBlank()) {
            throw new IllegalArgumentException("fetch.user-agent must not be empty");
        }
        requirePositive("fetch.connect-timeout", connectTimeout);
        requirePositive("fetch.read-timeout", readTimeout);
        requirePositive("fetch.call-timeout", callTimeout);
        if (maxRedirects < 0) {
            throw new IllegalArgumentException("fetch.max-redirects must be >= 0, was " + maxRedirects);
        }
        if (retries < 0) {
            throw new IllegalArgumentException("fetch.retries must be >= 0, was " + retries);
        }
    }

    private static void requirePositive(String key, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(key + " must be > 0, was " + value);
        }
    }

    public static FetchConfig defaults() {
        return new FetchConfig(16, DEFAULT_USER_AGENT, Duration.ofSeconds(10), Duration.ofSeconds(30),
                Duration.ofSeconds(60), 5, 2, List.of("text/html", "application/xhtml+xml"), false);
    }

    /** The robots.txt agent name: the user agent's first product token, e.g. "SieveCrawler". */
    public String robotsAgentName() {
        String token = userAgent.trim().split("[/\\s]", 2)[0];
        return token.isEmpty() ? userAgent.trim() : token;
    }

    public FetchConfig withThreads(int count) {
        return new FetchConfig(count, userAgent, connectTimeout, readTimeout, callTimeout, maxRedirects, retries,
                accept, allowPrivateAddresses);
    }

    public FetchConfig withUserAgent(String agent) {
        return new FetchConfig(threads, agent, connectTimeout, readTimeout, callTimeout, maxRedirects, retries,
                accept, allowPrivateAddresses);
    }

    public FetchConfig withTimeouts(Duration connect, Duration read, Duration call) {
        return new FetchConfig(threads, userAgent, connect, read, call, maxRedirects, retries, accept,
                allowPrivateAddresses);
    }

    public FetchConfig withRetries(int count) {
        return new FetchConfig(threads, userAgent, connectTimeout, readTimeout, callTimeout, maxRedirects, count,
                accept, allowPrivateAddresses);
    }

    public FetchConfig withAllowPrivateAddresses(boolean allow) {
        return new FetchConfig(threads, userAgent, connectTimeout, readTimeout, callTimeout, maxRedirects, retries,
                accept, allow);
    }
}
