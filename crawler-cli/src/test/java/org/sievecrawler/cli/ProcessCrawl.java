package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A crawl run as a user runs it, in child JVMs ({@link ChildCrawler}), against a {@link LinkedPagesSite}, into a
 * folder {@link #dir()}: the fixture of the process-level kill and resume tests, a JUnit extension they register
 * with {@code @RegisterExtension}. Before each test it makes a temporary folder (the crawl's folder, the children's
 * log and the profile are in it) and starts the site; after it, it stops the site and deletes the folder.
 *
 * <p>Not thread-safe: the test's thread uses it while the crawl runs in its child JVM. Killing, signalling and
 * waiting for the children is the test's.
 */
final class ProcessCrawl implements BeforeEachCallback, AfterEachCallback {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final int pages;
    private final int delayMillis;
    private Path folder;
    private LinkedPagesSite site;
    private ChildCrawler crawler;

    /** A site of {@code pages} pages, each answering after {@code delayMillis}. */
    ProcessCrawl(int pages, int delayMillis) {
        this.pages = pages;
        this.delayMillis = delayMillis;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        folder = Files.createTempDirectory("process-crawl");
        site = LinkedPagesSite.start(pages, delayMillis);
        crawler = new ChildCrawler(folder.resolve("child.log"));
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        site.close();
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** The site the test's crawls fetch. */
    LinkedPagesSite site() {
        return site;
    }

    /** The crawl's folder ({@code --out}, {@code --resume}). */
    Path dir() {
        return folder.resolve("crawl");
    }

    /** Starts a new crawl of the site from {@code /} into {@link #dir()} with {@code profile}, in a child JVM. */
    Process startNew(Path profile, String... options) throws IOException {
        return start(List.of("crawl", site.url("/"), "--profile", profile.toString(), "--out", dir().toString()),
                options);
    }

    /** Starts a new crawl from the seed file {@code seeds} alone into {@link #dir()} with {@code profile}. */
    Process startWithSeeds(Path profile, Path seeds, String... options) throws IOException {
        return start(List.of("crawl", "--seeds", seeds.toString(), "--profile", profile.toString(), "--out",
                dir().toString()), options);
    }

    /** Starts {@code crawl --resume} of {@link #dir()} in a child JVM. */
    Process resume(String... options) throws IOException {
        return start(List.of("crawl", "--resume", dir().toString()), options);
    }

    private Process start(List<String> command, String... options) throws IOException {
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of(options));
        return crawler.start(args.toArray(new String[0]));
    }

    /** Waits (up to 30 s) until the site has received {@code requests}, failing if {@code running} ends first. */
    void awaitRequests(Process running, int requests) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (site.requestCount() < requests) {
            assertThat(running.isAlive()).as("the crawl runs until it is killed: %s", output()).isTrue();
            assertThat(System.nanoTime()).as("%d requests in time", requests).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    /** Everything the children have written so far. */
    String output() throws IOException {
        return crawler.output();
    }

    /**
     * Writes a profile for the site and returns its file: {@code threads} fetch threads and as many connections to
     * the site, no delay, robots.txt not asked for, a checkpoint every {@code checkpointInterval}; and only 50
     * pending URLs in memory, so the spill is cut by a kill and resumed too.
     */
    Path profile(int threads, String checkpointInterval) throws IOException {
        Path file = folder.resolve("profile.yaml");
        Files.writeString(file, String.join("\n",
                "fetch:",
                "  threads: " + threads,
                "  allow-private-addresses: true",
                "politeness:",
                "  delay: 0s",
                "  max-connections-per-host: " + threads,
                "  respect-robots: false",
                "sieve:",
                "  expected-urls: 100000",
                "  max-in-memory-urls: 50",
                "checkpoint:",
                "  interval: " + checkpointInterval,
                ""));
        return file;
    }

    /** Every URL in pages.jsonl, in order; every line must be whole JSON. */
    List<String> recordedUrls() throws IOException {
        return records().stream().map(record -> record.get("url").asText()).toList();
    }

    /** The outcomes in pages.jsonl, each once. */
    Set<String> recordedOutcomes() throws IOException {
        return records().stream().map(record -> record.get("outcome").asText())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private List<JsonNode> records() throws IOException {
        List<JsonNode> records = new ArrayList<>();
        for (String line : Files.readAllLines(dir().resolve("pages.jsonl"))) {
            records.add(JSON.readTree(line));
        }
        return records;
    }
}
