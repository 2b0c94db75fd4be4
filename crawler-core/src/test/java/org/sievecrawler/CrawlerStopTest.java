package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_DURATION;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_FALSE_POSITIVE_RATE;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.checkpoint.Checkpoint;
import org.sievecrawler.checkpoint.CheckpointStore;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.progress.CrawlSummary;
import org.sievecrawler.shell.Program;
import org.sievecrawler.sieve.PendingUrl;

/**
 * Crawls that end while a body is in flight (a stop, limits.max-duration, limits.max-pages): what was in flight is
 * either recorded normally or put back into the final checkpoint, never recorded as an error, and a resume fetches
 * it once. The held bodies are released only for the resume, so nothing here depends on timing but the short
 * grace period.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrawlerStopTest {
    private static final Duration GRACE = Duration.ofMillis(300);
    @TempDir
    Path out;
    private HeldSite site;

    @BeforeEach
    void startSite() throws Exception {
        site = new HeldSite();
    }

    @AfterEach
    void stopSite() throws Exception {
        site.close();
    }

    /** Timeouts far longer than the test: only the stop ends a held body. */
    private CrawlProfile profile(String seed) {
        return CrawlProfile.defaults().with(SEEDS, List.of(seed))
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4)
                .with(FETCH_THREADS, 4).with(FETCH_CONNECT_TIMEOUT, Duration.ofSeconds(5))
                .with(FETCH_READ_TIMEOUT, Duration.ofSeconds(60)).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(120))
                .with(SIEVE_EXPECTED_URLS, 100_000L).with(SIEVE_FALSE_POSITIVE_RATE, 0.001)
                .with(OUTPUT_DIR, out);
    }

    private static CompletableFuture<CrawlSummary> runAsync(Crawler crawler) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return crawler.run();
            } catch (CrawlException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private List<String> pendingInCheckpoint() throws Exception {
        List<String> urls = new ArrayList<>();
        for (PendingUrl url : new CheckpointStore(out).read().frontier().pending()) {
            urls.add(url.url());
        }
        return urls;
    }

    /** Resumes the crawl with the held bodies released and no page limit; returns the whole output. */
    private CrawlOutput resumeReleased() throws Exception {
        site.release();
        CrawlProfile saved = new CheckpointStore(out).readProfile();
        CrawlSummary summary = Crawler.resuming(saved.with(LIMITS_MAX_PAGES, 0L)).run();
        assertThat(summary.endReason()).isEqualTo("finished");
        return CrawlOutput.read(out);
    }

    @Test
    void aStopPutsABodyInFlightBackIntoTheCheckpointAndTheResumeFetchesItOnce() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/held", "/a"))
                .heldPage("/held", FixtureSite.linkPage("held", "/after"))
                .page("/a", FixtureSite.linkPage("a"))
                .page("/after", FixtureSite.linkPage("after"));
        Crawler crawler = new Crawler(profile(site.url("/")), Crawler.Start.NEW, Program.CRAWLER, GRACE);
        CompletableFuture<CrawlSummary> running = runAsync(crawler);
        assertThat(site.awaitBodyStarted("/held", 30)).as("the held body started").isTrue();

        crawler.stop();
        CrawlSummary stopped = running.get(30, TimeUnit.SECONDS);

        assertThat(stopped.endReason()).isEqualTo("stopped");
        CrawlOutput output = CrawlOutput.read(out);
        assertThat(output.urls()).doesNotContain(site.url("/held"));
        assertThat(output.summary.get("errors").asLong()).as("a cancelled request is no failed attempt").isZero();
        assertThat(new CheckpointStore(out).read().state()).isEqualTo(Checkpoint.State.STOPPED);
        assertThat(pendingInCheckpoint()).containsOnlyOnce(site.url("/held"));

        CrawlOutput resumed = resumeReleased();

        assertThat(resumed.urls()).doesNotHaveDuplicates()
                .containsExactlyInAnyOrder(site.url("/"), site.url("/a"), site.url("/held"), site.url("/after"));
        assertThat(resumed.record(site.url("/held")).get("outcome").asText()).isEqualTo("fetched");
        assertThat(site.requests("/held")).isEqualTo(2);
    }

    @Test
    void aStopBeforeTheRunEndsItBeforeAnyFetchWithTheSeedKeptForTheResume() throws Exception {
        site.page("/", FixtureSite.linkPage("home"));
        Crawler crawler = new Crawler(profile(site.url("/")), Crawler.Start.NEW, Program.CRAWLER, GRACE);

        crawler.stop();
        CrawlSummary stopped = crawler.run();

        assertThat(stopped.endReason()).isEqualTo("stopped");
        assertThat(stopped.fetched()).isZero();
        assertThat(new CheckpointStore(out).read().state()).isEqualTo(Checkpoint.State.STOPPED);
        assertThat(pendingInCheckpoint()).containsExactly(site.url("/"));
        assertThat(resumeReleased().urls()).containsExactly(site.url("/"));
    }

    @Test
    void maxDurationPutsABodyInFlightBackIntoTheCheckpoint() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/held"))
                .heldPage("/held", FixtureSite.linkPage("held"));
        CrawlProfile profile = profile(site.url("/"));
        profile = profile.with(LIMITS_MAX_DURATION, Duration.ofSeconds(4));

        CrawlSummary ended = new Crawler(profile, Crawler.Start.NEW, Program.CRAWLER, GRACE).run();

        assertThat(ended.endReason()).isEqualTo("max-duration");
        assertThat(CrawlOutput.read(out).urls()).containsExactly(site.url("/"));
        assertThat(pendingInCheckpoint()).containsExactly(site.url("/held"));

        CrawlOutput resumed = resumeReleased();

        assertThat(resumed.urls()).containsExactly(site.url("/"), site.url("/held"));
        assertThat(resumed.record(site.url("/held")).get("outcome").asText()).isEqualTo("fetched");
    }

    @Test
    void maxPagesLosesNoUrlInFlightAndTheResumeRecordsEachOnce() throws Exception {
        List<String> paths = new ArrayList<>(List.of("/held0", "/held1"));
        for (int i = 0; i < 10; i++) {
            paths.add("/p" + i);
        }
        site.page("/", FixtureSite.linkPage("home", paths.toArray(String[]::new)))
                .heldPage("/held0", FixtureSite.linkPage("held0"))
                .heldPage("/held1", FixtureSite.linkPage("held1"));
        for (int i = 0; i < 10; i++) {
            site.page("/p" + i, FixtureSite.linkPage("p" + i));
        }
        CrawlProfile profile = profile(site.url("/"));
        profile = profile.with(LIMITS_MAX_PAGES, 5L);

        CrawlSummary ended = new Crawler(profile, Crawler.Start.NEW, Program.CRAWLER, GRACE).run();

        assertThat(ended.endReason()).isEqualTo("max-pages");
        CrawlOutput output = CrawlOutput.read(out);
        assertThat(output.records.size()).isBetween(1, 5);
        assertThat(output.outcomes().values()).containsOnly("fetched");
        List<String> everywhere = new ArrayList<>(output.urls());
        everywhere.addAll(pendingInCheckpoint());
        assertThat(everywhere).as("every URL recorded or in the checkpoint, once").doesNotHaveDuplicates()
                .hasSize(13);

        CrawlOutput resumed = resumeReleased();

        assertThat(resumed.urls()).doesNotHaveDuplicates().hasSize(13);
        assertThat(resumed.outcomes().values()).containsOnly("fetched");
    }

    /**
     * Issue 25: a resume may change the politeness delay and the threads; its checkpoint records them before its
     * first request, so that a crash before the first periodic checkpoint does not bring back the old ones.
     */
    @Test
    void aResumeRunsWithANewDelayAndThreadsThatItsCheckpointRecordsBeforeTheFirstRequest() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/held")).heldPage("/held", FixtureSite.linkPage("held"));
        CrawlProfile profile = profile(site.url("/"));
        new Crawler(profile.with(LIMITS_MAX_PAGES, 1L), Crawler.Start.NEW, Program.CRAWLER, GRACE).run();
        CrawlProfile saved = new CheckpointStore(out).readProfile();
        CrawlProfile changed = saved.with(LIMITS_MAX_PAGES, 0L)
                .with(POLITENESS_DELAY, Duration.ofMillis(200))
                .with(FETCH_THREADS, 8);

        Crawler resumed = new Crawler(changed, Crawler.Start.RESUME, Program.CRAWLER, GRACE);
        CompletableFuture<CrawlSummary> running = runAsync(resumed);
        assertThat(site.awaitBodyStarted("/held", 30)).as("the held body started").isTrue();
        CrawlProfile recorded = new CheckpointStore(out).readProfile();
        resumed.stop();

        assertThat(recorded.politeness().delay()).isEqualTo(Duration.ofMillis(200));
        assertThat(recorded.fetch().threads()).isEqualTo(8);
        assertThat(running.get(30, TimeUnit.SECONDS).endReason()).isEqualTo("stopped");
        assertThat(new CheckpointStore(out).readProfile()).as("the final checkpoint's").isEqualTo(recorded);
    }
}
