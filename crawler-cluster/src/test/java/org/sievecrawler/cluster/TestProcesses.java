package org.sievecrawler.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileOverrides;

/**
 * The {@link ClusterRun} processes of the real broker's tests: their profile (small and fast), what they wrote in
 * their output folders (the lines of pages.jsonl, the URLs recorded), read while they run and after, and a wait for a
 * condition on them.
 *
 * <p>Stateless. Out of scope: starting and stopping the processes (the tests').
 */
final class TestProcesses {
    private TestProcesses() {
    }

    /**
     * A process's profile: its output in {@code out}, 2 fetchers, a politeness delay of 20 ms, a checkpoint and a
     * progress line every second, a Sieve sized for 30,000 URLs; then {@code sets} ({@code key=value}) applied.
     */
    static CrawlProfile profile(Path out, String... sets) {
        ProfileOverrides overrides = new ProfileOverrides()
                .set("output.dir=" + out)
                .set("fetch.threads=2")
                .set("politeness.delay=20ms")
                .set("checkpoint.interval=1s")
                .set("sieve.expected-urls=30000")
                .set("progress.interval=1s");
        for (String set : sets) {
            overrides.set(set);
        }
        return overrides.applyTo(CrawlProfile.defaults());
    }

    /** The lines of {@code out}'s pages.jsonl so far, 0 while there is none or it cannot be read. */
    static long pages(Path out) {
        try {
            Path pages = out.resolve("pages.jsonl");
            return Files.exists(pages) ? Files.readAllLines(pages).size() : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** Each URL of the pages.jsonl of the folders {@code outs}, with the times it was recorded. */
    static Map<String, Integer> recorded(Path... outs) throws IOException {
        Map<String, Integer> recorded = new HashMap<>();
        ObjectMapper json = new ObjectMapper();
        for (Path out : outs) {
            for (String line : Files.readAllLines(out.resolve("pages.jsonl"))) {
                recorded.merge(json.readTree(line).get("url").asText(), 1, Integer::sum);
            }
        }
        return recorded;
    }

    /** Each path {@code site} was asked for but /robots.txt (each owner of a host asks for it), with the times. */
    static Map<String, Integer> requested(FixtureSite site) {
        Map<String, Integer> requested = new HashMap<>();
        for (LoggedRequest request : site.requestLog()) {
            if (!request.getUrl().equals("/robots.txt")) {
                requested.merge(request.getUrl(), 1, Integer::sum);
            }
        }
        return requested;
    }

    /** Returns once {@code condition} holds, looking every 50 ms; fails naming {@code what} after {@code within}. */
    static void await(BooleanSupplier condition, Duration within, String what) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + within.toSeconds() + " s: " + what);
            }
            Thread.sleep(50);
        }
    }
}
