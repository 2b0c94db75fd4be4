package org.sievecrawler.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FetchStepTest {
    private static final long MB = 1L << 20;

    @Test
    void readsOneSitemapAtOncePerEightTimesItsLimitOfHeapAndAlwaysAtLeastOne() {
        assertThat(FetchStep.sitemapsAtOnce(256 * MB, 50 * MB)).isEqualTo(1);
        assertThat(FetchStep.sitemapsAtOnce(64 * MB, 50 * MB)).isEqualTo(1);
        assertThat(FetchStep.sitemapsAtOnce(4096 * MB, 50 * MB)).isEqualTo(10);
        assertThat(FetchStep.sitemapsAtOnce(4096 * MB, 1)).isEqualTo(1024);
    }
}
