package org.sievecrawler.frontier;

import java.util.function.Consumer;
import org.sievecrawler.politeness.HostBudget;
import org.sievecrawler.sieve.PendingQueue;
import org.sievecrawler.sieve.PendingUrl;

/**
 * The pending queue right behind the Sieve that spends each host's {@code limits.max-pages-per-host} as its URLs
 * are admitted: a URL new to the Sieve whose host has had its share is handed to {@code overBudget} (the crawl's
 * {@code over-host-budget} count) and not queued, so it gets no record of its own and never counts toward
 * {@code limits.max-pages}. It stays in the Sieve's filter: found again, it is dropped as seen, not counted again.
 * Seeds, links, redirect targets and a sitemap's URLs spend the share alike; sitemaps themselves and robots.txt do
 * not (sitemaps have a budget of their own, spent when one is about to be requested).
 *
 * <p>Thread-safe as its parts are: the budget is lock-free, {@code next} and {@code overBudget} are the caller's.
 */
final class AdmissionBudget implements PendingQueue {
    private final PendingQueue next;
    private final HostBudget budget;
    private final Consumer<PendingUrl> overBudget;

    AdmissionBudget(PendingQueue next, HostBudget budget, Consumer<PendingUrl> overBudget) {
        this.next = next;
        this.budget = budget;
        this.overBudget = overBudget;
    }

    @Override
    public void add(PendingUrl url) {
        if (url.isSitemap() || url.isRobots() || budget.take(url.url()).isEmpty()) {
            next.add(url);
        } else {
            overBudget.accept(url);
        }
    }

    @Override
    public PendingUrl poll() {
        return next.poll();
    }

    @Override
    public int size() {
        return next.size();
    }
}
