package org.sievecrawler.audit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.Crawler;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;

/**
 * slowest after a crawl of a site with a page whose headers come late and one whose body dribbles in: time to first
 * byte and total measured apart, recorded in pages.jsonl and listed slowest first.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SlowestCrawlTest {
    @TempDir
    Path out;
    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSite() {
        site.close();
    }

    @Test
    void lateHeadersAreTimeToFirstByteAndASlowBodyIsTotalTimeOnly() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/late", "/dribble"))
                .respond("/late", aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                        .withBody(FixtureSite.linkPage("late")).withFixedDelay(300))
                .respond("/dribble", aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                        .withBody(FixtureSite.linkPage("dribble") + " ".repeat(4000))
                        .withChunkedDribbleDelay(8, 800));
        CrawlProfile profile = CrawlProfile.defaults().with(SEEDS, List.of(site.url("/")))
                .with(POLITENESS_DELAY, Duration.ZERO).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(10))
                .with(OUTPUT_DIR, out);

        Crawler.newCrawl(profile).run();

        JsonNode slowest = new ObjectMapper().readTree(out.resolve("audit.json").toFile()).get("slowest");
        assertThat(slowest).hasSize(3);
        List<Long> totals = new java.util.ArrayList<>();
        Map<String, JsonNode> byUrl = new HashMap<>();
        slowest.forEach(answer -> {
            totals.add(answer.get("totalMs").asLong());
            byUrl.put(answer.get("url").asText(), answer);
        });
        assertThat(totals).as("slowest first").isSortedAccordingTo(java.util.Comparator.reverseOrder());
        JsonNode dribble = byUrl.get(site.url("/dribble"));
        assertThat(dribble.get("totalMs").asLong()).isGreaterThanOrEqualTo(800);
        assertThat(dribble.path("ttfbMs").asLong()).as("headers first, then the body").isLessThan(
                dribble.get("totalMs").asLong());
        JsonNode late = byUrl.get(site.url("/late"));
        assertThat(late.get("ttfbMs").asLong()).isGreaterThanOrEqualTo(300);
        assertThat(late.get("totalMs").asLong()).isGreaterThanOrEqualTo(late.get("ttfbMs").asLong());
    }
}
