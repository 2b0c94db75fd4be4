package org.sievecrawler.pipeline;

import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import org.sievecrawler.fetch.FailureKind;
import org.sievecrawler.fetch.FetchResult;
import org.sievecrawler.fetch.HttpFetcher;
import org.sievecrawler.history.EarlierCrawl;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sink.PageRecord;
import org.sievecrawler.sitemap.SitemapReader;
import org.sievecrawler.warc.Recapture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetch step of a page lease: one attempt ({@link HttpFetcher}); a sitemap's body is read up to
 * {@code scope.max-sitemap-bytes} whatever its Content-Type. So that sitemaps of that size cannot fill the heap,
 * only so many are fetched and read at once ({@link #sitemapsAtOnce}: one per 8 times
 * {@code scope.max-sitemap-bytes} of heap, at least one); a fetcher with another sitemap waits for a slot, holding
 * its lease, and keeps it until the sitemap's URLs are admitted ({@link Fetched#close()}): its body is garbage then.
 *
 * <p>In a recrawl ({@code crawl --since}), a page the earlier crawl recorded is asked for with its validators
 * ({@link EarlierCrawl#validators}), and the result carries that record.
 *
 * <p>Thread-safe: one instance serves every fetcher thread, each blocked on its own request.
 *
 * <p>Out of scope: what the result leads to (the next steps, {@link PageSteps}).
 */
final class FetchStep {
    /**
     * The share of the heap sitemaps may take while fetched and read, as a divisor: a sitemap costs up to about twice
     * its bytes at once (its body, and the copy made when the body is read in; its URLs are bounded by
     * {@link SitemapReader#MAX_URLS}), so {@code heap / (8 * scope.max-sitemap-bytes)} of them at once, at least one,
     * take at most a quarter of the heap: one at once under {@code -Xmx256m} at 50 MB, ten under {@code -Xmx4g}.
     */
    private static final int SITEMAP_HEAP_SHARE = 8;

    private static final Logger LOG = LoggerFactory.getLogger(FetchStep.class);
    private final HttpFetcher fetcher;
    private final long maxSitemapBytes;
    /** The earlier crawl of a recrawl ({@code crawl --since}), or null. */
    private final EarlierCrawl earlierCrawl;
    /** Whether a failure to read the earlier crawl's records was logged (once: the next are alike). */
    private final AtomicBoolean historyFailureLogged = new AtomicBoolean();
    /** Sitemaps being fetched and read now, at most {@link #sitemapsAtOnce}; the others wait for a slot. */
    private final Semaphore sitemapSlots;

    /**
     * What one fetch gave, and in a recrawl the earlier crawl's record of the page ({@code earlier}, null for none);
     * closing it frees the sitemap slot it held, if it held one.
     */
    record Fetched(FetchResult result, Semaphore slot, PageRecord earlier) implements AutoCloseable {
        Fetched(FetchResult result, Semaphore slot) {
            this(result, slot, null);
        }

        /** Whether this is a recrawl's page the server answered 304 Not Modified. */
        boolean notModified() {
            return earlier != null && result instanceof FetchResult.Page page && page.status() == 304;
        }

        @Override
        public void close() {
            if (slot != null) {
                slot.release();
            }
        }
    }

    FetchStep(HttpFetcher fetcher, long maxSitemapBytes, EarlierCrawl earlierCrawl) {
        this.fetcher = fetcher;
        this.earlierCrawl = earlierCrawl;
        this.maxSitemapBytes = maxSitemapBytes;
        this.sitemapSlots = new Semaphore(sitemapsAtOnce(Runtime.getRuntime().maxMemory(), maxSitemapBytes));
    }

    /**
     * How many sitemaps are fetched and read at once in a heap of {@code maxHeap} bytes (see
     * {@link #SITEMAP_HEAP_SHARE}).
     */
    static int sitemapsAtOnce(long maxHeap, long maxSitemapBytes) {
        return (int) Math.max(1, Math.min(1024, maxHeap / SITEMAP_HEAP_SHARE / maxSitemapBytes));
    }

    /**
     * Fetches {@code task}, a sitemap in a slot of its own. A fetcher interrupted while it waits for a slot gets a
     * {@link FailureKind#CANCELLED} failure (its flag restored): like a request the crawl cancelled, it is put back.
     */
    Fetched take(PendingUrl task) {
        if (task.isCheck()) {
            return new Fetched(fetcher.check(task.url()), null);
        }
        if (!task.isSitemap()) {
            PageRecord earlier = earlier(task.url());
            return earlier == null ? new Fetched(fetcher.fetch(task.url()), null)
                    : new Fetched(fetcher.fetch(task.url(), EarlierCrawl.validators(earlier)), null, earlier);
        }
        try {
            sitemapSlots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Fetched(new FetchResult.Failure(FailureKind.CANCELLED, 0,
                    task.url() + ": interrupted while waiting to fetch a sitemap", null, 0), null);
        }
        try {
            return new Fetched(fetcher.fetch(task.url(), maxSitemapBytes), sitemapSlots);
        } catch (RuntimeException | Error e) {
            sitemapSlots.release();
            throw e;
        }
    }

    /**
     * The earlier crawl's record of {@code url} in a recrawl, else null. A history that cannot be read makes the
     * request unconditional (logged once): the page is fetched whole, nothing is lost.
     */
    private PageRecord earlier(String url) {
        if (earlierCrawl == null) {
            return null;
        }
        try {
            return earlierCrawl.lookup(url).orElse(null);
        } catch (IOException e) {
            if (historyFailureLogged.compareAndSet(false, true)) {
                LOG.warn("the earlier crawl's records cannot be read ({}): pages are fetched whole, without a"
                        + " conditional request", e.getMessage());
            }
            return null;
        }
    }

    /** Where the earlier crawl archived {@code fetched}'s page, for its revisit record; null when no recrawl's. */
    Recapture recapture(Fetched fetched) {
        return fetched.earlier() == null ? null : earlierCrawl.recapture(fetched.earlier(), fetched.notModified());
    }

    /**
     * Cancels the requests in flight and any made from now on (see {@link HttpFetcher#cancelCalls()}); they end as
     * {@link FailureKind#CANCELLED} failures.
     */
    void cancelInFlight() {
        fetcher.cancelCalls();
    }
}
