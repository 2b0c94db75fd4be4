package org.sievecrawler.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;

import org.junit.jupiter.api.Test;

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
}
