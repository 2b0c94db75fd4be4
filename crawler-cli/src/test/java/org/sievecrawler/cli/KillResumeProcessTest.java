package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13's bound at one kill point, across processes: a crawl killed with SIGKILL mid-way and then resumed
 * records every page, and fetches again at most the pages that were in flight at the kill, so no more than
 * {@code fetch.threads}. The site's request journal is the referee: it counts every request it received, so a
 * request in flight at the kill counts as fetched, and a page the crawl fetched but did not record counts too.
 *
 * <p>Two kill points. A crawl first stopped at {@code limits.max-pages} (a final checkpoint), resumed without the
 * limit and killed once the site has received {@value #KILL_AFTER} more requests: the resume replays the journal of
 * both runs after that checkpoint. And a new crawl killed before its first periodic checkpoint: the resume starts
 * from the checkpoint every crawl writes once its seeds are in, and replays everything from the journal. The
 * checkpoint interval is longer than the test, so without the journal the resume would fetch again everything the
 * killed run fetched (about {@value #KILL_AFTER} pages, measured before the journal: 100 of 100); with it, at most
 * the {@value #THREADS} in flight.
 *
 * <p>The graceful half of the criterion (SIGTERM then resume: no page fetched twice) is
 * {@link ResumeProcessTest#aCrawlStoppedBySigtermResumesWithoutFetchingAnyPageTwice()}.
 * What a kill costs on a real site, at ten kill points: {@code crawler-bench/kill-resume.sh}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KillResumeProcessTest {
    private static final int PAGES = 400;
    /** Per page: 4 threads then fetch at most 160 pages/s, so the kill lands mid-crawl on any machine. */
    private static final int DELAY_MILLIS = 25;
    private static final int THREADS = 4;
    private static final int FIRST_RUN = 100;
    private static final int KILL_AFTER = 100;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    private LinkedPagesSite site;
    private ChildCrawler crawler;
    private Path dir;

    @BeforeEach
    void startSite() {
        site = LinkedPagesSite.start(PAGES, DELAY_MILLIS);
        crawler = new ChildCrawler(tmp.resolve("child.log"));
        dir = tmp.resolve("crawl");
    }

    @AfterEach
    void stopSite() {
        site.close();
    }

    @Test
    void aCrawlKilledMidWayFetchesAgainAtMostThePagesInFlight() throws Exception {
        Process first = crawler.start("crawl", site.url("/"), "--profile", profile().toString(), "--out",
                dir.toString(), "--max-pages", Integer.toString(FIRST_RUN));
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).as("the first run ends at max-pages").isTrue();
        assertThat(first.exitValue()).as(crawler.output()).isZero();
        int beforeKill = site.requestCount();

        Process killed = crawler.start("crawl", "--resume", dir.toString(), "--max-pages", "0");
        awaitRequests(killed, beforeKill + KILL_AFTER);
        killed.destroyForcibly(); // SIGKILL
        assertThat(killed.waitFor(10, TimeUnit.SECONDS)).isTrue();
        int atKill = site.requestCount();
        assertThat(atKill).as("killed mid-way").isLessThan(PAGES);

        // the limit again: the last checkpoint may still be the first run's, which stopped at max-pages
        resumeToTheEnd("--max-pages", "0");
        assertEveryPageFetchedAndAtMostThoseInFlightTwice(beforeKill, atKill);
    }

    @Test
    void aNewCrawlKilledBeforeItsFirstCheckpointFetchesAgainAtMostThePagesInFlight() throws Exception {
        Process killed = crawler.start("crawl", site.url("/"), "--profile", profile().toString(), "--out",
                dir.toString());
        awaitRequests(killed, KILL_AFTER);
        killed.destroyForcibly(); // SIGKILL
        assertThat(killed.waitFor(10, TimeUnit.SECONDS)).isTrue();
        int atKill = site.requestCount();
        assertThat(atKill).as("killed mid-way").isLessThan(PAGES);

        resumeToTheEnd();
        assertEveryPageFetchedAndAtMostThoseInFlightTwice(0, atKill);
    }

    private void resumeToTheEnd(String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("crawl", "--resume", dir.toString()));
        args.addAll(List.of(options));
        Process resumed = crawler.start(args.toArray(new String[0]));
        assertThat(resumed.waitFor(40, TimeUnit.SECONDS)).as("the resumed crawl ends").isTrue();
        assertThat(resumed.exitValue()).as(crawler.output()).isZero();
    }

    private void assertEveryPageFetchedAndAtMostThoseInFlightTwice(int beforeKill, int atKill) throws IOException {

        Map<String, Integer> requests = site.requestsPerPath();
        assertThat(requests.keySet()).containsAll(site.allPaths());
        assertThat(recordedUrls()).containsAll(site.allUrls());
        Map<String, Integer> twice = new TreeMap<>();
        requests.forEach((path, count) -> {
            if (count > 1) {
                twice.put(path, count);
            }
        });
        assertThat(twice.size()).as("pages requested more than once (the first ones: %s; the killed run's"
                        + " requests: %d, the first run's: %d, the whole crawl's: %d): at most the fetch.threads (%d)"
                        + " in flight at the kill", twice.keySet().stream().limit(8).toList(), atKill - beforeKill,
                beforeKill, site.requestCount(), THREADS)
                .isLessThanOrEqualTo(THREADS);
        assertThat(twice.values()).as("no page requested more than twice").allMatch(count -> count == 2);
    }

    private Path profile() throws IOException {
        Path file = tmp.resolve("kill.yaml");
        Files.writeString(file, String.join("\n",
                "fetch:",
                "  threads: " + THREADS,
                "  allow-private-addresses: true",
                "politeness:",
                "  delay: 0s",
                "  max-connections-per-host: " + THREADS,
                "  respect-robots: false",
                "sieve:",
                "  expected-urls: 100000",
                "  max-in-memory-urls: 50", // the spill is cut by the kill too
                "checkpoint:",
                "  interval: 10m", // none while the test runs: the last one is where the first run stopped
                ""));
        return file;
    }

    private void awaitRequests(Process crawl, int requests) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (site.requestCount() < requests) {
            assertThat(crawl.isAlive()).as("the crawl runs until it is killed: %s", crawler.output()).isTrue();
            assertThat(System.nanoTime()).as("%d requests in time", requests).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    /** Every URL in pages.jsonl, in order; every line must be whole JSON. */
    private List<String> recordedUrls() throws IOException {
        List<String> urls = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("pages.jsonl"))) {
            urls.add(JSON.readTree(line).get("url").asText());
        }
        return urls;
    }
}
