package org.sievecrawler.sieve;

/**
 * Where the {@link Sieve} keeps the URLs it admitted until a fetcher takes them: a plain FIFO
 * ({@link #fifo()}), or a scheduler that hands out only URLs whose host may be fetched now (the crawl's
 * per-host politeness). Implementations are safe for many adding and polling threads.
 */
public interface PendingQueue {

    /** Adds a URL the Sieve admitted. */
    void add(PendingUrl url);

    /**
     * Adds a URL unless this queue holds enough like it already (a politeness scheduler: its host's share of the
     * memory); false: the caller keeps it (the spill, at its end, to offer again later). Adds it by default.
     */
    default boolean offer(PendingUrl url) {
        add(url);
        return true;
    }

    /** The next URL that may be fetched now, or null if none may (now). Never blocks. */
    PendingUrl poll();

    /** URLs held, whether ready or not. */
    int size();

    /** A first-in, first-out queue with no notion of hosts or time. */
    static PendingQueue fifo() {
        return new FifoQueue();
    }
}
