package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_IGNORE_PARAMS;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_LEARN_DUPLICATES;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;

/**
 * {@code scope.ignore-params} end to end: links, a seed and a redirect target that differ from each other only by
 * {@code utm_*} and {@code sid} parameters (a sitemap's URL among them) are one URL to the Sieve, each page fetched once under its canonical
 * form, counted in summary.json's {@code canonicalized}, none refused.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrawlerIgnoreParamsTest {
    @TempDir
    Path out;
    private final FixtureSite site = FixtureSite.start();

    @BeforeEach
    void serve() {
        site.page("/", FixtureSite.linkPage("home", "/a?utm_source=x", "/a?utm_source=y&utm_medium=z", "/a",
                        "/b?k=1&sid=AAA", "/b?k=1&sid=BBB", "/b?sid=CCC&k=1", "/redir"))
                .page("/a", FixtureSite.linkPage("a", "/a?utm_campaign=q", "/b?k=1"))
                .page("/b", FixtureSite.linkPage("b", "/"))
                .redirect("/redir", 302, "/c?sid=Z")
                .page("/c", FixtureSite.linkPage("c", "/"))
                .robots("User-agent: *\nAllow: /\n\nSitemap: " + site.url("/sitemap.txt") + "\n")
                .respond("/sitemap.txt", com.github.tomakehurst.wiremock.client.WireMock.aResponse().withStatus(200)
                        .withHeader("Content-Type", "text/plain").withBody(site.url("/a?utm_source=sitemap") + "\n"));
    }

    @AfterEach
    void stopSite() {
        site.close();
    }

    private CrawlOutput crawl(List<String> ignoreParams) throws CrawlException {
        return crawl(ignoreParams, true);
    }

    private CrawlOutput crawl(List<String> ignoreParams, boolean learn) throws CrawlException {
        CrawlProfile profile = CrawlProfile.defaults().with(SEEDS, List.of(site.url("/?utm_source=seed")))
                .with(SCOPE_IGNORE_PARAMS, ignoreParams).with(SCOPE_LEARN_DUPLICATES, learn)
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4)
                .with(FETCH_THREADS, 4).with(FETCH_CONNECT_TIMEOUT, Duration.ofMillis(500))
                .with(FETCH_READ_TIMEOUT, Duration.ofMillis(800)).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(5))
                .with(OUTPUT_DIR, out);
        Crawler.newCrawl(profile).run();
        return CrawlOutput.read(out);
    }

    @Test
    void linksThatDifferOnlyByIgnoredParametersAreFetchedOnceUnderTheirCanonicalForm() throws Exception {
        CrawlOutput crawl = crawl(List.of("utm_*", "sid"));

        for (String path : List.of("/", "/a", "/b", "/c", "/redir")) {
            assertThat(site.requests(path)).as(path).isEqualTo(1);
        }
        assertThat(crawl.outcomes()).containsExactly(
                java.util.Map.entry(site.url("/"), "fetched"),
                java.util.Map.entry(site.url("/a"), "fetched"),
                java.util.Map.entry(site.url("/b?k=1"), "fetched"),
                java.util.Map.entry(site.url("/c"), "fetched"),
                java.util.Map.entry(site.url("/redir"), "redirect"),
                java.util.Map.entry(site.url("/sitemap.txt"), "sitemap"));
        assertThat(crawl.record(site.url("/redir")).get("redirectTo").asText()).isEqualTo(site.url("/c"));
        // on /: 2 links to /a and 3 to /b?k=1; on /a: 1 to /a; the redirect to /c; the sitemap's /a (the seed is
        // not counted)
        assertThat(crawl.summaryCount("canonicalized", "ignoreParams")).isEqualTo(2 + 3 + 1 + 1 + 1);
        assertThat(crawl.summaryCount("outcomes", "trap")).isZero();
        assertThat(crawl.summary.get("linkRejections").size()).as("nothing refused").isZero();
        assertThat(crawl.summary.has("learned")).as("scope.learn-duplicates is on by default").isTrue();
        assertThat(crawl.summaryCount("learned", "rules")).as("too few pages to learn from").isZero();
        assertThat(out.resolve("rules.jsonl")).as("written at the first rule").doesNotExist();
    }

    @Test
    void withoutLearningTheSummaryHasNoLearnedSection() throws Exception {
        CrawlOutput crawl = crawl(List.of("utm_*", "sid"), false);

        assertThat(crawl.summaryCount("canonicalized", "ignoreParams")).isEqualTo(2 + 3 + 1 + 1 + 1);
        assertThat(crawl.summary.has("learned")).isFalse();
        assertThat(out.resolve("rules.jsonl")).doesNotExist();
    }

    @Test
    void withTheKeyEmptyEveryVariantIsAPageOfItsOwn() throws Exception {
        CrawlOutput crawl = crawl(List.of());

        assertThat(site.requests("/")).as("/?utm_source=seed, then / linked from /b and /c").isEqualTo(2);
        assertThat(site.requests("/a")).as("/a, three variants and the sitemap's").isEqualTo(5);
        assertThat(site.requests("/b")).as("/b?k=1 and three variants").isEqualTo(4);
        assertThat(crawl.record(site.url("/c?sid=Z")).get("outcome").asText()).isEqualTo("fetched");
        assertThat(crawl.summaryCount("canonicalized", "ignoreParams")).isZero();
    }
}
