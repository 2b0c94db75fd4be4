package org.sievecrawler.progress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.robots.RobotsCache;

class CrawlSummaryTest {
    @TempDir
    Path dir;

    /** 771 URLs: 690 pages, 3 not HTML, 78 broken (77 answered 404, one 500), one redirect, no failure. */
    private static CrawlSummary djangoLike() {
        return new CrawlSummary(Instant.parse("2026-11-28T20:00:00Z"), Duration.ofSeconds(10), "finished", 773, 772,
                772, 1000, Map.of("fetched", 690L, "not-html", 3L, "http-error", 78L, "redirect", 1L,
                        "no-sitemap", 1L), Map.of(200, 693L, 301, 1L, 404, 77L, 500, 1L), Map.of(), 1000, 773,
                1e-9, 0, new CrawlSummary.Parsing(690, 0, Map.of()), 2, 1, 0, 0, CrawlSummary.Dns.NONE, Map.of(), 0,
                RobotsCache.Counts.NONE);
    }

    @Test
    void theLineCountsPagesHttpErrorsByStatusAndFailuresApartFromResponses() {
        assertThat(djangoLike().line()).startsWith("crawl finished: decided=773 pages=693 redirects=1"
                + " http-errors=78 (404: 77, 500: 1) failed=0 responses=772 avg=77/s ")
                .endsWith(" errors=2 retries=1");
    }

    /** A section with the given words, at {@code place} on the line. */
    private static SummarySection section(String words, SummarySection.Place place) {
        return new SummarySection() {
            @Override
            public void writeField(com.fasterxml.jackson.core.JsonGenerator json) {
            }

            @Override
            public String words() {
                return words;
            }

            @Override
            public Place place() {
                return place;
            }
        };
    }

    @Test
    void answersAboutTheSiteLeadTheLineAndTheCrawlersOwnFollowIt() {
        CrawlSummary summary = djangoLike()
                .with(java.util.Optional.of(section("canonicalized: 4 links", SummarySection.Place.TRAILS)))
                .with(java.util.Optional.of(section("changes: 3 new, 1 gone", SummarySection.Place.LEADS)))
                .with(java.util.Optional.of(section("learned: 2 rules", SummarySection.Place.FOLLOWS_ANSWERS)))
                .with(java.util.Optional.of(section("", SummarySection.Place.FOLLOWS_ANSWERS)))
                .with(java.util.Optional.of(section("", SummarySection.Place.TRAILS)));

        assertThat(summary.line()).startsWith("crawl finished: changes: 3 new, 1 gone; decided=773 pages=693 ")
                .contains(" failed=0 responses=772; learned: 2 rules; avg=77/s ")
                .endsWith(" errors=2 retries=1 canonicalized: 4 links");
    }

    @Test
    void aCrawlWithoutHttpErrorsSaysZeroWithoutStatuses() {
        CrawlSummary clean = new CrawlSummary(Instant.EPOCH, Duration.ofSeconds(1), "finished", 2, 2, 2, 10,
                Map.of("fetched", 1L, "error", 1L), Map.of(200, 1L), Map.of(), 10, 2, 0, 0,
                new CrawlSummary.Parsing(1, 0, Map.of()), 0, 0, 0, 0, CrawlSummary.Dns.NONE, Map.of(), 0,
                RobotsCache.Counts.NONE);

        assertThat(clean.line()).contains(" pages=1 redirects=0 http-errors=0 failed=1 responses=2 ");
    }

    @Test
    void summaryJsonSaysPagesHttpErrorsAndResponsesAndNoFetchedOfItsOwn() throws Exception {
        Path file = dir.resolve("summary.json");
        djangoLike().writeTo(file);

        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertThat(json.get("pages").asLong()).isEqualTo(693);
        assertThat(json.get("httpErrors").asLong()).isEqualTo(78);
        assertThat(json.get("httpErrorsByStatus").get("404").asLong()).isEqualTo(77);
        assertThat(json.get("httpErrorsByStatus").get("500").asLong()).isEqualTo(1);
        assertThat(json.get("httpErrorsByStatus").has("200")).isFalse();
        assertThat(json.get("failed").asLong()).isZero();
        assertThat(json.get("responses").asLong()).isEqualTo(772);
        assertThat(json.get("responsesThisRun").asLong()).isEqualTo(772);
        assertThat(json.has("fetched")).as("fetched is only an outcome: the pages").isFalse();
        assertThat(json.get("outcomes").get("fetched").asLong()).isEqualTo(690);
        assertThat(json.get("sitemaps").get("missing").asLong()).isEqualTo(1);
    }
}
