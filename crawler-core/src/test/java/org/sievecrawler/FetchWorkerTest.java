package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FetchWorkerTest {
    private static final long MB = 1L << 20;

    @Test
    void readsOneSitemapAtOncePerEightTimesItsLimitOfHeapAndAlwaysAtLeastOne() {
        assertThat(FetchWorker.sitemapsAtOnce(256 * MB, 50 * MB)).isEqualTo(1);
        assertThat(FetchWorker.sitemapsAtOnce(64 * MB, 50 * MB)).isEqualTo(1);
        assertThat(FetchWorker.sitemapsAtOnce(4096 * MB, 50 * MB)).isEqualTo(10);
        assertThat(FetchWorker.sitemapsAtOnce(4096 * MB, 1)).isEqualTo(1024);
    }
}
