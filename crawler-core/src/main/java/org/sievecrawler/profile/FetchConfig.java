package org.sievecrawler.profile;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sievecrawler.trust.TrustStore;

/**
 * How pages are fetched.
 *
 * @param threads fetcher threads
 * @param maxConnections sockets open at most, in use and idle, across all hosts; 0: derived from {@code threads},
 *     the connections per host and the process's file-descriptor limit ({@code fetch.SocketBudget})
 * @param userAgent the User-Agent header; its first product token is the robots.txt agent name
 * @param connectTimeout TCP connect timeout
 * @param readTimeout timeout between two reads of the response
 * @param callTimeout timeout for a whole request, from connect to the end of the body
 * @param maxRedirects redirects followed in a chain before it is recorded as an error
 * @param retries retries after a connection error, 429, 502, 503 or 504
 * @param accept media types that are parsed for links (others are recorded, not parsed)
 * @param allowPrivateAddresses whether links may lead to loopback, private or link-local addresses
 * @param proxy {@link #PROXY_NONE} (the environment's {@code http_proxy}, {@code https_proxy} and {@code no_proxy}
 *     decide), {@link #PROXY_DIRECT} (never a proxy), or the proxy's URL, {@code http://host:port}
 * @param headers extra request headers, each {@code Name: value}, sent with every request
 * @param trustStore the certificate authorities trusted for https besides the system's ({@link TrustStore#SYSTEM}:
 *     none)
 * @param dnsTtl how long a host name's addresses are kept once resolved (0: not kept)
 * @param dnsNegativeTtl how long a host name that did not resolve is kept as unknown (0: not kept)
 */
public record FetchConfig(int threads, int maxConnections, String userAgent, Duration connectTimeout, Duration readTimeout,
        Duration callTimeout, int maxRedirects, int retries, List<String> accept, boolean allowPrivateAddresses,
        String proxy, List<String> headers, TrustStore trustStore, Duration dnsTtl, Duration dnsNegativeTtl) {

    public static final String DEFAULT_USER_AGENT =
            "SieveCrawler/0.1 (+https://github.com/sievecrawler/sievecrawler)";
    private static final Pattern ROBOTS_AGENT_NAME = Pattern.compile("[a-zA-Z_-]+");
    /**
     * A contact at a domain reserved for examples (RFC 2606: example.com, example.net, example.org and the .example
     * top-level domain), which reaches no one: an e-mail address there, or a page there.
     */
    private static final Pattern PLACEHOLDER_CONTACT = Pattern.compile("(?:[\\w.%+-]+@|https?://)"
            + "(?:[a-z0-9-]+\\.)*(?:example\\.(?:com|net|org)|[a-z0-9-]+\\.example)(?![\\w-]|\\.[\\w-])",
            Pattern.CASE_INSENSITIVE);
    /** {@code fetch.proxy: none}: no proxy of the profile's own; the environment variables decide. */
    public static final String PROXY_NONE = "none";
    /** {@code fetch.proxy: direct}: never a proxy, whatever the environment says. */
    public static final String PROXY_DIRECT = "direct";
    /** {@code fetch.trust-store: none}: the system's certificate authorities only. */
    public static final String TRUST_STORE_NONE = "none";

    public FetchConfig {
        accept = List.copyOf(ProfileKeys.FETCH_ACCEPT.require(accept));
        headers = List.copyOf(ProfileKeys.FETCH_HEADERS.require(headers));
        ProfileKeys.FETCH_THREADS.require(threads);
        ProfileKeys.FETCH_MAX_CONNECTIONS.require(maxConnections);
        ProfileKeys.FETCH_USER_AGENT.require(userAgent);
        ProfileKeys.FETCH_CONNECT_TIMEOUT.require(connectTimeout);
        ProfileKeys.FETCH_READ_TIMEOUT.require(readTimeout);
        ProfileKeys.FETCH_CALL_TIMEOUT.require(callTimeout);
        ProfileKeys.FETCH_MAX_REDIRECTS.require(maxRedirects);
        ProfileKeys.FETCH_RETRIES.require(retries);
        ProfileKeys.FETCH_PROXY.require(proxy);
        ProfileKeys.FETCH_TRUST_STORE.require(trustStore);
        ProfileKeys.FETCH_DNS_TTL.require(dnsTtl);
        ProfileKeys.FETCH_DNS_NEGATIVE_TTL.require(dnsNegativeTtl);
    }

    public static FetchConfig defaults() {
        return CrawlProfile.defaults().fetch();
    }

    /** The robots.txt agent name: the user agent's first product token, e.g. "SieveCrawler". */
    public String robotsAgentName() {
        return robotsAgentName(userAgent);
    }

    /** The first product token of a User-Agent header {@code userAgent}: up to the first "/" or space. */
    static String robotsAgentName(String userAgent) {
        String token = userAgent.trim().split("[/\\s]", 2)[0];
        return token.isEmpty() ? userAgent.trim() : token;
    }

    /**
     * Why {@code name} cannot be a robots.txt agent name, or null if it can: RFC 9309 section 2.2.1 allows one
     * product token of letters, "-" and "_" (no digits, dots or spaces), the only names robots.txt user-agent
     * lines are matched with.
     */
    public static String robotsAgentNameProblem(String name) {
        return name != null && ROBOTS_AGENT_NAME.matcher(name).matches() ? null
                : "must be letters, - and _ only (RFC 9309 2.2.1)";
    }

    /**
     * A warning when a contact the crawl sends to every server with each request, in the User-Agent or an extra
     * header (such as From), is a placeholder at a domain reserved for examples, as {@code config/site.yaml}'s
     * {@code you@example.org}: site operators use it to reach the crawl's owner, and it reaches no one. Empty when
     * there is none.
     */
    public Optional<String> placeholderContact() {
        List<String> places = new ArrayList<>();
        String contact = null;
        List<String> sent = new ArrayList<>(List.of(userAgent));
        sent.addAll(headers);
        for (int i = 0; i < sent.size(); i++) {
            Matcher placeholder = PLACEHOLDER_CONTACT.matcher(sent.get(i));
            if (placeholder.find()) {
                places.add(i == 0 ? ProfileKeys.FETCH_USER_AGENT.name()
                        : ProfileKeys.FETCH_HEADERS.name() + "[" + (i - 1) + "]");
                contact = contact == null ? placeholder.group() : contact;
            }
        }
        if (places.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(String.join(" and ", places) + (places.size() == 1 ? " names" : " name")
                + " the placeholder contact " + contact + ", which every server sees with each request: site"
                + " operators use it to reach you, and a domain reserved for examples reaches no one; set your own"
                + " contact in the profile or on the command line (--user-agent, --set fetch.headers=...)");
    }
}
