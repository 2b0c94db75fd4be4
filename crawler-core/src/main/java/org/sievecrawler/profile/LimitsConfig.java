package org.sievecrawler.profile;

import java.time.Duration;

/**
 * When the crawl stops and how much of a page it reads.
 *
 * @param maxPages pages fetched at most (every URL taken from the Sieve and decided counts); 0 for no limit
 * @param maxDuration wall-clock time at most; {@link Duration#ZERO} for no limit
 * @param maxPageBytes body bytes read per page, after decompression; the rest is cut and the page marked truncated
 */
public record LimitsConfig(long maxPages, Duration maxDuration, long maxPageBytes) {
    public LimitsConfig {
        if (maxPages < 0) {
            throw new IllegalArgumentException("limits.max-pages must be >= 0 (0 = no limit), was " + maxPages);
        }
        if (maxDuration.isNegative()) {
            throw new IllegalArgumentException("limits.max-duration must be >= 0 (0 = no limit), was " + maxDuration);
        }
        if (maxPageBytes < 1) {
            throw new IllegalArgumentException("limits.max-page-bytes must be >= 1, was " + maxPageBytes);
        }
    }

    public static LimitsConfig defaults() {
        return new LimitsConfig(0, Duration.ZERO, 10L * 1024 * 1024);
    }

    public LimitsConfig withMaxPages(long pages) {
        return new LimitsConfig(pages, maxDuration, maxPageBytes);
    }

    public LimitsConfig withMaxPageBytes(long bytes) {
        return new LimitsConfig(maxPages, maxDuration, bytes);
    }

    public LimitsConfig withMaxDuration(Duration duration) {
        return new LimitsConfig(maxPages, duration, maxPageBytes);
    }
}
