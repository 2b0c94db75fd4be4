package org.sievecrawler.frontier;

import java.util.List;
import org.sievecrawler.sieve.PendingUrl;

/**
 * Where the links of a page completed in a frontier fed from outside (one of a frontier group) go: not into its own
 * Sieve but to the log that feeds the frontiers, from which whoever owns each link's host admits it (this page's
 * frontier too, so the log stays the one source of its admissions). The page counts as done, and its lease as
 * closed, only once its links are durable (and whatever the outbox writes after them): {@code durable} says so.
 *
 * <p>Implementations are thread-safe and do not block in {@link #send}: it is called by parse and fetcher threads
 * under the frontier's shared lock.
 */
@FunctionalInterface
public interface LinkOutbox {
    /**
     * Sends {@code links}, found on {@code page}, then marks {@code page} done once they are acknowledged, and then
     * runs {@code durable} (on any thread). If a send fails, {@code durable} is never run: the page stays in
     * flight, and the outbox reports the failure its own way (its owner then stops: whoever takes the frontier over
     * fetches the page again, so nothing is lost).
     */
    void send(PendingUrl page, List<PendingUrl> links, Runnable durable);
}
