package org.sievecrawler.cluster;

/**
 * A cluster operation that did not happen, with a message for the user that names the cluster, the topic or the
 * input and what to do. {@link #kind()} tells a command which exit code it is.
 */
public final class ClusterException extends Exception {
    /** Why the operation did not happen. */
    public enum Kind {
        /** The cluster did not answer in time, or failed: try again, or check the address. */
        UNAVAILABLE,
        /** The cluster answered and the request cannot be done as asked (topics that differ, too few brokers). */
        REFUSED
    }

    private final Kind kind;

    public ClusterException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
