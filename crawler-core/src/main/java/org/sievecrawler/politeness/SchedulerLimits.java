package org.sievecrawler.politeness;

/**
 * What a {@link HostScheduler} holds and hands out at once beyond the politeness rules, so that a crawl of many hosts
 * keeps its fetchers on pages: how much of the memory one host may take, and how many fetchers robots.txt may keep.
 *
 * @param maxQueuedPerHost URLs of one host held in memory at most: {@link HostScheduler#offer} refuses more, which
 *     then wait in the spill, so that a few big hosts cannot fill the memory while other hosts' URLs wait on disk
 * @param maxRobotsInFlight robots.txt requests handed out at once at most while a page of another host is ready (with
 *     none ready, robots.txt may take every fetcher): new hosts by the thousand do not stop the pages of known ones
 * @param maxAwaitingFirstPage hosts whose robots.txt was fetched and whose first page was not yet handed out, at most,
 *     before another robots.txt is handed out while a page is ready: robots.txt keeps pace with the pages it lets
 *     through (without it, robots.txt ran ahead of a backlog of ready pages, and a crawl stopped by max-pages had
 *     fetched robots.txt of thousands of hosts it never asked a page of)
 */
public record SchedulerLimits(int maxQueuedPerHost, int maxRobotsInFlight, int maxAwaitingFirstPage) {
    /** No limit: a host may take all the memory, robots.txt every fetcher. */
    public static final SchedulerLimits NONE =
            new SchedulerLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);
    /** The least share of the memory a host gets, whatever the memory and the threads. */
    static final int MIN_QUEUED_PER_HOST = 16;
    /** Hosts per fetcher that may have their robots.txt and wait for their first page. */
    static final int AHEAD_PER_THREAD = 4;

    public SchedulerLimits {
        if (maxQueuedPerHost < 1) {
            throw new IllegalArgumentException("maxQueuedPerHost must be >= 1, was " + maxQueuedPerHost);
        }
        if (maxRobotsInFlight < 1) {
            throw new IllegalArgumentException("maxRobotsInFlight must be >= 1, was " + maxRobotsInFlight);
        }
        if (maxAwaitingFirstPage < 1) {
            throw new IllegalArgumentException("maxAwaitingFirstPage must be >= 1, was " + maxAwaitingFirstPage);
        }
    }

    /**
     * The limits of a crawl that holds {@code maxInMemoryUrls} pending URLs in memory ({@code sieve.max-in-memory-urls})
     * for {@code threads} fetchers ({@code fetch.threads}): a host holds at most 1/16 of the memory per thread
     * (at least {@value #MIN_QUEUED_PER_HOST} URLs), so a full memory holds the URLs of 16 hosts per fetcher or more
     * (100,000 URLs and 16 threads: 390 per host; 256 threads: 24, so 4,096 hosts or more); robots.txt takes at most
     * half the fetchers (at least one) while pages are ready, and no new one while {@value #AHEAD_PER_THREAD} hosts
     * per fetcher have their robots.txt and wait for their first page (which comes about a delay later, before
     * other ready pages: up to 4 x threads new hosts per delay, 1,024 a second at 256 threads and 1 s).
     */
    public static SchedulerLimits of(int maxInMemoryUrls, int threads) {
        int perHost = (int) Math.max(MIN_QUEUED_PER_HOST, maxInMemoryUrls / (16L * Math.max(1, threads)));
        return new SchedulerLimits(perHost, Math.max(1, threads / 2), Math.max(1, AHEAD_PER_THREAD * threads));
    }
}
