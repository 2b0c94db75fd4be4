package org.sievecrawler.politeness;

import java.util.function.LongSupplier;

/**
 * Which ticket heaps the crawl's page limit and its end time leave open ({@link Tickets.Open}), so that no robots.txt
 * is fetched for a host the crawl will not ask a page of.
 *
 * <p>The rule: a host holds one page of the limit from the moment its robots.txt is handed out until its first page
 * is (its robots.txt in flight, then the host awaiting its first page, or its robots.txt again after a 5xx or a failed
 * attempt, in {@link Tickets}' first-page heap, which is always open). robots.txt, and pages other than those, are
 * handed out only while the pages started and the pages held are below the limit, so their sum never exceeds it and
 * the pages held are left for the hosts that hold them; robots.txt also not from one politeness delay before the end
 * (its host's first page could not follow in time). No first attempt is handed out past the limit: the crawl ends
 * when its fetchers have taken as many pages as the limit ({@code FetchWorker}), so every host holding a page has
 * been handed it by then, in whatever order the fetcher threads count their pages. (A page let out past the limit to
 * end the crawl, the fetcher that counts it refusing it, could be a held host's first page, counted after it by a
 * slower thread and put back: its robots.txt fetched, no page.) A retry is the same page again and is not counted.
 * Unlimited and endless by default: everything open.
 *
 * <p>Not thread-safe: {@link HostScheduler} calls it under its lock.
 */
final class LimitGate {
    /** First attempts of pages it may let start ({@code limits.max-pages} less the pages decided before). */
    private long pageLimit = Long.MAX_VALUE;
    /** First attempts of pages handed out (a page put back is not counted: it is handed out again). */
    private long pagesStarted;
    /** No robots.txt handed out from this time on (epoch ms). */
    private long robotsUntil = Long.MAX_VALUE;

    void limitPages(long pages) {
        pageLimit = pages;
    }

    void robotsUntil(long epochMillis) {
        robotsUntil = epochMillis;
    }

    /** A page's first attempt was handed out. */
    void started() {
        pagesStarted++;
    }

    /** A page's first attempt was put back, to be handed out again. */
    void unstarted() {
        pagesStarted--;
    }

    /**
     * The heaps open while {@code held} pages are held (robots.txt in flight, hosts awaiting); {@code now} (epoch ms)
     * is asked only when an end is set.
     */
    Tickets.Open open(long held, LongSupplier now) {
        boolean robotsInTime = robotsUntil == Long.MAX_VALUE || now.getAsLong() < robotsUntil;
        if (pageLimit == Long.MAX_VALUE) {
            return robotsInTime ? Tickets.Open.ALL : Tickets.Open.PAGES;
        }
        boolean below = pagesStarted + held < pageLimit;
        return new Tickets.Open(below && robotsInTime, below);
    }
}
