package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_PROXY;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;

/**
 * A crawl stopped by {@code limits.max-pages} over many hosts fetches robots.txt only for hosts it asks a page of:
 * 1,000 hosts ({@code hN.invalid}, one WireMock on 127.0.0.1 serving them all as the crawl's proxy), max-pages 10.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrawlerPageLimitRobotsTest {
    @TempDir
    Path out;
    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSite() {
        site.close();
    }

    @Test
    void fetchesRobotsTxtOnlyForHostsItAsksAPageOfWhenStoppedByMaxPages() throws Exception {
        site.robots("User-agent: *\nAllow: /\n")
                .page("/", FixtureSite.linkPage("home", "/a", "/b"))
                .page("/a", FixtureSite.linkPage("a", "/", "/b"))
                .page("/b", FixtureSite.linkPage("b", "/", "/a"));
        List<String> seeds = new ArrayList<>();
        for (int h = 0; h < 1_000; h++) {
            seeds.add("http://h" + h + ".invalid/");
        }
        CrawlProfile profile = CrawlProfile.defaults().with(SEEDS, seeds).with(FETCH_PROXY, site.origin())
                .with(FETCH_THREADS, 8).with(POLITENESS_DELAY, Duration.ofMillis(100)).with(LIMITS_MAX_PAGES, 10L)
                .with(SIEVE_EXPECTED_URLS, 100_000L).with(OUTPUT_DIR, out);

        Crawler.newCrawl(profile).run();
        CrawlOutput output = CrawlOutput.read(out);

        List<LoggedRequest> requests = site.requestLog();
        Set<String> robots = hostsOf(requests, true);
        Set<String> paged = hostsOf(requests, false);
        assertThat(output.summary.get("endReason").asText()).isEqualTo("max-pages");
        assertThat(paged).as("hosts paged").isNotEmpty().hasSizeLessThanOrEqualTo(10);
        assertThat(robots).as("robots.txt requested of hosts paged only (robots.txt requests: %d)",
                requests.stream().filter(r -> r.getUrl().equals("/robots.txt")).count()).isSubsetOf(paged);
    }

    /** The Host headers of the robots.txt requests ({@code robots}), or of the others. */
    private static Set<String> hostsOf(List<LoggedRequest> requests, boolean robots) {
        return requests.stream().filter(r -> r.getUrl().equals("/robots.txt") == robots)
                .map(r -> r.getHeader("Host")).collect(Collectors.toSet());
    }
}
