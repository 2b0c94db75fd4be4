package org.sievecrawler.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_MAX_REDIRECTS;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.Crawler;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;

/**
 * audit.json's redirects after a crawl of a WireMock site with a chain of two hops, a redirect to a 404, a loop and a
 * chain past fetch.max-redirects: exactly those chains, each from where a page led.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedirectsTest {
    @TempDir
    Path out;
    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSite() {
        site.close();
    }

    @Test
    void listsEveryChainFromWhereAPageLedWithLoopsAndChainsPastMaxRedirectsMarked() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/a", "/gone", "/loop1", "/long1", "/ok", "/c"))
                .page("/ok", FixtureSite.linkPage("ok")).page("/c", FixtureSite.linkPage("c"))
                .redirect("/a", 301, "/b").redirect("/b", 302, "/c")
                .redirect("/gone", 301, "/missing")
                .redirect("/loop1", 301, "/loop2").redirect("/loop2", 301, "/loop1")
                .redirect("/long1", 301, "/long2").redirect("/long2", 301, "/long3").redirect("/long3", 301, "/long4");
        CrawlProfile profile = CrawlProfile.defaults().with(SEEDS, List.of(site.url("/")))
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 1)
                .with(FETCH_THREADS, 2).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(5))
                .with(FETCH_MAX_REDIRECTS, 2).with(OUTPUT_DIR, out);

        Crawler.newCrawl(profile).run();

        JsonNode redirects = new ObjectMapper().readTree(out.resolve("audit.json").toFile()).get("redirects");
        List<String> from = new ArrayList<>();
        redirects.forEach(chain -> from.add(chain.get("from").asText()));
        assertThat(from).containsExactly(site.url("/a"), site.url("/gone"), site.url("/long1"), site.url("/loop1"));

        JsonNode twoHops = redirects.get(0);
        assertThat(hops(twoHops)).containsExactly(site.url("/a") + " 301", site.url("/b") + " 302");
        assertThat(twoHops.get("to").asText()).isEqualTo(site.url("/c"));
        assertThat(twoHops.get("final").get("status").asInt()).isEqualTo(200);
        assertThat(twoHops.get("final").get("outcome").asText()).isEqualTo("fetched");
        assertThat(twoHops.get("loop").asBoolean()).isFalse();
        assertThat(twoHops.get("tooLong").asBoolean()).isFalse();

        JsonNode broken = redirects.get(1);
        assertThat(hops(broken)).containsExactly(site.url("/gone") + " 301");
        assertThat(broken.get("final").get("status").asInt()).isEqualTo(404);
        assertThat(broken.get("final").get("outcome").asText()).isEqualTo("http-error");

        JsonNode tooLong = redirects.get(2);
        assertThat(hops(tooLong)).containsExactly(site.url("/long1") + " 301", site.url("/long2") + " 301",
                site.url("/long3") + " 301");
        assertThat(tooLong.get("to").asText()).isEqualTo(site.url("/long4"));
        assertThat(tooLong.get("final").isNull()).as("not followed").isTrue();
        assertThat(tooLong.get("tooLong").asBoolean()).isTrue();
        assertThat(site.requests("/long4")).isZero();

        JsonNode loop = redirects.get(3);
        assertThat(hops(loop)).containsExactly(site.url("/loop1") + " 301", site.url("/loop2") + " 301");
        assertThat(loop.get("to").asText()).isEqualTo(site.url("/loop1"));
        assertThat(loop.get("loop").asBoolean()).isTrue();
        assertThat(loop.get("tooLong").asBoolean()).isFalse();

        try (var left = Files.list(out)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("work files deleted")
                    .noneMatch(name -> name.startsWith(".audit"));
        }
    }

    private static List<String> hops(JsonNode chain) {
        List<String> hops = new ArrayList<>();
        chain.get("chain").forEach(hop -> hops.add(hop.get("url").asText() + " " + hop.get("status").asInt()));
        return hops;
    }
}
