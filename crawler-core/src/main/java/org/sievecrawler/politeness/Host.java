package org.sievecrawler.politeness;

import java.util.ArrayDeque;
import org.sievecrawler.robots.HostRobots;
import org.sievecrawler.sieve.PendingUrl;

/** A host's queue, politeness state and robots.txt; guarded by the scheduler's lock. */
final class Host {
    final String key;
    final ArrayDeque<PendingUrl> queue = new ArrayDeque<>();
    final HostRobots robots;
    int inFlight;
    long nextAllowed;
    long delayMillis;
    int maxConnections;
    /** Why the host cannot be reached, once the crawl knows it; null while it may be reachable. */
    String unreachable;
    long version;
    boolean ticketed;
    /** Whether it waits in the idle heap, to be parked. */
    boolean idle;
    /** Whether its robots.txt was fetched and its first page not yet handed out. */
    boolean awaitingFirstPage;
    /** Politeness per IP: whether it waits for its address to be looked up ({@code HostScheduler.resolveAddresses}). */
    boolean resolving;

    Host(String key, HostRobots robots) {
        this.key = key;
        this.robots = robots;
    }
}
