package org.sievecrawler.fetch;

/** Why a fetch produced no response the engine can record, and whether trying again later may help. */
public enum FailureKind {
    /** The connection was refused, reset or the host unreachable. */
    CONNECT(true),
    /** Connecting, reading or the whole call took longer than its timeout. */
    TIMEOUT(true),
    /** The host name did not resolve. */
    DNS(false),
    /** The host resolved only to loopback, private, link-local or unspecified addresses, which are not allowed. */
    PRIVATE_ADDRESS(false),
    /** The TLS handshake failed or the certificate was not trusted. */
    TLS(false),
    /** The server answered with something that is not valid HTTP. */
    PROTOCOL(false),
    /** The server answered 429, 502, 503 or 504. */
    RETRYABLE_STATUS(true),
    /** The URL string is not an absolute http or https URL. */
    INVALID_URL(false);

    private final boolean retryable;

    FailureKind(boolean retryable) {
        this.retryable = retryable;
    }

    /** Whether the same URL may succeed if fetched again later: true for CONNECT, TIMEOUT and RETRYABLE_STATUS. */
    public boolean retryable() {
        return retryable;
    }
}
