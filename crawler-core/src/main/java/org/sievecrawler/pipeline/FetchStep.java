package org.sievecrawler.pipeline;

import java.util.concurrent.Semaphore;
import org.sievecrawler.fetch.FailureKind;
import org.sievecrawler.fetch.FetchResult;
import org.sievecrawler.fetch.HttpFetcher;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sitemap.SitemapReader;

/**
 * The fetch step of a page lease: one attempt ({@link HttpFetcher}); a sitemap's body is read up to
 * {@code scope.max-sitemap-bytes} whatever its Content-Type. So that sitemaps of that size cannot fill the heap,
 * only so many are fetched and read at once ({@link #sitemapsAtOnce}: one per 8 times
 * {@code scope.max-sitemap-bytes} of heap, at least one); a fetcher with another sitemap waits for a slot, holding
 * its lease, and keeps it until the sitemap's URLs are admitted ({@link Fetched#close()}): its body is garbage then.
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

    private final HttpFetcher fetcher;
    private final long maxSitemapBytes;
    /** Sitemaps being fetched and read now, at most {@link #sitemapsAtOnce}; the others wait for a slot. */
    private final Semaphore sitemapSlots;

    /** What one fetch gave; closing it frees the sitemap slot it held, if it held one. */
    record Fetched(FetchResult result, Semaphore slot) implements AutoCloseable {
        @Override
        public void close() {
            if (slot != null) {
                slot.release();
            }
        }
    }

    FetchStep(HttpFetcher fetcher, long maxSitemapBytes) {
        this.fetcher = fetcher;
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
            return new Fetched(fetcher.fetch(task.url()), null);
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
     * Cancels the requests in flight and any made from now on (see {@link HttpFetcher#cancelCalls()}); they end as
     * {@link FailureKind#CANCELLED} failures.
     */
    void cancelInFlight() {
        fetcher.cancelCalls();
    }
}
