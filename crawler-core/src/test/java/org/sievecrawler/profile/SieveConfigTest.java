package org.sievecrawler.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_FALSE_POSITIVE_RATE;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_LAYOUT;

import org.junit.jupiter.api.Test;
import org.sievecrawler.sieve.BlockedPlan;
import org.sievecrawler.sieve.SieveLayout;

class SieveConfigTest {

    @Test
    void namesTheHeapASieveNeedsAndTheXmxThatHoldsIt() {
        SieveConfig sieve = CrawlProfile.defaults().with(SIEVE_EXPECTED_URLS, 5_000_000_000L).sieve();

        assertThat(sieve.heapShortfall(4L << 30)).hasValue("sieve.expected-urls 5000000000 at"
                + " sieve.false-positive-rate 0.01 needs a 5.58 GiB Bloom filter, twice while a checkpoint copies it:"
                + " with 100000 pending URLs in memory (sieve.max-in-memory-urls) and room for the rest, 11.2 GiB of"
                + " heap; this JVM's heap is at most 4.00 GiB (Runtime.maxMemory): raise it with JAVA_OPTS=-Xmx12g,"
                + " or lower sieve.expected-urls");
        assertThat(sieve.heapShortfall(12L << 30)).isEmpty();
        assertThat(sieve.heapShortfall(Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void theBlockedLayoutIsSizedAndCountedByItsOwnPlan() {
        SieveConfig sieve = CrawlProfile.defaults().with(SIEVE_EXPECTED_URLS, 10_000_000L)
                .with(SIEVE_FALSE_POSITIVE_RATE, 1e-4).with(SIEVE_LAYOUT, SieveLayout.BLOCKED).sieve();

        assertThat(sieve.plan()).isEqualTo(BlockedPlan.of(10_000_000L, 1e-4));
        // Its 27.5 MB filter twice, 10 MB of pending URLs and 64 MB of room: 129 MB; the classic one needs 122 MB.
        assertThat(sieve.heapShortfall(125_000_000L)).hasValueSatisfying(why -> assertThat(why)
                .contains("needs a 26.3 MiB Bloom filter"));
        assertThat(sieve.heapShortfall(130_000_000L)).isEmpty();
        assertThat(CrawlProfile.defaults().with(SIEVE_EXPECTED_URLS, 10_000_000L).with(SIEVE_FALSE_POSITIVE_RATE, 1e-4)
                .sieve().heapShortfall(125_000_000L)).isEmpty();
    }
}
