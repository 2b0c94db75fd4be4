package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sievecrawler.checkpoint.Checkpoint;
import org.sievecrawler.checkpoint.CheckpointStore;

/**
 * A crawl in a child JVM, killed part-way (SIGKILL, or SIGTERM for a graceful stop) after a checkpoint, then
 * resumed in another child JVM; the site's request journal tells what was fetched and how often. The profile
 * keeps only 50 pending URLs in memory, so the spill is cut and resumed too. The children hear SIGINT even when
 * this JVM inherited it as ignored ({@link ChildCrawler}).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ResumeProcessTest {
    private static final int PAGES = 2_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final ProcessCrawl crawl = new ProcessCrawl(PAGES, 10);

    @Test
    void aCrawlKilledAfterACheckpointResumesAndRefetchesOnlyWhatCameAfterIt() throws Exception {
        Process first = crawl.startNew(profile());
        awaitCheckpointAndPages(first, 300);
        first.destroyForcibly(); // SIGKILL
        first.waitFor(10, TimeUnit.SECONDS);
        Set<String> doneBeforeCheckpoint = urlsRecordedBeforeCheckpoint();
        int requestsBeforeResume = crawl.site().requestCount();

        Process resumed = crawl.resume();
        assertThat(resumed.waitFor(60, TimeUnit.SECONDS)).as("the resumed crawl ends").isTrue();

        assertThat(resumed.exitValue()).as(crawl.output()).isZero();
        Map<String, Integer> requests = crawl.site().requestsPerPath();
        assertThat(requests.keySet()).containsAll(crawl.site().allPaths());
        List<String> twice = requests.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                .toList();
        assertThat(twice).as("pages fetched twice were not done at the checkpoint")
                .noneMatch(path -> doneBeforeCheckpoint.contains(crawl.site().url(path)));
        assertThat(requests.values()).allMatch(count -> count <= 2);
        assertThat(requestsBeforeResume).isLessThan(PAGES);
        assertThat(crawl.recordedUrls()).containsAll(crawl.site().allUrls());
    }

    @Test
    void aCrawlStoppedBySigtermResumesWithoutFetchingAnyPageTwice() throws Exception {
        Process first = crawl.startNew(profile());
        awaitCheckpointAndPages(first, 300);
        first.destroy(); // SIGTERM: a graceful stop and a last checkpoint
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(first.exitValue()).as(crawl.output()).isEqualTo(143); // 128 + SIGTERM, the JVM's own exit code
        assertThat(crawl.output()).as("the way to stop at once after a SIGTERM")
                .contains("(kill " + first.pid() + " again to stop at once)").doesNotContain("Ctrl-C");
        assertThat(new CheckpointStore(crawl.dir()).read().state()).isEqualTo(Checkpoint.State.STOPPED);

        Process resumed = crawl.resume();
        assertThat(resumed.waitFor(60, TimeUnit.SECONDS)).as("the resumed crawl ends").isTrue();

        assertThat(resumed.exitValue()).as(crawl.output()).isZero();
        Map<String, Integer> requests = crawl.site().requestsPerPath();
        assertThat(requests.keySet()).containsAll(crawl.site().allPaths());
        assertThat(requests.entrySet()).filteredOn(e -> e.getValue() > 1).isEmpty();
        assertThat(crawl.recordedUrls()).hasSize(PAGES + 1).doesNotHaveDuplicates();
        assertThat(crawl.recordedOutcomes()).as("nothing in flight at the stop recorded as an error")
                .containsOnly("fetched");

        Process again = crawl.resume();
        assertThat(again.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(again.exitValue()).isEqualTo(2);
        assertThat(crawl.output()).contains("already finished");
    }

    @Test
    void aSecondCtrlCStopsAtOnceWithExitCode130AndLeavesWholeOutputToResumeFrom() throws Exception {
        assumeThat(ChildCrawler.hearsSigint()).as("the crawl can hear SIGINT: this JVM inherited it as ignored, and"
                + " there is no perl to start the crawl with it restored (apt-get install perl-base)").isTrue();
        Process first = crawl.startNew(profile());
        awaitCheckpointAndPages(first, 300);
        crawl.site().delayPages(30_000);
        String pid = Long.toString(first.pid());

        interrupt(pid); // Ctrl-C: a graceful stop, which waits for the requests now hanging
        awaitOutput("stopping:");
        assertThat(crawl.output()).contains("(Ctrl-C again to stop at once)");
        interrupt(pid); // Ctrl-C again: at once

        assertThat(first.waitFor(5, TimeUnit.SECONDS)).as("ends well before the grace period: %s", crawl.output())
                .isTrue();
        assertThat(first.exitValue()).as(crawl.output()).isEqualTo(130);
        assertThat(crawl.output()).contains("resume with: crawler crawl --resume " + crawl.dir(), "stopped at once");
        List<String> recorded = crawl.recordedUrls(); // every line whole JSON
        assertThat(recorded).doesNotHaveDuplicates();
        assertThat(new CheckpointStore(crawl.dir()).read().pagesBytes()).isLessThanOrEqualTo(Files.size(
                crawl.dir().resolve("pages.jsonl")));

        crawl.site().delayPages(0);
        Process resumed = crawl.resume();
        assertThat(resumed.waitFor(60, TimeUnit.SECONDS)).as("the resumed crawl ends").isTrue();
        assertThat(resumed.exitValue()).as(crawl.output()).isZero();
        assertThat(crawl.recordedUrls()).containsAll(crawl.site().allUrls());
        assertThat(crawl.recordedOutcomes()).as("the requests hanging at the halt recorded as fetched, on resume")
                .containsOnly("fetched");
    }

    /** Sends SIGINT, as Ctrl-C in a terminal does. */
    private static void interrupt(String pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-INT", pid).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
    }

    private void awaitOutput(String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!crawl.output().contains(text)) {
            assertThat(System.nanoTime()).as("\"%s\" in the output: %s", text, crawl.output()).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private Path profile() throws IOException {
        return crawl.profile(8, "500ms");
    }

    private void awaitCheckpointAndPages(Process running, int pages) throws Exception {
        Path manifest = new CheckpointStore(crawl.dir()).manifest();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        while (!(Files.exists(manifest) && crawl.site().requestCount() >= pages)) {
            assertThat(running.isAlive()).as("the crawl runs until it is stopped: %s", crawl.output()).isTrue();
            assertThat(System.nanoTime()).as("a checkpoint and %d pages in time", pages).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /** The URLs whose records lie within the pages.jsonl length the last checkpoint saved. */
    private Set<String> urlsRecordedBeforeCheckpoint() throws Exception {
        long length = new CheckpointStore(crawl.dir()).read().pagesBytes();
        byte[] bytes = Files.readAllBytes(crawl.dir().resolve("pages.jsonl"));
        String prefix = new String(bytes, 0, (int) Math.min(length, bytes.length), StandardCharsets.UTF_8);
        Set<String> urls = new HashSet<>();
        for (String line : prefix.split("\n")) {
            if (!line.isBlank()) {
                urls.add(JSON.readTree(line).get("url").asText());
            }
        }
        return urls;
    }
}
