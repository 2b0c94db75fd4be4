package org.sievecrawler.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;
import org.sievecrawler.frontier.Lease;
import org.sievecrawler.frontier.LeaseSource;
import org.sievecrawler.frontier.PageLease;
import org.sievecrawler.frontier.RobotsLease;

/**
 * The lease loop of a fetcher thread: it takes each lease the {@link LeaseSource} hands it and runs its steps, a
 * page's ({@link PageSteps}) or a host's robots.txt ({@link RobotsSteps}), until the source is exhausted or the
 * crawl is stopping; {@code limits.max-pages} is counted here, as pages taken.
 *
 * <p>The end of a crawl: a fetcher stops taking leases once {@code stopping} says so, or once the frontier is
 * exhausted, and finishes the one it holds. Requests still running when the crawl has waited long enough are
 * cancelled ({@link #cancelInFlight()}); a cancelled request is no failure of the server's: its lease is put back,
 * unrecorded, and the final checkpoint holds it for the resume. Threads are never interrupted: an interrupt reaches
 * a request only between two reads, and closes pages.jsonl's channel if it comes while a record is written. What a
 * parse thread met that ends the crawl (a failure of the output, an Error) is passed on by the next fetcher that
 * looks for a lease.
 *
 * <p>Thread-safe: one instance serves every fetcher thread ({@link FetcherThreads}).
 */
public final class FetchWorker {
    private static final Duration IDLE_WAIT = Duration.ofMillis(200);

    private final LeaseSource frontier;
    private final PageSteps pages;
    private final RobotsSteps robots;
    private final long maxPages;
    private final LongPredicate limitReached;
    private final AtomicLong pagesTaken;

    /**
     * @param frontier where leases are taken from
     * @param pages the steps of a page lease
     * @param robots the steps of a robots.txt lease
     * @param maxPages {@code limits.max-pages}, 0 for none
     * @param decidedBefore the URLs a resumed crawl decided before: its max-pages counts what it did before
     * @param limitReached told {@code limits.max-pages} when a fetcher stops taking leases for it
     */
    public FetchWorker(LeaseSource frontier, PageSteps pages, RobotsSteps robots, long maxPages, long decidedBefore,
            LongPredicate limitReached) {
        this.frontier = frontier;
        this.pages = pages;
        this.robots = robots;
        this.maxPages = maxPages;
        this.limitReached = limitReached;
        this.pagesTaken = new AtomicLong(decidedBefore);
    }

    /**
     * Takes and handles leases until the frontier is exhausted or {@code stopping} says so.
     *
     * @throws UncheckedIOException when writing the output failed (here or on a parse thread)
     * @throws Error an Error a parse thread met (such as OutOfMemoryError), passed on to end the crawl
     */
    void runUntilDone(BooleanSupplier stopping) {
        while (!stopping.getAsBoolean()) {
            pages.throwParseFailure();
            Lease lease;
            try {
                lease = frontier.next(IDLE_WAIT); // waits while fetch.threads leases are open
                if (lease == null) {
                    if (frontier.exhausted()) {
                        frontier.wakeAll(); // let the other fetchers see it too
                        return;
                    }
                    frontier.awaitWork(IDLE_WAIT);
                    continue;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                if (lease instanceof RobotsLease robotsLease) {
                    robots.take(robotsLease);
                } else if (takePage((PageLease) lease)) {
                    pages.take((PageLease) lease);
                } else {
                    ((PageLease) lease).putBack();
                    return;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * Whether {@code limits.max-pages} lets the crawl start {@code lease}: the limit counts pages taken (a retry is
     * the same page again, not counted twice), so at most that many are started and at most that many recorded
     * (but for the out-of-scope targets of redirects, recorded without a lease). The page that reaches the limit is
     * taken and ends the crawl: the frontier hands out no more first attempts than the limit
     * ({@code HostScheduler.limitPages}), so by then every page it handed out has been counted, whatever the order
     * the fetcher threads count them in; one past it (a frontier not told the limit) is refused and put back.
     */
    private boolean takePage(PageLease lease) {
        if (maxPages == 0 || lease.task().attempt() > 0) {
            return true;
        }
        long taken = pagesTaken.incrementAndGet();
        if (taken >= maxPages) {
            limitReached.test(maxPages);
        }
        return taken <= maxPages;
    }

    /**
     * Waits for the pages handed to the parse threads, then stops them: every thread the fetchers started ends with
     * them.
     *
     * @throws IOException if writing a parsed page's record failed
     */
    public void finishParsing() throws IOException {
        pages.finishParsing();
    }

    /**
     * Cancels the requests in flight and any made from now on; their leases are put back unrecorded. For a crawl
     * that is ending and has waited for them long enough.
     */
    void cancelInFlight() {
        pages.cancelInFlight();
    }
}
