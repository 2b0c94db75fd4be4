package org.sievecrawler.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SeedsTest {
    private final UrlNormalizer normalizer = new UrlNormalizer();

    @Test
    void normalizesTheSeedsAndNamesEachOneRefused() {
        Seeds seeds = Seeds.normalize(List.of(" HTTP://Example.org ", "ftp://example.org/"), normalizer);

        assertThat(seeds.urls()).containsExactly("http://example.org/");
        assertThat(seeds.problems()).singleElement().asString().startsWith("seed \"ftp://example.org/\": ");
    }

    @Test
    void saysWhyNoSeedIsUsable() {
        assertThat(Seeds.normalize(List.of(), normalizer).whyNone())
                .isEqualTo("no seeds: give at least one URL to start from");
        assertThat(Seeds.normalize(List.of("ftp://example.org/"), normalizer).whyNone())
                .startsWith("no usable seed: seed \"ftp://example.org/\": ");
    }
}
