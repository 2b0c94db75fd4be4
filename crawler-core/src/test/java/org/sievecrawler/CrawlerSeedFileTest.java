package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_MAX_DEPTH;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_MAX_IN_MEMORY_URLS;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.checkpoint.Checkpoint;
import org.sievecrawler.checkpoint.CheckpointStore;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.seed.SeedPosition;
import org.sievecrawler.shell.Program;

/**
 * Crawls from a seed file streamed into the crawl ({@code --seeds FILE}): the first fetch before the file is read
 * to its end, a checkpoint that keeps the position and not the seeds, and a resume that goes on reading the
 * crawl's copy. The seeds are pages the fixture site does not have (a 404 each, recorded), depth 0 only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CrawlerSeedFileTest {
    @TempDir
    Path dir;
    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSite() {
        site.close();
    }

    @Test
    void aSeedFileOf200000LinesIsFetchedFromBeforeItIsReadToItsEndAndResumedWhereItWasOffered() throws Exception {
        Path seeds = seedFile(200_000);
        Path out = dir.resolve("out");

        CrawlOutput first = crawl(profile(out).with(LIMITS_MAX_PAGES, 1L), Optional.of(seeds), Crawler.Start.NEW);

        assertThat(first.summary.get("endReason").asText()).isEqualTo("max-pages");
        Checkpoint stopped = new CheckpointStore(out).read();
        assertThat(stopped.seeds().hasFile()).isTrue();
        assertThat(stopped.seeds().atEnd()).as("the first page was fetched before the file was offered to its end")
                .isFalse();
        assertThat(stopped.profile().seeds()).isEmpty();
        assertThat(Files.size(out.resolve("checkpoint/seeds.txt"))).isEqualTo(Files.size(seeds));
        try (var folders = Files.list(out.resolve("checkpoint"))) {
            for (Path folder : folders.filter(Files::isDirectory).toList()) {
                assertThat(Files.size(folder.resolve("profile.yaml"))).as("the checkpoint's profile holds no seeds")
                        .isLessThan(16 * 1024);
            }
        }

        Files.delete(seeds); // a resume reads the crawl's copy
        CrawlOutput resumed = crawl(new CheckpointStore(out).readProfile().with(LIMITS_MAX_PAGES, 2_000L),
                Optional.empty(), Crawler.Start.RESUME);

        assertThat(resumed.summary.get("endReason").asText()).isEqualTo("max-pages");
        SeedPosition after = new CheckpointStore(out).read().seeds();
        assertThat(after.offset()).isGreaterThanOrEqualTo(stopped.seeds().offset());
        Map<String, Long> requests = seedRequests();
        assertThat(requests.values()).as("no seed fetched twice").allMatch(count -> count == 1);
        assertThat(requests).hasSizeGreaterThanOrEqualTo(2_000);
        assertThat(resumed.urls()).doesNotHaveDuplicates();
    }

    @Test
    void aStoppedCrawlOfASeedFileResumesAndFetchesEverySeedOnce() throws Exception {
        Path seeds = seedFile(3_000);
        Path out = dir.resolve("out");

        crawl(profile(out).with(LIMITS_MAX_PAGES, 700L), Optional.of(seeds), Crawler.Start.NEW);
        CrawlOutput done = crawl(new CheckpointStore(out).readProfile().with(LIMITS_MAX_PAGES, 0L), Optional.empty(),
                Crawler.Start.RESUME);

        assertThat(done.summary.get("endReason").asText()).isEqualTo("finished");
        Map<String, Long> requests = seedRequests();
        assertThat(requests).hasSize(3_000);
        assertThat(requests.values()).allMatch(count -> count == 1);
        assertThat(done.urls()).hasSize(3_000).doesNotHaveDuplicates();
    }

    private CrawlProfile profile(Path out) {
        return CrawlProfile.defaults().with(POLITENESS_DELAY, Duration.ZERO)
                .with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4).with(FETCH_THREADS, 4).with(SCOPE_MAX_DEPTH, 0)
                .with(SIEVE_EXPECTED_URLS, 1_000_000L).with(SIEVE_MAX_IN_MEMORY_URLS, 1_000).with(OUTPUT_DIR, out);
    }

    private static CrawlOutput crawl(CrawlProfile profile, Optional<Path> seeds, Crawler.Start start)
            throws Exception {
        new Crawler(profile, seeds, start, Program.CRAWLER, Duration.ofSeconds(5)).run();
        return CrawlOutput.read(profile.output().dir());
    }

    /** {@code count} seeds on the site, /s/0 to /s/{count-1}, with a comment and a bad line among them. */
    private Path seedFile(int count) throws IOException {
        Path file = dir.resolve("seeds.txt");
        try (Writer writer = Files.newBufferedWriter(file)) {
            writer.write("# seeds of the fixture site\nnot a url\n");
            for (int i = 0; i < count; i++) {
                writer.write(site.url("/s/" + i) + "\n");
            }
        }
        return file;
    }

    /** The site's requests of seeds, by path. */
    private Map<String, Long> seedRequests() {
        return site.requestLog().stream().map(LoggedRequest::getUrl).filter(url -> url.startsWith("/s/"))
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }
}
