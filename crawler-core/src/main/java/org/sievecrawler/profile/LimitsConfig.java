package org.sievecrawler.profile;

import java.time.Duration;

/**
 * When the crawl stops and how much of a page it reads.
 *
 * @param maxPages pages fetched at most (every URL taken from the Sieve and decided counts); 0 for no limit
 * @param maxDuration wall-clock time at most; {@link Duration#ZERO} for no limit
 * @param maxPageBytes body bytes read per page, after decompression; the rest is cut and the page marked truncated
 * @param maxPagesPerHost URLs of one host admitted at most; the host's further new URLs are counted, not queued
 *     nor recorded; 0 for no limit
 */
public record LimitsConfig(long maxPages, Duration maxDuration, long maxPageBytes, long maxPagesPerHost) {
    public LimitsConfig {
        ProfileKeys.LIMITS_MAX_PAGES.require(maxPages);
        ProfileKeys.LIMITS_MAX_DURATION.require(maxDuration);
        ProfileKeys.LIMITS_MAX_PAGE_BYTES.require(maxPageBytes);
        ProfileKeys.LIMITS_MAX_PAGES_PER_HOST.require(maxPagesPerHost);
    }

    public static LimitsConfig defaults() {
        return CrawlProfile.defaults().limits();
    }
}
