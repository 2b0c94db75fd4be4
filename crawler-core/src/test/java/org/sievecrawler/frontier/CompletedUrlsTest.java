package org.sievecrawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sievecrawler.fixtures.UrlCorpus;

class CompletedUrlsTest {
    private static final UrlCorpus CORPUS = new UrlCorpus(13);

    @Test
    void findsEachOf300000UrlsOnceAndNoUrlItWasNotGiven() {
        String[] completed = CORPUS.urls(0, 300_000);
        CompletedUrls urls = CompletedUrls.none();
        for (String url : completed) {
            assertThat(urls.add(url)).isTrue();
        }
        assertThat(urls.size()).isEqualTo(300_000);

        int absentFound = 0;
        for (String url : CORPUS.urls(1_000_000, 1_300_000)) {
            absentFound += urls.remove(url) ? 1 : 0;
        }
        assertThat(absentFound).isZero();
        for (String url : completed) {
            assertThat(urls.remove(url)).as(url).isTrue();
        }
        assertThat(urls.isEmpty()).isTrue();
        for (String url : completed) {
            assertThat(urls.remove(url)).as(url).isFalse();
        }
    }

    @Test
    void addsAUrlOnce() {
        CompletedUrls urls = new CompletedUrls(10);

        assertThat(urls.add("https://example.org/a")).isTrue();
        assertThat(urls.add("https://example.org/a")).isFalse();
        assertThat(urls.size()).isEqualTo(1);
        assertThat(urls.remove("https://example.org/a")).isTrue();
        assertThat(urls.remove("https://example.org/a")).isFalse();
        assertThat(urls.isEmpty()).isTrue();
    }

    /** The open-addressing set against HashSet, through growth and backward-shift removal (fixed seed). */
    @Test
    void answersAsAHashSetDoesUnderRandomAddsAndRemoves() {
        String[] pool = CORPUS.urls(0, 3_000);
        Random random = new Random(1313);
        CompletedUrls urls = CompletedUrls.none();
        Set<String> expected = new HashSet<>();
        for (int op = 0; op < 200_000; op++) {
            String url = pool[random.nextInt(pool.length)];
            if (random.nextInt(3) == 0) {
                assertThat(urls.remove(url)).as("remove %s at op %d", url, op).isEqualTo(expected.remove(url));
            } else {
                assertThat(urls.add(url)).as("add %s at op %d", url, op).isEqualTo(expected.add(url));
            }
            assertThat(urls.size()).isEqualTo(expected.size());
        }
        for (String url : pool) {
            assertThat(urls.remove(url)).as(url).isEqualTo(expected.contains(url));
        }
        assertThat(urls.isEmpty()).isTrue();
    }

    @Test
    void refusesANegativeSize() {
        assertThatThrownBy(() -> new CompletedUrls(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected URLs must be >= 0, was -1");
    }
}
