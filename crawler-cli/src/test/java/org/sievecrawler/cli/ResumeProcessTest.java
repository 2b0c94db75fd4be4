package org.sievecrawler.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
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
import org.sievecrawler.fixtures.FixtureSite;

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
    private WireMockServer site;
    private Path dir;

    /**
     * Renders page i of the site from its path, so one stub serves all of them: WireMock matches a request
     * against every stub in turn, and 2,000 stubs would make it the bottleneck of the crawl.
     */
    private static final class Pages implements ResponseDefinitionTransformerV2 {
        @Override
        public ResponseDefinition transform(ServeEvent serveEvent) {
            String path = serveEvent.getRequest().getUrl();
            int i = Integer.parseInt(path.substring("/p/".length()));
            return ResponseDefinitionBuilder.like(serveEvent.getResponseDefinition())
                    .withBody(FixtureSite.linkPage("p" + i, "/p/" + (i + 1) % PAGES, "/p/" + (i * 7 + 3) % PAGES,
                            "/p/" + (i * 31 + 11) % PAGES, "/"))
                    .build();
        }

        @Override
        public boolean applyGlobally() {
            return false;
        }

        @Override
        public String getName() {
            return "pages";
        }
    }

    @BeforeEach
    void startSite() {
        site = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1").dynamicPort()
                .containerThreads(32).jettyAcceptors(2).extensions(new Pages()));
        site.start();
        site.stubFor(get(urlPathEqualTo("/")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "text/html; charset=utf-8")
                .withBody(FixtureSite.linkPage("home", "/p/0"))));
        site.stubFor(get(urlPathMatching("/p/[0-9]+")).willReturn(aResponse().withStatus(200).withFixedDelay(10)
                .withHeader("Content-Type", "text/html; charset=utf-8").withTransformers("pages")));
        dir = tmp.resolve("crawl");
    }

    @AfterEach
    void stopSite() {
        site.stop();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + site.port() + path;
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
        site.stubFor(get(urlPathMatching("/p/[0-9]+")).willReturn(aResponse().withStatus(200).withFixedDelay(30_000)
                .withHeader("Content-Type", "text/html; charset=utf-8").withTransformers("pages")));
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

        site.stubFor(get(urlPathMatching("/p/[0-9]+")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "text/html; charset=utf-8").withTransformers("pages")));
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

    /** Starts {@code crawler ARGS} in a child JVM, its output to a file in the temporary folder. */
    private Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", // a quicker start for a short crawl
                "-cp", System.getProperty("java.class.path"), "org.sievecrawler.cli.Main"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(tmp.resolve("child.log").toFile())).start();
    }

    private String output() throws IOException {
        Path log = tmp.resolve("child.log");
        return Files.exists(log) ? Files.readString(log) : "";
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
        return site.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount();
    }

    private Map<String, Integer> requestsPerPath() {
        Map<String, Integer> counts = new HashMap<>();
        for (LoggedRequest request : site.findAll(anyRequestedFor(anyUrl()))) {
            counts.merge(request.getUrl(), 1, Integer::sum);
        }
        return counts;
    }

    private static List<String> allPaths() {
        List<String> paths = new ArrayList<>(List.of("/"));
        for (int i = 0; i < PAGES; i++) {
            paths.add("/p/" + i);
        }
        return paths;
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
