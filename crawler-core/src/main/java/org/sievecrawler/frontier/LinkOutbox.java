package org.sievecrawler.frontier;

import java.util.List;
import org.sievecrawler.sieve.PendingUrl;

/**
 * Where the links of a page completed in a cluster partition's {@link Frontier} go: not into its own Sieve but to
 * the crawl's log, from which the owner of each link's host admits it (the owner of this page's host too, so the log
 * stays the one source of a partition's admissions). The page counts as done, and its lease as closed, only once
 * its links are durable and its done marker written after them: {@code durable} says so.
 *
 * <p>Implementations are thread-safe and do not block on the cluster in {@link #send}: it is called by parse and
 * fetcher threads under the frontier's shared lock.
 */
@FunctionalInterface
public interface LinkOutbox {
    /**
     * Sends {@code links}, found on {@code page}, then marks {@code page} done once they are acknowledged, and then
     * runs {@code durable} (on any thread). If a send fails, {@code durable} is never run: the page stays in
     * flight, and the outbox reports the failure its own way (the process then stops: a new owner fetches the page
     * again, so nothing is lost).
     */
    void send(PendingUrl page, List<PendingUrl> links, Runnable durable);
}
