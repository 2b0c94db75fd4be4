package org.sievecrawler.frontier;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.sievecrawler.sieve.PendingUrl;

/**
 * The leases a frontier has handed out and not yet closed: how many are open, the page leases among them (a
 * snapshot holds their URLs, to fetch again on resume), the permits that cap them (the frontier's own, or a cap
 * shared with other frontiers of one process) and whether it drains (hands out no new lease while those open are
 * closed).
 *
 * <p>Thread-safe: fetcher and parse threads open and close leases; a permit is taken before a lease is made and given
 * back when it is closed, or at once if none was made.
 */
final class OpenLeases {
    private final Semaphore permits;
    private final Runnable noneOpen;
    private final AtomicInteger open = new AtomicInteger();
    private final Set<PageLease> pages = ConcurrentHashMap.newKeySet();
    private volatile boolean draining;

    /** Leases capped by {@code permits}; {@code noneOpen} runs whenever the last open one is closed. */
    OpenLeases(Semaphore permits, Runnable noneOpen) {
        this.permits = permits;
        this.noneOpen = noneOpen;
    }

    /** Waits up to {@code maxWait} for a permit; returns whether one was taken. */
    boolean reserve(Duration maxWait) throws InterruptedException {
        return permits.tryAcquire(maxWait.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Gives back a permit {@link #reserve} took for a lease that was not made. */
    void unreserve() {
        permits.release();
    }

    /** A lease was made with a reserved permit; {@code page} is it if it is a page lease, else null. */
    void opened(PageLease page) {
        open.incrementAndGet();
        if (page != null) {
            pages.add(page);
        }
    }

    /** {@code page} no longer waits in flight (closed, or done and waiting for its links elsewhere). */
    void pageLeft(PageLease page) {
        pages.remove(page);
    }

    /** A lease's end: its permit is free, and when none is open any more the frontier hears it. */
    void closed() {
        open.decrementAndGet();
        permits.release();
        if (open.get() == 0) {
            noneOpen.run();
        }
    }

    /** Hands out no new lease from now on; those open are closed as usual. */
    void drain() {
        draining = true;
    }

    boolean draining() {
        return draining;
    }

    /** Leases open. */
    int open() {
        return open.get();
    }

    /** Page leases in flight. */
    int pages() {
        return pages.size();
    }

    /** The URLs of the page leases in flight, for a snapshot ({@code room} more to come after them). */
    List<PendingUrl> pageUrls(int room) {
        List<PendingUrl> urls = new ArrayList<>(pages.size() + room);
        pages.forEach(lease -> urls.add(lease.task()));
        return urls;
    }
}
