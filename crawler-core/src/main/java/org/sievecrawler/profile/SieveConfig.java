package org.sievecrawler.profile;

import java.util.Optional;
import org.sievecrawler.sieve.OverflowPolicy;
import org.sievecrawler.sieve.FilterPlan;
import org.sievecrawler.sieve.SieveLayout;
import org.sievecrawler.sieve.SievePlan;

/**
 * The Sieve's sizing.
 *
 * @param expectedUrls n, the distinct URLs the crawl is expected to discover
 * @param falsePositiveRate p at n: the share of new URLs wrongly dropped as seen
 * @param onOverflow what happens past n
 * @param maxInMemoryUrls pending URLs held in memory at most; the rest spill to segment files in the output folder
 * @param layout the filter's layout, classic or blocked, each sized by its own plan for n at p
 */
public record SieveConfig(long expectedUrls, double falsePositiveRate, OverflowPolicy onOverflow,
        int maxInMemoryUrls, SieveLayout layout) {
    public static final int DEFAULT_MAX_IN_MEMORY_URLS = 100_000;
    /** A pending URL held in memory, roughly: the string, its record and the queue's slot. */
    static final int BYTES_PER_PENDING_URL = 100;
    /** Heap for all but the Sieve: buffers, parsers, connections, the JVM's own. */
    static final int HEAP_HEADROOM_MB = 64;

    public SieveConfig {
        ProfileKeys.SIEVE_EXPECTED_URLS.require(expectedUrls);
        ProfileKeys.SIEVE_FALSE_POSITIVE_RATE.require(falsePositiveRate);
        ProfileKeys.SIEVE_ON_OVERFLOW.require(onOverflow);
        ProfileKeys.SIEVE_MAX_IN_MEMORY_URLS.require(maxInMemoryUrls);
        ProfileKeys.SIEVE_LAYOUT.require(layout);
        layout.plan(expectedUrls, falsePositiveRate); // the filter must fit in memory
    }

    /** A Sieve of the classic layout. */
    public SieveConfig(long expectedUrls, double falsePositiveRate, OverflowPolicy onOverflow, int maxInMemoryUrls) {
        this(expectedUrls, falsePositiveRate, onOverflow, maxInMemoryUrls, SieveLayout.CLASSIC);
    }

    /** The plan of the first filter layer: the layout's sizing for n at p. */
    public FilterPlan plan() {
        return layout.plan(expectedUrls, falsePositiveRate);
    }

    public static SieveConfig defaults() {
        return CrawlProfile.defaults().sieve();
    }

    /**
     * Why this Sieve cannot fit a heap of {@code maxHeap} bytes, or empty if it fits: its Bloom filter twice (a
     * checkpoint copies it while the crawl goes on), {@code sieve.max-in-memory-urls} pending URLs at
     * {@value #BYTES_PER_PENDING_URL} bytes each, and {@value #HEAP_HEADROOM_MB} MB for the rest of the crawl
     * (buffers, parsers, connections). A filter grown past its first layer ({@code on-overflow: grow}) is not
     * foreseen. {@code maxHeap} is {@link Runtime#maxMemory()}; Long.MAX_VALUE when the JVM sets no limit.
     */
    public Optional<String> heapShortfall(long maxHeap) {
        long filter = plan().bytes();
        long needed = 2 * filter + (long) maxInMemoryUrls * BYTES_PER_PENDING_URL + HEAP_HEADROOM_MB * 1_000_000L;
        if (maxHeap == Long.MAX_VALUE || needed <= maxHeap) {
            return Optional.empty();
        }
        long gibibytes = (needed + (1L << 30) - 1) >> 30;
        return Optional.of(ProfileKeys.SIEVE_EXPECTED_URLS.name() + " " + expectedUrls + " at "
                + ProfileKeys.SIEVE_FALSE_POSITIVE_RATE.name() + " " + falsePositiveRate + " needs a "
                + SievePlan.humanBytes(filter) + " Bloom filter, twice while a checkpoint copies it: with "
                + maxInMemoryUrls + " pending URLs in memory (" + ProfileKeys.SIEVE_MAX_IN_MEMORY_URLS.name()
                + ") and room for the rest, " + SievePlan.humanBytes(needed) + " of heap; this JVM's heap is at most "
                + SievePlan.humanBytes(maxHeap) + " (Runtime.maxMemory): raise it with JAVA_OPTS=-Xmx" + gibibytes
                + "g, or lower " + ProfileKeys.SIEVE_EXPECTED_URLS.name());
    }
}
