package org.sievecrawler.frontier;

import java.time.Duration;

/**
 * What fetcher threads take URLs from: one {@link Frontier}, or several run side by side (a frontier group).
 * Thread-safe.
 */
public interface LeaseSource {
    /**
     * The next URL some host may be fetched for now, leased to the caller, or null when none may be now; waits up
     * to {@code maxWait} while the most leases are open. See {@link Frontier#next(Duration)}.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    Lease next(Duration maxWait) throws InterruptedException;

    /** Whether no lease will ever come again: the crawl is out of work (perhaps never, when fed from outside). */
    boolean exhausted();

    /**
     * Waits until some host may be ready, work is added or released, or {@code maxWait} passes.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    void awaitWork(Duration maxWait) throws InterruptedException;

    /** Wakes every thread in {@link #awaitWork}, e.g. to stop. */
    void wakeAll();

    /** Requests in flight: leases handed out whose request has not ended. */
    int requestsInFlight();
}
