package org.sievecrawler.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UrlHashesTest {
    private static List<String> urls(Random random, String prefix, int n) {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            urls.add(prefix + Long.toString(random.nextLong() & Long.MAX_VALUE, 36) + "/page-" + i + ".html");
        }
        return urls;
    }

    @Test
    void neverSaysNoForAUrlAddedAndRarelyYesForOneNot() {
        Random random = new Random(28);
        List<String> added = urls(random, "http://127.0.0.1:8080/", 100_000);
        UrlHashes hashes = new UrlHashes();
        added.forEach(hashes::add);
        assertThat(added).allMatch(hashes::mightContain);
        // n / 2^32 = 2.3e-5 expected at 100,000 held: 23 of a million; bound 100
        long falseYes = urls(random, "http://127.0.0.1:8080/other/", 1_000_000).stream()
                .filter(hashes::mightContain).count();
        assertThat(falseYes).isLessThan(100);
    }

    @Test
    void anEmptySetLetsNothingThrough() {
        UrlHashes hashes = new UrlHashes();
        assertThat(hashes.isEmpty()).isTrue();
        assertThat(hashes.mightContain("http://h/")).isFalse();
    }

    @Test
    void pastItsBoundItHoldsNoneAndLetsEveryUrlThrough() {
        UrlHashes hashes = new UrlHashes(3);
        List.of("http://h/a", "http://h/b", "http://h/c").forEach(hashes::add);
        assertThat(hashes.mightContain("http://h/z")).isFalse();
        hashes.add("http://h/d");
        assertThat(hashes.isEmpty()).isFalse();
        assertThat(hashes.mightContain("http://h/z")).isTrue();
    }
}
