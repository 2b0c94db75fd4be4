package org.sievecrawler.fetch;

import java.time.Duration;
import okhttp3.Headers;
import okhttp3.HttpUrl;

/**
 * The outcome of one fetch attempt: a final response ({@link Page}), a redirect the engine may follow
 * ({@link Redirect}) or a {@link Failure}. Records are immutable except for the page body, which is handed over
 * to the caller without a copy.
 */
public sealed interface FetchResult {

    /** Milliseconds from the start of the attempt to its end (body read, or failure). */
    long fetchMillis();

    /**
     * The request and response as they crossed the wire, for the archive; null unless the fetcher captures
     * exchanges, and null when no whole response arrived (a network error, or a body that failed mid-way) but for
     * a response OkHttp refused, whose exchange holds what came back ({@link CapturedResponse.Refused}).
     */
    HttpExchange exchange();

    /**
     * A final response: 2xx, or any 4xx/5xx other than the retryable 429, 502, 503 and 504 (those too from
     * {@link HttpFetcher#fetchAnyStatus}), or a 3xx that is not a redirect.
     *
     * @param url the URL fetched, parsed (what the page's relative links resolve against, barring a base)
     * @param status the HTTP status code
     * @param contentType the Content-Type header value, or null when absent
     * @param body the body after decompression, at most {@code limits.max-page-bytes} long; owned by the caller
     * @param length the number of body bytes read, equal to {@code body.length}
     * @param truncated whether the body was longer than the cap and cut there
     * @param fetchMillis milliseconds from the start of the attempt to the end of the body
     * @param remoteAddress the IP address connected to, or null when not known
     * @param headers the response headers as received (Content-Encoding included; the body is decoded all the same)
     * @param exchange the exchange as it crossed the wire, or null when not captured
     * @param ttfbMillis milliseconds from the start of the attempt to the response headers (time to first byte); 0
     *     when not measured
     */
    record Page(HttpUrl url, int status, String contentType, byte[] body, int length, boolean truncated, long fetchMillis,
            String remoteAddress, Headers headers, HttpExchange exchange, long ttfbMillis) implements FetchResult {
        /** A page whose time to first byte was not measured. */
        public Page(HttpUrl url, int status, String contentType, byte[] body, int length, boolean truncated,
                long fetchMillis, String remoteAddress, Headers headers, HttpExchange exchange) {
            this(url, status, contentType, body, length, truncated, fetchMillis, remoteAddress, headers, exchange, 0);
        }

        @Override
        public String toString() {
            return "Page[status=" + status + ", contentType=" + contentType + ", length=" + length + ", truncated="
                    + truncated + ", fetchMillis=" + fetchMillis + ", remoteAddress=" + remoteAddress + "]";
        }
    }

    /**
     * A 301, 302, 303, 307 or 308 response; its body is read only when the exchange is captured.
     *
     * @param status the HTTP status code
     * @param location the raw Location header value (may be relative), or null when absent
     * @param fetchMillis milliseconds from the start of the attempt to the response headers (or its body, when
     *     captured)
     * @param remoteAddress the IP address connected to, or null when not known
     * @param exchange the exchange as it crossed the wire, or null when not captured
     */
    record Redirect(int status, String location, long fetchMillis, String remoteAddress, HttpExchange exchange)
            implements FetchResult {
    }

    /**
     * No recordable response: a network error, a retryable status or an invalid URL.
     *
     * @param kind what went wrong; {@link FailureKind#retryable()} tells whether trying later may help
     * @param status the HTTP status code when a response arrived (e.g. 503), else 0
     * @param detail a sentence naming the URL or host and what happened
     * @param retryAfter the server's Retry-After delay, or null when absent or invalid
     * @param fetchMillis milliseconds from the start of the attempt to the failure
     * @param exchange the exchange as it crossed the wire when it is captured and a response arrived (a retryable
     *     status) or came back refused ({@link FailureKind#PROTOCOL}: {@link CapturedResponse.Refused}), else null
     */
    record Failure(FailureKind kind, int status, String detail, Duration retryAfter, long fetchMillis,
            HttpExchange exchange) implements FetchResult {

        /** A failure without a captured exchange. */
        public Failure(FailureKind kind, int status, String detail, Duration retryAfter, long fetchMillis) {
            this(kind, status, detail, retryAfter, fetchMillis, null);
        }
    }
}
