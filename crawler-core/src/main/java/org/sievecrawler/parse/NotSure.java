package org.sievecrawler.parse;

/**
 * Thrown inside a scan to abandon it, for {@link HrefScanner} to answer unsure. Carries the reason, a short label
 * without positions that the crawl counts (e.g. {@code "<svg> breaks out..."}), and as its message the reason with the
 * byte offset where it was met; no stack trace.
 */
final class NotSure extends RuntimeException {
    private final String reason;

    NotSure(String reason, int at) {
        super(reason + " at byte " + at, null, false, false);
        this.reason = reason;
    }

    /** The reason without its position. */
    String reason() {
        return reason;
    }
}
