package org.sievecrawler.fetch;

import java.util.List;

/**
 * What fetching a robots.txt file gave, uninterpreted: the final status and body after at most five redirects,
 * or status 0 and an error when no final response was reached. Interpreting it (2xx rules, 4xx allow-all,
 * 5xx or 0 disallow for now) belongs to the politeness package.
 *
 * @param status the final HTTP status, or 0 on a network error, timeout or too many redirects
 * @param body the body, at most {@link HttpFetcher#MAX_ROBOTS_BYTES} bytes; empty when status is 0
 * @param finalUrl the URL of the final response (after redirects), or the last URL tried when status is 0
 * @param error what went wrong when status is 0, else null
 * @param failure what kind of failure it was when status is 0 (e.g. {@link FailureKind#REFUSED}, or
 *     {@link FailureKind#PROTOCOL} for a redirect chain that led nowhere), else null
 * @param exchanges every request and response of the chain (redirects included) as they crossed the wire, in
 *     order, when the fetcher captures exchanges; else empty
 */
public record RobotsResponse(int status, byte[] body, String finalUrl, String error, FailureKind failure,
        List<HttpExchange> exchanges) {

    public RobotsResponse {
        exchanges = List.copyOf(exchanges);
    }

    static RobotsResponse of(int status, byte[] body, String finalUrl, List<HttpExchange> exchanges) {
        return new RobotsResponse(status, body, finalUrl, null, null, exchanges);
    }

    static RobotsResponse failed(String finalUrl, FailureKind failure, String error, List<HttpExchange> exchanges) {
        return new RobotsResponse(0, new byte[0], finalUrl, error, failure, exchanges);
    }

    /** Whether no final response was reached (status 0). */
    public boolean failed() {
        return status == 0;
    }

    @Override
    public String toString() {
        return "RobotsResponse[status=" + status + ", bytes=" + body.length + ", finalUrl=" + finalUrl
                + (error == null ? "" : ", " + failure + "=" + error) + "]";
    }
}
