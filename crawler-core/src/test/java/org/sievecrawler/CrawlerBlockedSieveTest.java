package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_FALSE_POSITIVE_RATE;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_LAYOUT;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.checkpoint.Checkpoint;
import org.sievecrawler.checkpoint.CheckpointStore;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.progress.CrawlSummary;
import org.sievecrawler.sieve.FilterLayer;
import org.sievecrawler.sieve.SieveLayout;

/** End-to-end crawls whose Sieve has the blocked layout ({@code sieve.layout: blocked}), stopped and resumed. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrawlerBlockedSieveTest {
    @TempDir
    Path out;
    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSite() {
        site.close();
    }

    private CrawlProfile profile(String seed) {
        return CrawlProfile.defaults().with(SEEDS, List.of(seed))
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4)
                .with(FETCH_THREADS, 4).with(FETCH_CONNECT_TIMEOUT, Duration.ofMillis(500))
                .with(FETCH_READ_TIMEOUT, Duration.ofMillis(800)).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(5))
                .with(SIEVE_EXPECTED_URLS, 100_000L).with(SIEVE_FALSE_POSITIVE_RATE, 0.001)
                .with(SIEVE_LAYOUT, SieveLayout.BLOCKED).with(OUTPUT_DIR, out);
    }

    /** A home page linking 20 pages that link each other, so every page's links are mostly seen already. */
    private String site() {
        String[] links = new String[20];
        for (int i = 0; i < links.length; i++) {
            links[i] = "/p" + i;
        }
        for (int i = 0; i < links.length; i++) {
            site.page(links[i], FixtureSite.linkPage("p" + i, links[(i + 1) % 20], links[(i + 7) % 20], "/"));
        }
        site.page("/", FixtureSite.linkPage("home", links));
        return site.url("/");
    }

    @Test
    void crawlsEveryPageOnceStopsAndResumesFromItsBlockedFilters() throws Exception {
        CrawlProfile profile = profile(site());
        Crawler.newCrawl(profile.with(LIMITS_MAX_PAGES, 5L)).run();
        Checkpoint stopped = new CheckpointStore(out).read();
        assertThat(stopped.state()).isEqualTo(Checkpoint.State.STOPPED);
        assertThat(stopped.profile().sieve().layout()).isEqualTo(SieveLayout.BLOCKED);
        assertThat(stopped.frontier().filters()).extracting(FilterLayer::layout).containsOnly(SieveLayout.BLOCKED);
        assertThat(stopped.frontier().filters().get(0).mightContain(site.url("/p19"))).isTrue();

        CrawlSummary summary = Crawler.resuming(new CheckpointStore(out).readProfile().with(LIMITS_MAX_PAGES, 0L))
                .run();

        assertThat(summary.endReason()).isEqualTo("finished");
        assertThat(summary.fetched()).isEqualTo(21);
        assertThat(CrawlOutput.read(out).records).extracting(r -> r.get("url").asText()).hasSize(21)
                .doesNotHaveDuplicates();
        assertThat(new CheckpointStore(out).read().frontier().filters()).extracting(FilterLayer::layout)
                .containsOnly(SieveLayout.BLOCKED);
    }

    @Test
    void refusesAResumeWithTheOtherLayoutNamingTheKeyAndBothValues() throws Exception {
        Crawler.newCrawl(profile(site()).with(LIMITS_MAX_PAGES, 2L)).run();
        CrawlProfile classic = new CheckpointStore(out).readProfile().with(LIMITS_MAX_PAGES, 0L)
                .with(SIEVE_LAYOUT, SieveLayout.CLASSIC);

        assertThatThrownBy(() -> Crawler.resuming(classic).run())
                .isInstanceOfSatisfying(CrawlException.class, e -> assertThat(e.refused()).isTrue())
                .hasMessageStartingWith("a resume of the crawl in " + out + " cannot change sieve.layout (blocked in"
                        + " the checkpoint, classic given): the keys that size the Sieve are fixed");
    }
}
