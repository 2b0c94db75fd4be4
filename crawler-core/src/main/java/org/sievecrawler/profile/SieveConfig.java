package org.sievecrawler.profile;

import org.sievecrawler.sieve.OverflowPolicy;
import org.sievecrawler.sieve.SievePlan;

/**
 * The Sieve's sizing.
 *
 * @param expectedUrls n, the distinct URLs the crawl is expected to discover
 * @param falsePositiveRate p at n: the share of new URLs wrongly dropped as seen
 * @param onOverflow what happens past n
 * @param maxInMemoryUrls pending URLs held in memory at most; the rest spill to segment files in the output folder
 */
public record SieveConfig(long expectedUrls, double falsePositiveRate, OverflowPolicy onOverflow,
        int maxInMemoryUrls) {
    public static final int DEFAULT_MAX_IN_MEMORY_URLS = 100_000;

    public SieveConfig {
        ProfileKeys.SIEVE_EXPECTED_URLS.require(expectedUrls);
        ProfileKeys.SIEVE_FALSE_POSITIVE_RATE.require(falsePositiveRate);
        ProfileKeys.SIEVE_ON_OVERFLOW.require(onOverflow);
        ProfileKeys.SIEVE_MAX_IN_MEMORY_URLS.require(maxInMemoryUrls);
        SievePlan.of(expectedUrls, falsePositiveRate); // the filter must fit in memory
    }

    /** The sizing with the default in-memory limit. */
    public SieveConfig(long expectedUrls, double falsePositiveRate, OverflowPolicy onOverflow) {
        this(expectedUrls, falsePositiveRate, onOverflow, DEFAULT_MAX_IN_MEMORY_URLS);
    }

    public static SieveConfig defaults() {
        return CrawlProfile.defaults().sieve();
    }

    public SieveConfig withMaxInMemoryUrls(int value) {
        return new SieveConfig(expectedUrls, falsePositiveRate, onOverflow, value);
    }
}
