package org.sievecrawler.politeness;

import java.util.function.LongSupplier;

/**
 * Which ticket heaps the crawl's page limit and its end time leave open ({@link Tickets.Open}), so that no robots.txt
 * is fetched for a host the crawl will not ask a page of. A robots.txt task in flight, and a host whose robots.txt
 * was fetched until its first page is handed out, each hold one page of the limit. robots.txt is handed out only
 * while the pages started and the pages held are below the limit, and not from one politeness delay before the end
 * (its host's first page could not follow in time); other pages (not a host's first after its robots.txt) while
 * nothing is held or the same sum is below the limit, so the pages held are left for the hosts that hold them. A
 * retry is the same page again and is not counted. Unlimited and endless by default: everything open.
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
        return new Tickets.Open(below && robotsInTime, below || held == 0);
    }
}
