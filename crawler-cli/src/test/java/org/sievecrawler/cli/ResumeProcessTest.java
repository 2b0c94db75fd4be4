package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.checkpoint.Checkpoint;
import org.sievecrawler.checkpoint.CheckpointStore;

/**
 * A crawl in a child JVM, killed part-way (SIGKILL, or SIGTERM for a graceful stop) after a checkpoint, then
 * resumed in another child JVM; the site's request journal tells what was fetched and how often. The profile
 * keeps only 50 pending URLs in memory, so the spill is cut and resumed too.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ResumeProcessTest {
    private static final int PAGES = 2_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    private LinkedPagesSite site;
    private ChildCrawler crawler;
    private Path dir;

    @BeforeEach
    void startSite() {
        site = LinkedPagesSite.start(PAGES, 10);
        crawler = new ChildCrawler(tmp.resolve("child.log"));
        dir = tmp.resolve("crawl");
    }

    @AfterEach
    void stopSite() {
        site.close();
    }

    private String url(String path) {
        return site.url(path);
    }

    @Test
    void aCrawlKilledAfterACheckpointResumesAndRefetchesOnlyWhatCameAfterIt() throws Exception {
        Process crawl = start("crawl", url("/"), "--profile", profile().toString(), "--out", dir.toString());
        awaitCheckpointAndPages(crawl, 300);
        crawl.destroyForcibly(); // SIGKILL
        crawl.waitFor(10, TimeUnit.SECONDS);
        Set<String> doneBeforeCheckpoint = urlsRecordedBeforeCheckpoint();
        int requestsBeforeResume = requestCount();

        Process resumed = start("crawl", "--resume", dir.toString());
        assertThat(resumed.waitFor(60, TimeUnit.SECONDS)).as("the resumed crawl ends").isTrue();

        assertThat(resumed.exitValue()).as(output()).isZero();
        Map<String, Integer> requests = requestsPerPath();
        assertThat(requests.keySet()).containsAll(allPaths());
        List<String> twice = requests.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                .toList();
        assertThat(twice).as("pages fetched twice were not done at the checkpoint")
                .noneMatch(path -> doneBeforeCheckpoint.contains(url(path)));
        assertThat(requests.values()).allMatch(count -> count <= 2);
        assertThat(requestsBeforeResume).isLessThan(PAGES);
        assertThat(recordedUrls()).containsAll(allPaths().stream().map(this::url).toList());
    }

    @Test
    void aCrawlStoppedBySigtermResumesWithoutFetchingAnyPageTwice() throws Exception {
        Process crawl = start("crawl", url("/"), "--profile", profile().toString(), "--out", dir.toString());
        awaitCheckpointAndPages(crawl, 300);
        crawl.destroy(); // SIGTERM: a graceful stop and a last checkpoint
        assertThat(crawl.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(crawl.exitValue()).as(output()).isEqualTo(143); // 128 + SIGTERM, the JVM's own exit code
        assertThat(new CheckpointStore(dir).read().state()).isEqualTo(Checkpoint.State.STOPPED);

        Process resumed = start("crawl", "--resume", dir.toString());
        assertThat(resumed.waitFor(60, TimeUnit.SECONDS)).as("the resumed crawl ends").isTrue();

        assertThat(resumed.exitValue()).as(output()).isZero();
        Map<String, Integer> requests = requestsPerPath();
        assertThat(requests.keySet()).containsAll(allPaths());
        assertThat(requests.entrySet()).filteredOn(e -> e.getValue() > 1).isEmpty();
        assertThat(recordedUrls()).hasSize(PAGES + 1).doesNotHaveDuplicates();
        assertThat(recordedOutcomes()).as("nothing in flight at the stop recorded as an error").containsOnly("fetched");

        Process again = start("crawl", "--resume", dir.toString());
        assertThat(again.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(again.exitValue()).isEqualTo(2);
        assertThat(output()).contains("already finished");
    }

    @Test
    void aSecondCtrlCStopsAtOnceWithExitCode130AndLeavesWholeOutputToResumeFrom() throws Exception {
        Process crawl = start("crawl", url("/"), "--profile", profile().toString(), "--out", dir.toString());
        awaitCheckpointAndPages(crawl, 300);
        site.delayPages(30_000);
        String pid = Long.toString(crawl.pid());

        interrupt(pid); // Ctrl-C: a graceful stop, which waits for the requests now hanging
        awaitOutput("stopping:");
        interrupt(pid); // Ctrl-C again: at once

        assertThat(crawl.waitFor(5, TimeUnit.SECONDS)).as("ends well before the grace period: %s", output()).isTrue();
        assertThat(crawl.exitValue()).as(output()).isEqualTo(130);
        assertThat(output()).contains("resume with: crawler crawl --resume " + dir, "stopped at once");
        List<String> recorded = recordedUrls(); // every line whole JSON
        assertThat(recorded).doesNotHaveDuplicates();
        assertThat(new CheckpointStore(dir).read().pagesBytes()).isLessThanOrEqualTo(Files.size(
                dir.resolve("pages.jsonl")));

        site.delayPages(0);
        Process resumed = start("crawl", "--resume", dir.toString());
        assertThat(resumed.waitFor(60, TimeUnit.SECONDS)).as("the resumed crawl ends").isTrue();
        assertThat(resumed.exitValue()).as(output()).isZero();
        assertThat(recordedUrls()).containsAll(allPaths().stream().map(this::url).toList());
        assertThat(recordedOutcomes()).as("the requests hanging at the halt recorded as fetched, on resume")
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
        while (!output().contains(text)) {
            assertThat(System.nanoTime()).as("\"%s\" in the output: %s", text, output()).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private Path profile() throws IOException {
        Path file = tmp.resolve("resume.yaml");
        Files.writeString(file, String.join("\n",
                "fetch:",
                "  threads: 8",
                "  allow-private-addresses: true",
                "politeness:",
                "  delay: 0s",
                "  max-connections-per-host: 8",
                "  respect-robots: false",
                "sieve:",
                "  expected-urls: 100000",
                "  max-in-memory-urls: 50",
                "checkpoint:",
                "  interval: 500ms",
                ""));
        return file;
    }

    private Process start(String... args) throws IOException {
        return crawler.start(args);
    }

    private String output() throws IOException {
        return crawler.output();
    }

    private void awaitCheckpointAndPages(Process crawl, int pages) throws Exception {
        Path manifest = new CheckpointStore(dir).manifest();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        while (!(Files.exists(manifest) && requestCount() >= pages)) {
            assertThat(crawl.isAlive()).as("the crawl runs until it is stopped: %s", output()).isTrue();
            assertThat(System.nanoTime()).as("a checkpoint and %d pages in time", pages).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private int requestCount() {
        return site.requestCount();
    }

    private Map<String, Integer> requestsPerPath() {
        return site.requestsPerPath();
    }

    private List<String> allPaths() {
        return site.allPaths();
    }

    /** The URLs whose records lie within the pages.jsonl length the last checkpoint saved. */
    private Set<String> urlsRecordedBeforeCheckpoint() throws Exception {
        long length = new CheckpointStore(dir).read().pagesBytes();
        byte[] bytes = Files.readAllBytes(dir.resolve("pages.jsonl"));
        String prefix = new String(bytes, 0, (int) Math.min(length, bytes.length), StandardCharsets.UTF_8);
        Set<String> urls = new HashSet<>();
        for (String line : prefix.split("\n")) {
            if (!line.isBlank()) {
                urls.add(JSON.readTree(line).get("url").asText());
            }
        }
        return urls;
    }

    /** Every URL in pages.jsonl, in order; every line must be whole JSON. */
    /** The outcomes in pages.jsonl, each once. */
    private Set<String> recordedOutcomes() throws IOException {
        Set<String> outcomes = new java.util.TreeSet<>();
        for (String line : Files.readAllLines(dir.resolve("pages.jsonl"))) {
            outcomes.add(JSON.readTree(line).get("outcome").asText());
        }
        return outcomes;
    }

    private List<String> recordedUrls() throws IOException {
        List<String> urls = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("pages.jsonl"))) {
            JsonNode record = JSON.readTree(line);
            urls.add(record.get("url").asText());
        }
        return urls;
    }
}
