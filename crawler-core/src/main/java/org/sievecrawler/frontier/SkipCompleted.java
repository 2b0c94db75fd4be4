package org.sievecrawler.frontier;

import org.sievecrawler.politeness.HostScheduler;
import org.sievecrawler.sieve.PendingQueue;
import org.sievecrawler.sieve.PendingUrl;

/**
 * The host queues of a frontier that starts from a state with URLs completed after it: such a URL is dropped when it
 * would enter them (it was leased at the snapshot, waited in memory or in the spill, or was admitted again since).
 *
 * <p>Called under the spill's lock; {@link CompletedUrls} is thread-safe.
 */
final class SkipCompleted implements PendingQueue {
    private final HostScheduler hosts;
    private final CompletedUrls completed;

    SkipCompleted(HostScheduler hosts, CompletedUrls completed) {
        this.hosts = hosts;
        this.completed = completed;
    }

    @Override
    public void add(PendingUrl url) {
        if (!completed.isEmpty() && completed.remove(url.url())) {
            return;
        }
        hosts.add(url);
    }

    @Override
    public boolean offer(PendingUrl url) {
        if (!completed.isEmpty() && completed.remove(url.url())) {
            return true;
        }
        return hosts.offer(url);
    }

    @Override
    public PendingUrl poll() {
        return hosts.poll();
    }

    @Override
    public int size() {
        return hosts.size();
    }
}
