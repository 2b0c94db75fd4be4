package org.sievecrawler.robots;

import java.util.List;
import okhttp3.HttpUrl;
import org.sievecrawler.fetch.FailureKind;
import org.sievecrawler.fetch.HttpExchange;

/**
 * What fetching a robots.txt file gave ({@link RobotsFetcher}), uninterpreted: the final status and body after at
 * most five redirects, or status 0 and an error when no final response was reached; {@code unavailable} when that is
 * because the redirects led nowhere (RFC 9309 section 2.3.1.2: more than five, a redirect without a usable Location,
 * or one to a host name that does not resolve or to an address the crawl may not reach), or because the address guard
 * refused robots.txt's own host (its pages are refused the same way, one by one). Interpreting it (2xx rules, 4xx or
 * unavailable allow-all, 5xx or another 0 disallow) belongs to {@link RobotsPolicy}. Immutable.
 *
 * @param status the final HTTP status, or 0 on a network error, timeout or too many redirects
 * @param body the body, at most {@link RobotsFetcher#MAX_BYTES} bytes; empty when status is 0
 * @param finalUrl the URL of the final response (after redirects), or the last URL tried when status is 0
 * @param error what went wrong when status is 0, else null
 * @param failure what kind of failure it was when status is 0 (e.g. {@link FailureKind#REFUSED}, or
 *     {@link FailureKind#PROTOCOL} for a redirect chain that led nowhere), else null
 * @param unavailable whether status is 0 because the redirects led nowhere (the RFC lets the crawler treat
 *     robots.txt as unavailable, as for a 4xx) or the address guard refused the host
 * @param exchanges every request and response of the chain (redirects included) as they crossed the wire, in
 *     order, when the fetcher captures exchanges; else empty
 */
public record RobotsResponse(int status, byte[] body, String finalUrl, String error, FailureKind failure,
        boolean unavailable, List<HttpExchange> exchanges) {

    public RobotsResponse {
        exchanges = List.copyOf(exchanges);
    }

    static RobotsResponse of(int status, byte[] body, String finalUrl, List<HttpExchange> exchanges) {
        return new RobotsResponse(status, body, finalUrl, null, null, false, exchanges);
    }

    static RobotsResponse failed(String finalUrl, FailureKind failure, String error, List<HttpExchange> exchanges) {
        return new RobotsResponse(0, new byte[0], finalUrl, error, failure, false, exchanges);
    }

    static RobotsResponse unavailable(String finalUrl, FailureKind failure, String error,
            List<HttpExchange> exchanges) {
        return new RobotsResponse(0, new byte[0], finalUrl, error, failure, true, exchanges);
    }

    /** Whether no final response was reached (status 0). */
    public boolean failed() {
        return status == 0;
    }

    /**
     * Whether this was a failed attempt, as the crawl counts errors: no final response, or any 5xx (a page's 5xx
     * counts only when it is one of those retried).
     */
    public boolean failedAttempt() {
        return failed() || status >= 500;
    }

    /**
     * Whether the host of {@code robotsUrl} (the robots.txt asked for) could not be reached: a failure of an
     * {@linkplain FailureKind#unreachable() unreachable} kind on that host's own origin (scheme, host and port). A
     * redirect's target on another origin that cannot be reached says nothing of the host that redirected: it
     * answered.
     */
    public boolean hostUnreachable(String robotsUrl) {
        HttpUrl asked = HttpUrl.parse(robotsUrl);
        HttpUrl failedAt = HttpUrl.parse(finalUrl);
        return failure != null && failure.unreachable() && asked != null && failedAt != null
                && asked.scheme().equals(failedAt.scheme()) && asked.host().equals(failedAt.host())
                && asked.port() == failedAt.port();
    }

    @Override
    public String toString() {
        return "RobotsResponse[status=" + status + ", bytes=" + body.length + ", finalUrl=" + finalUrl
                + (error == null ? "" : ", " + failure + "=" + error) + (unavailable ? ", unavailable" : "") + "]";
    }
}
