package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

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

    @RegisterExtension
    final ProcessCrawl crawl = new ProcessCrawl(PAGES, DELAY_MILLIS);

    @Test
    void aCrawlKilledMidWayFetchesAgainAtMostThePagesInFlight() throws Exception {
        Process first = crawl.startNew(profile(), "--max-pages", Integer.toString(FIRST_RUN));
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).as("the first run ends at max-pages").isTrue();
        assertThat(first.exitValue()).as(crawl.output()).isZero();
        int beforeKill = crawl.site().requestCount();

        int atKill = killAfter(crawl.resume("--max-pages", "0"), beforeKill + KILL_AFTER);

        // the limit again: the last checkpoint may still be the first run's, which stopped at max-pages
        resumeToTheEnd("--max-pages", "0");
        assertEveryPageFetchedAndAtMostThoseInFlightTwice(beforeKill, atKill);
    }

    @Test
    void aNewCrawlKilledBeforeItsFirstCheckpointFetchesAgainAtMostThePagesInFlight() throws Exception {
        int atKill = killAfter(crawl.startNew(profile()), KILL_AFTER);

        resumeToTheEnd();
        assertEveryPageFetchedAndAtMostThoseInFlightTwice(0, atKill);
    }

    private void resumeToTheEnd(String... options) throws Exception {
        Process resumed = crawl.resume(options);
        assertThat(resumed.waitFor(40, TimeUnit.SECONDS)).as("the resumed crawl ends").isTrue();
        assertThat(resumed.exitValue()).as(crawl.output()).isZero();
    }

    private void assertEveryPageFetchedAndAtMostThoseInFlightTwice(int beforeKill, int atKill) throws IOException {
        Map<String, Integer> requests = crawl.site().requestsPerPath();
        assertThat(requests.keySet()).containsAll(crawl.site().allPaths());
        assertThat(crawl.recordedUrls()).containsAll(crawl.site().allUrls());
        Map<String, Integer> twice = new TreeMap<>();
        requests.forEach((path, count) -> {
            if (count > 1) {
                twice.put(path, count);
            }
        });
        assertThat(twice.size()).as("pages requested more than once (the first ones: %s; the killed run's"
                        + " requests: %d, the first run's: %d, the whole crawl's: %d): at most the fetch.threads (%d)"
                        + " in flight at the kill", twice.keySet().stream().limit(8).toList(), atKill - beforeKill,
                beforeKill, crawl.site().requestCount(), THREADS)
                .isLessThanOrEqualTo(THREADS);
        assertThat(twice.values()).as("no page requested more than twice").allMatch(count -> count == 2);
    }

    /** No checkpoint while the test runs: the last one is where the first run stopped (or the seeds' one). */
    private Path profile() throws IOException {
        return crawl.profile(THREADS, "10m");
    }

    /** Kills {@code running} with SIGKILL once the site has received {@code requests}; the requests at the kill. */
    private int killAfter(Process running, int requests) throws Exception {
        crawl.awaitRequests(running, requests);
        running.destroyForcibly(); // SIGKILL
        assertThat(running.waitFor(10, TimeUnit.SECONDS)).isTrue();
        int atKill = crawl.site().requestCount();
        assertThat(atKill).as("killed mid-way").isLessThan(PAGES);
        return atKill;
    }
}
