package org.sievecrawler.profile;

import org.sievecrawler.sieve.OverflowPolicy;
import org.sievecrawler.sieve.SievePlan;

/**
 * The Sieve's sizing.
 *
 * @param expectedUrls n, the distinct URLs the crawl is expected to discover
 * @param falsePositiveRate p at n: the share of new URLs wrongly dropped as seen
 * @param onOverflow what happens past n
 */
public record SieveConfig(long expectedUrls, double falsePositiveRate, OverflowPolicy onOverflow) {
    public SieveConfig {
        SievePlan.of(expectedUrls, falsePositiveRate); // validates both, naming them
    }

    public static SieveConfig defaults() {
        return new SieveConfig(10_000_000L, 0.01, OverflowPolicy.WARN);
    }
}
