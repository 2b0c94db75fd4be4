package org.sievecrawler.robots;

import java.util.ArrayList;
import java.util.List;
import okhttp3.HttpUrl;
import org.sievecrawler.fetch.FailureKind;
import org.sievecrawler.fetch.FetchResult;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.fetch.HttpFetcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches a host's robots.txt as RFC 9309 section 2.3.1.2 says: it follows up to {@link #MAX_REDIRECTS} redirects
 * (relative Locations resolved against the current URL) and reads at most {@link #MAX_BYTES} bytes. Every hop is a
 * single attempt of the {@link HttpFetcher} ({@link HttpFetcher#fetchAnyStatus}), a request of its own through its
 * address guard, so a redirect obeys the rule of links: to a host on a refused address (a literal, {@code localhost}
 * or a name resolving there) only if its host:port is a seed's. What came back is a {@link RobotsResponse}, as it
 * is: {@link RobotsPolicy} reads it.
 *
 * <p>Thread-safe, as the HttpFetcher: any number of fetcher threads, each blocked on its own hop.
 *
 * <p>Out of scope: the requests themselves (the HttpFetcher: headers, proxy, TLS, the address guard, cancellation,
 * capturing exchanges), reading the file ({@link RobotsPolicy}) and trying again ({@link RobotsStep},
 * {@link HostRobots}).
 */
public final class RobotsFetcher {
    /** Bytes of a robots.txt file read at most (500 KiB, RFC 9309 section 2.5). */
    public static final int MAX_BYTES = 512_000;
    /** Redirects followed at most when fetching robots.txt (RFC 9309 section 2.3.1.2). */
    public static final int MAX_REDIRECTS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(RobotsFetcher.class);

    private final HttpFetcher http;

    /** A fetcher of robots.txt whose every hop is an attempt of {@code http}. */
    public RobotsFetcher(HttpFetcher http) {
        this.http = http;
    }

    /**
     * Fetches the robots.txt file at {@code robotsUrl}, following its redirects.
     *
     * @return the final status, body and URL; or status 0 with an error on a network error or a timeout (on a
     *     redirect's target, that host's: see {@link RobotsResponse#hostUnreachable(String)}); or status 0
     *     {@linkplain RobotsResponse#unavailable() unavailable} when the redirects lead nowhere: more than five of
     *     them, one without a usable Location, one to a host name that does not resolve, or one the address guard
     *     refused (RFC 9309 section 2.3.1.2); or when the address guard refused robots.txt's own host, whose pages
     *     it then refuses one by one (there is nothing to obey); or status 0 with {@link FailureKind#CANCELLED} when
     *     the HttpFetcher's calls were cancelled
     */
    public RobotsResponse fetch(String robotsUrl) {
        HttpUrl current = robotsUrl == null ? null : HttpUrl.parse(robotsUrl);
        List<HttpExchange> exchanges = new ArrayList<>(1);
        if (current == null) {
            return RobotsResponse.failed(robotsUrl, FailureKind.INVALID_URL, "robots.txt url \"" + robotsUrl
                    + "\" is not an absolute http or https URL", exchanges);
        }
        HttpUrl previous = null;
        for (int redirects = 0; ; redirects++) {
            FetchResult result = http.fetchAnyStatus(current.toString(), MAX_BYTES);
            if (result.exchange() != null) {
                exchanges.add(result.exchange());
            }
            if (result instanceof FetchResult.Page page) {
                LOG.debug("fetched robots.txt {}: HTTP {}, {} bytes", current, page.status(), page.body().length);
                return RobotsResponse.of(page.status(), page.body(), current.toString(), exchanges);
            }
            if (result instanceof FetchResult.Failure failure) {
                return failed(current, previous, failure, exchanges);
            }
            FetchResult.Redirect redirect = (FetchResult.Redirect) result;
            String location = redirect.location();
            HttpUrl next = location == null ? null : current.resolve(location);
            if (redirects == MAX_REDIRECTS) {
                return RobotsResponse.unavailable(current.toString(), FailureKind.PROTOCOL, "robots.txt "
                        + robotsUrl + " redirected more than " + MAX_REDIRECTS + " times (the last, from "
                        + current + ", to \"" + location + "\")", exchanges);
            }
            if (next == null) {
                return RobotsResponse.unavailable(current.toString(), FailureKind.PROTOCOL, "robots.txt redirect "
                        + redirect.status() + " from " + current + (location == null ? " has no Location"
                                : " to \"" + location + "\" is not an http(s) URL"), exchanges);
            }
            previous = current;
            current = next;
        }
    }

    /**
     * The response of an attempt at {@code current} (the redirect target of {@code previous}, null for robots.txt's
     * own URL) that failed: unavailable when the address guard refused it or a redirect's host name did not resolve,
     * else failed as the attempt did.
     */
    private static RobotsResponse failed(HttpUrl current, HttpUrl previous, FetchResult.Failure failure,
            List<HttpExchange> exchanges) {
        if (failure.kind() == FailureKind.CANCELLED) { // the crawl is ending
            return RobotsResponse.failed(current.toString(), failure.kind(), failure.detail(), exchanges);
        }
        LOG.debug("robots.txt {} failed: {}", current, failure.detail());
        if (failure.kind() == FailureKind.PRIVATE_ADDRESS) { // the host's pages are refused the same way
            return RobotsResponse.unavailable(current.toString(), failure.kind(), (previous == null
                    ? "robots.txt " + current + " not fetched: "
                    : "robots.txt redirect from " + previous + " to " + current + " refused: ")
                    + failure.detail(), exchanges);
        }
        if (previous != null && failure.kind() == FailureKind.DNS) { // e.g. http://0x7f.1/, no address form
            return RobotsResponse.unavailable(current.toString(), failure.kind(), "robots.txt redirect from "
                    + previous + " to " + current + " leads nowhere: " + failure.detail(), exchanges);
        }
        return RobotsResponse.failed(current.toString(), failure.kind(), failure.detail(), exchanges);
    }
}
