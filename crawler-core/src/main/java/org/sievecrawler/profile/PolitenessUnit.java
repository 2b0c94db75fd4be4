package org.sievecrawler.profile;

import java.util.Locale;

/**
 * What one politeness clock covers: the value of {@code politeness.per} ({@link ProfileKeys#POLITENESS_PER}).
 * Immutable. The clocks themselves are out of scope (the {@code politeness} package).
 */
public enum PolitenessUnit {
    /** Each host (scheme, host name and port) has its delay and its connections. */
    HOST,
    /**
     * Each host as with {@link #HOST}, and besides, hosts whose names resolve to the same IP address share one delay
     * and one limit of connections, as Heritrix and BUbiNG can: a server of many virtual hosts is asked as one.
     */
    IP;

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
