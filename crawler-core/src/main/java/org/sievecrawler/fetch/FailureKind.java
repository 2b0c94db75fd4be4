package org.sievecrawler.fetch;

/**
 * Why a fetch produced no response the engine can record, whether trying again later may help, and whether it
 * means the host could not be reached at all (no connection was made).
 */
public enum FailureKind {
    /** The connection was refused: nothing listens on the port. */
    REFUSED(true, "connection refused"),
    /** No route to the host, the network or port unreachable, or another failure to connect. */
    NO_ROUTE(true, "host unreachable"),
    /** Connecting took longer than {@code fetch.connect-timeout}. */
    CONNECT_TIMEOUT(true, "connect timed out"),
    /** The host name did not resolve. */
    DNS(false, "unknown host"),
    /** The TLS handshake failed or the certificate was not trusted. */
    TLS(false, "TLS handshake failed"),
    /** Connected, then the server reset or closed the connection before a whole response head. */
    CONNECTION_LOST(true, null),
    /** Reading took longer than {@code fetch.read-timeout}, or the whole call than {@code fetch.call-timeout}. */
    TIMEOUT(true, null),
    /**
     * The host resolved only to addresses the crawl may not reach ({@link org.sievecrawler.address.SpecialRanges}),
     * or is such an IP literal, and is not a seed's host and port.
     */
    PRIVATE_ADDRESS(false, null),
    /** The server answered with something that is not valid HTTP. */
    PROTOCOL(false, null),
    /** The server answered 429, 502, 503 or 504. */
    RETRYABLE_STATUS(true, null),
    /** The URL string is not an absolute http or https URL. */
    INVALID_URL(false, null),
    /**
     * The crawl cancelled the request as it ended ({@link HttpFetcher#cancelCalls()}): no fault of the server's;
     * the engine records nothing and fetches the URL again on resume.
     */
    CANCELLED(false, null);

    private final boolean retryable;
    private final String unreachableReason;

    FailureKind(boolean retryable, String unreachableReason) {
        this.retryable = retryable;
        this.unreachableReason = unreachableReason;
    }

    /**
     * Whether the same URL may succeed if fetched again later: true for REFUSED, NO_ROUTE, CONNECT_TIMEOUT,
     * CONNECTION_LOST, TIMEOUT and RETRYABLE_STATUS.
     */
    boolean retryable() {
        return retryable;
    }

    /**
     * Whether the host could not be reached: it did not resolve, or no connection (TCP, then TLS) could be made.
     * Once that holds after the crawl's retries, the crawl records the host's URLs as unreachable.
     */
    public boolean unreachable() {
        return unreachableReason != null;
    }

    /** The few words that say why the host is unreachable, e.g. "connection refused"; null if it is not. */
    public String unreachableReason() {
        return unreachableReason;
    }

    /**
     * Why the host is unreachable after a failure of this kind whose detail is {@code detail}: for {@link #TLS} the
     * detail itself ("TLS handshake failed: " and which check failed, e.g. "unable to find a valid certification
     * path; to trust a private CA set fetch.trust-store"), since what to do depends on it; else
     * {@link #unreachableReason()}.
     */
    public String unreachableReason(String detail) {
        return this == TLS && detail != null ? detail : unreachableReason;
    }
}
