package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sievecrawler.checkpoint.Checkpoint;
import org.sievecrawler.checkpoint.CheckpointStore;

/**
 * A crawl of a seed file of 20,000 pages in a child JVM, stopped by SIGTERM part-way and resumed in another after
 * the user's seed file is gone (the crawl reads its own copy): every seed is fetched exactly once, and the
 * checkpoint holds the seed file's position, not its seeds. Depth 0: only the seeds are fetched.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SeedFileProcessTest {
    private static final int SEEDS = 20_000;

    @RegisterExtension
    final ProcessCrawl crawl = new ProcessCrawl(SEEDS, 0);

    @Test
    void aStoppedCrawlOf20000SeedsResumesAndFetchesEverySeedOnce() throws Exception {
        Path seeds = crawl.dir().resolveSibling("seeds.txt");
        try (Writer writer = Files.newBufferedWriter(seeds)) {
            writer.write("# every page of the site, not its home page\n");
            for (int i = 0; i < SEEDS; i++) {
                writer.write(crawl.site().url("/p/" + i) + "\n");
            }
        }
        Path profile = crawl.profile(8, "500ms");
        Files.writeString(profile, Files.readString(profile) + "scope:\n  max-depth: 0\nlimits:\n"
                + "  max-pages-per-host: 0\n"); // the seeds, all on one host, all admitted

        Process first = crawl.startWithSeeds(profile, seeds);
        Path manifest = new CheckpointStore(crawl.dir()).manifest();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(manifest) && crawl.site().requestCount() >= 3_000)) {
            assertThat(first.isAlive()).as("the crawl runs until it is stopped: %s", crawl.output()).isTrue();
            assertThat(System.nanoTime()).as("a checkpoint and 3,000 pages in time").isLessThan(deadline);
            Thread.sleep(20);
        }
        first.destroy(); // SIGTERM: a graceful stop and a last checkpoint
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(first.exitValue()).as(crawl.output()).isEqualTo(143);
        Checkpoint stopped = new CheckpointStore(crawl.dir()).read();
        assertThat(stopped.state()).isEqualTo(Checkpoint.State.STOPPED);
        assertThat(stopped.profile().seeds()).as("the seed file is not copied into the checkpoint's profile").isEmpty();
        assertThat(stopped.seeds().hasFile()).isTrue();
        int fetchedBefore = crawl.site().requestCount();
        assertThat(fetchedBefore).isLessThan(SEEDS);

        Files.delete(seeds);
        Process resumed = crawl.resume();
        assertThat(resumed.waitFor(120, TimeUnit.SECONDS)).as("the resumed crawl ends").isTrue();

        assertThat(resumed.exitValue()).as(crawl.output()).isZero();
        Map<String, Integer> requests = crawl.site().requestsPerPath();
        assertThat(requests.containsKey("/")).isFalse();
        assertThat(requests.size()).isEqualTo(SEEDS);
        assertThat(requests.entrySet()).filteredOn(e -> e.getValue() > 1).as("seeds fetched twice").isEmpty();
        List<String> recorded = crawl.recordedUrls();
        assertThat(recorded.size()).isEqualTo(SEEDS);
        assertThat(new HashSet<>(recorded).size()).as("no seed recorded twice").isEqualTo(SEEDS);
        assertThat(crawl.output()).doesNotContain("Exception");
    }
}
