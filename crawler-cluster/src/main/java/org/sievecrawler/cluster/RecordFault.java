package org.sievecrawler.cluster;

/**
 * Why a record of a crawl's topics is refused before its URL is looked at (a URL that fails a link rule is refused
 * by that rule's {@link org.sievecrawler.link.RejectReason}). Each has a stable kebab-case {@link #label()}, by which
 * bad records are counted, logged and marked in {@code <crawl>.rejected}; labels never change once released.
 */
enum RecordFault {
    /** The record has no value (null: a tombstone, or another client's). */
    NO_VALUE("no-value"),
    /** Key and value take more than {@link FrontierRecords#MAX_RECORD_BYTES}: not written by a crawler; not read. */
    TOO_LARGE("too-large"),
    /**
     * The value is not what the topic holds: for the frontier, not exactly one pending URL (garbage, empty, cut
     * short, bytes after it, a length or a number out of range such as a negative depth); for the done-log, not
     * UTF-8.
     */
    UNREADABLE("unreadable"),
    /**
     * A field no crawler writes to the frontier: the purpose robots.txt (an owner makes its hosts' robots.txt
     * itself), an attempt above 0 (retries stay with the owner; one would pass the page budgets), more redirects
     * than {@code fetch.max-redirects}.
     */
    UNEXPECTED_FIELD("unexpected-field"),
    /**
     * The URL's host belongs to another partition: its owner there crawls it; taken here too, two processes would
     * crawl one host.
     */
    MISROUTED("misrouted"),
    /** A snapshot of a partition's Sieve that cannot be read: its owner rebuilds the partition by a replay. */
    UNREADABLE_SNAPSHOT("unreadable-snapshot");

    private final String label;

    RecordFault(String label) {
        this.label = label;
    }

    /** The stable kebab-case name, e.g. {@code "too-large"}. */
    String label() {
        return label;
    }

    /** A refusal of this kind with {@code detail}. */
    <T> RecordVerdict.Bad<T> bad(String detail) {
        return new RecordVerdict.Bad<>(label, detail);
    }

    @Override
    public String toString() {
        return label;
    }
}
