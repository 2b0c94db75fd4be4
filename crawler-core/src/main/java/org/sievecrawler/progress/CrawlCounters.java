package org.sievecrawler.progress;

import java.util.Map;

/**
 * The values of a {@link CrawlStats} at one moment, as a checkpoint saves them.
 *
 * @param decided records written
 * @param fetched responses received
 * @param bytes body bytes read
 * @param outcomes records by outcome label
 * @param statuses responses by HTTP status
 * @param linkRejections links not offered to the Sieve (or not queued: over-host-budget), by reason label
 * @param failedAttempts requests that got no usable answer, each attempt counted (see {@link CrawlStats#failedAttempt})
 * @param retries attempts the crawl made again later, after a backoff (see {@link CrawlStats#retried})
 */
public record CrawlCounters(long decided, long fetched, long bytes, Map<String, Long> outcomes,
        Map<Integer, Long> statuses, Map<String, Long> linkRejections, long failedAttempts, long retries) {
    public CrawlCounters {
        outcomes = Map.copyOf(outcomes);
        statuses = Map.copyOf(statuses);
        linkRejections = Map.copyOf(linkRejections);
    }
}
