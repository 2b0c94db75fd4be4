package org.sievecrawler.sieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.sievecrawler.fixtures.UrlCorpus;

class CountingBloomFilterTest {
    private static final UrlCorpus CORPUS = new UrlCorpus(4);

    @Test
    void removeLeavesEveryOtherElementPresent() {
        int n = 100_000;
        CountingBloomFilter filter = CountingBloomFilter.create(n, 0.01);
        String[] urls = CORPUS.urls(0, n);
        for (String url : urls) {
            filter.add(url);
        }
        for (int i = 0; i < n; i += 2) {
            assertThat(filter.remove(urls[i])).isTrue();
        }
        for (int i = 1; i < n; i += 2) {
            assertThat(filter.mightContain(urls[i])).as(urls[i]).isTrue();
        }
        // The removed half is mostly gone: what remains present is about the false-positive rate at n/2.
        int stillPresent = 0;
        for (int i = 0; i < n; i += 2) {
            if (filter.mightContain(urls[i])) {
                stillPresent++;
            }
        }
        assertThat((double) stillPresent / (n / 2)).isLessThan(0.01);
        assertThat(filter.estimatedCardinality()).isCloseTo(n / 2.0, within(0.02 * n / 2));
    }

    @Test
    void refusesToRemoveAnElementThatIsNotPresent() {
        CountingBloomFilter filter = CountingBloomFilter.create(1_000, 0.01);
        filter.add("https://example.org/a");
        long before = filter.nonZeroCounters();

        assertThat(filter.remove("https://example.org/never-added")).isFalse();

        assertThat(filter.nonZeroCounters()).isEqualTo(before);
        assertThat(filter.mightContain("https://example.org/a")).isTrue();
    }

    @Test
    void addThenRemoveRestoresTheEmptyFilter() {
        CountingBloomFilter filter = CountingBloomFilter.create(1_000, 0.01);
        String[] urls = CORPUS.urls(0, 500);
        for (String url : urls) {
            filter.add(url);
        }
        for (String url : urls) {
            filter.remove(url);
        }
        assertThat(filter.nonZeroCounters()).isZero();
        assertThat(filter.estimatedCardinality()).isZero();
    }

    @Test
    void aSaturatedCounterStaysAtFifteenForever() {
        CountingBloomFilter filter = CountingBloomFilter.create(1_000, 0.01);
        String url = "https://example.org/popular";
        for (int i = 0; i < 20; i++) {
            filter.add(url);
        }
        for (int i = 0; i < 20; i++) {
            filter.remove(url);
        }
        // Its counters were pinned at 15 and never decremented, so it is still present.
        assertThat(filter.mightContain(url)).isTrue();
        assertThat(filter.remove(url)).isTrue();
    }

    @Test
    void saturationNeverYieldsAFalseNegative() {
        // Ten times overloaded: many counters saturate. Removing half the elements must leave the rest present.
        int sized = 2_000;
        int n = 20_000;
        CountingBloomFilter filter = CountingBloomFilter.create(sized, 0.01);
        String[] urls = CORPUS.urls(1_000_000, 1_000_000 + n);
        for (String url : urls) {
            filter.add(url);
        }
        int saturated = 0;
        for (long position = 0; position < filter.counterCount(); position++) {
            if (filter.count(position) == 15) {
                saturated++;
            }
        }
        assertThat(saturated).as("counters at 15").isGreaterThan(100);
        for (int i = 0; i < n; i += 2) {
            filter.remove(urls[i]);
        }
        for (int i = 1; i < n; i += 2) {
            assertThat(filter.mightContain(urls[i])).as(urls[i]).isTrue();
        }
    }

    @Test
    void usesFourBitsPerCounter() {
        CountingBloomFilter filter = CountingBloomFilter.create(1_000_000, 0.01);
        assertThat(filter.counterCount()).isEqualTo(9_585_059L);
        assertThat(filter.byteSize()).isEqualTo((9_585_059L + 15) / 16 * 8);
    }
}
