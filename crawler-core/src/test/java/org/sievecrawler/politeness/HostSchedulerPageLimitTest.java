package org.sievecrawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_ROBOTS_RETRY;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sievecrawler.fixtures.FakeClock;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.robots.RobotsRules;
import org.sievecrawler.sieve.PendingUrl;

/**
 * The {@link HostScheduler}'s page limit ({@link LimitGate}) at the end of a broad crawl: every host whose robots.txt
 * is handed out is handed a first page before the crawl stops at {@code limits.max-pages}, and no more first attempts
 * than the limit are handed out. Fetchers are simulated on a fake clock, with seeded random request times, outcomes
 * and the order in which fetcher threads count the pages they took ({@code FetchWorker}'s count is not the order
 * the scheduler handed them out in).
 */
class HostSchedulerPageLimitTest {
    private static final Duration DELAY = Duration.ofSeconds(1);
    private static final Duration ROBOTS_RETRY = Duration.ofSeconds(2);
    private static final int THREADS = 32;

    private final FakeClock clock = new FakeClock();

    private static PolitenessConfig config() {
        return CrawlProfile.defaults().with(POLITENESS_DELAY, DELAY).with(POLITENESS_ROBOTS_RETRY, ROBOTS_RETRY)
                .politeness();
    }

    /** What a simulated crawl did: hosts whose robots.txt was requested, hosts with a page taken, counts. */
    private record Run(Set<String> robots, Set<String> paged, long handedFirstAttempts, long taken, boolean ended) {
    }

    @Test
    void everyHostWhoseRobotsTxtIsFetchedGetsAPageBeforeTheLimitStopsTheCrawl() {
        for (long seed = 1; seed <= 20; seed++) {
            Run run = crawl(new Random(seed), 300, 0.0, 0.0);
            assertThat(run.ended).as("seed %d: the crawl stopped at its page limit", seed).isTrue();
            assertThat(run.robots).as("seed %d: hosts with robots.txt and no page", seed).isSubsetOf(run.paged);
            assertThat(run.taken).as("seed %d: pages taken", seed).isEqualTo(300);
            assertThat(run.handedFirstAttempts).as("seed %d: first attempts handed out", seed).isEqualTo(300);
        }
    }

    /** robots.txt answering 5xx (tried again) or not reached (retried), pages retried: the same, and no stall. */
    @Test
    void robotsTxtFailuresAndRetriesNeitherLoseAHostsPageNorStallTheCrawl() {
        for (long seed = 1; seed <= 20; seed++) {
            Run run = crawl(new Random(seed), 300, 0.15, 0.05);
            assertThat(run.ended).as("seed %d: the crawl stopped at its page limit (no stall)", seed).isTrue();
            assertThat(run.robots).as("seed %d: hosts with robots.txt and no page", seed).isSubsetOf(run.paged);
            assertThat(run.taken).as("seed %d: pages taken", seed).isEqualTo(300);
            assertThat(run.handedFirstAttempts).as("seed %d: first attempts handed out", seed).isEqualTo(300);
        }
    }

    /**
     * The smallest stall: the limit's last page held by a host whose robots.txt answered 5xx; its robots.txt must be
     * asked again (it already holds its page), and then its page handed out.
     */
    @Test
    void aHostHoldingTheLastPageGetsItsRobotsTxtAgainAfterA5xx() {
        HostScheduler hosts = new HostScheduler(config(), clock, SchedulerLimits.of(100_000, THREADS));
        hosts.limitPages(1);
        hosts.add(PendingUrl.seed("https://a.example/1"));
        hosts.add(PendingUrl.seed("https://b.example/1"));
        PendingUrl robots = hosts.poll();
        assertThat(robots.isRobots()).isTrue();
        assertThat(hosts.poll()).as("the limit's one page is held by a's robots.txt").isNull();

        hosts.robotsFetched(robots, RobotsRules.unreachable("503"));
        clock.advance(ROBOTS_RETRY);
        PendingUrl again = hosts.poll();
        assertThat(again).as("robots.txt asked again").isNotNull();
        assertThat(again.url()).isEqualTo(robots.url());
        assertThat(again.isRobots()).isTrue();

        hosts.robotsFetched(again, RobotsRules.allowAll("test"));
        clock.advance(DELAY);
        PendingUrl page = hosts.poll();
        assertThat(page.url()).isEqualTo("https://a.example/1");
        assertThat(hosts.poll()).as("nothing past the limit").isNull();
    }

    /** A robots.txt not reached (retried) keeps its host's page: the host gets its robots.txt again, then its page. */
    @Test
    void aHostWhoseRobotsTxtIsRetriedKeepsItsPage() {
        HostScheduler hosts = new HostScheduler(config(), clock, SchedulerLimits.of(100_000, THREADS));
        hosts.limitPages(1);
        hosts.add(PendingUrl.seed("https://a.example/1"));
        hosts.add(PendingUrl.seed("https://b.example/1"));
        PendingUrl robots = hosts.poll();
        hosts.retryRobots(robots, ROBOTS_RETRY);
        assertThat(hosts.poll()).as("b's robots.txt would take a's page").isNull();
        clock.advance(ROBOTS_RETRY);
        PendingUrl again = hosts.poll();
        assertThat(again.url()).isEqualTo(robots.url());
        hosts.robotsFetched(again, RobotsRules.allowAll("test"));
        clock.advance(DELAY);
        assertThat(hosts.poll().url()).isEqualTo("https://a.example/1");
        assertThat(hosts.poll()).isNull();
    }

    /**
     * Simulates {@value #THREADS} fetchers on 3,000 new hosts of 1 to 4 URLs (and 20 known hosts with 40 ready pages
     * each, competing for the last pages), with a limit of {@code maxPages}: requests take 20-300 ms; a robots.txt
     * answers 5xx with probability {@code robotsFailure} (half of those: not reached, retried), a page is retried
     * with {@code pageRetry}. Each 10 ms tick completes the requests due (in random order) and hands out tasks to
     * the idle fetchers, which then count their pages in random order, as {@code FetchWorker} does: a first attempt
     * past the limit is put back and ends the crawl, the one reaching it is taken and ends it. Stops at the end, or
     * after 10 minutes of the fake clock.
     */
    private Run crawl(Random random, long maxPages, double robotsFailure, double pageRetry) {
        HostScheduler hosts = new HostScheduler(config(), clock, SchedulerLimits.of(100_000, THREADS));
        for (int h = 0; h < 20; h++) {
            hosts.add(PendingUrl.seed("https://known-" + h + ".example/0"));
            hosts.robotsFetched(hosts.poll(), RobotsRules.allowAll("test"));
            for (int i = 1; i < 40; i++) {
                hosts.add(PendingUrl.seed("https://known-" + h + ".example/" + i));
            }
        }
        clock.advance(DELAY);
        hosts.limitPages(maxPages);
        for (int h = 0; h < 3_000; h++) {
            int urls = 1 + random.nextInt(4);
            for (int i = 0; i < urls; i++) {
                hosts.add(PendingUrl.seed("https://new-" + h + ".example/" + i));
            }
        }
        Set<String> robots = new HashSet<>();
        Set<String> paged = new HashSet<>();
        Map<PendingUrl, Long> inFlight = new HashMap<>();
        long handed = 0;
        long taken = 0;
        boolean ended = false;
        long until = clock.millis() + Duration.ofMinutes(10).toMillis();
        while (!ended && clock.millis() < until) {
            long now = clock.millis();
            List<PendingUrl> due = new ArrayList<>();
            inFlight.forEach((task, at) -> {
                if (at <= now) {
                    due.add(task);
                }
            });
            due.sort((a, b) -> a.url().compareTo(b.url()) != 0 ? a.url().compareTo(b.url())
                    : Integer.compare(a.attempt(), b.attempt())); // a fixed order before the seeded shuffle
            Collections.shuffle(due, random);
            for (PendingUrl task : due) {
                inFlight.remove(task);
                double outcome = random.nextDouble();
                if (task.isRobots() && outcome < robotsFailure / 2) {
                    hosts.retryRobots(task, ROBOTS_RETRY);
                } else if (task.isRobots() && outcome < robotsFailure) {
                    hosts.robotsFetched(task, RobotsRules.unreachable("503"));
                } else if (task.isRobots()) {
                    hosts.robotsFetched(task, RobotsRules.allowAll("test"));
                } else if (outcome < pageRetry) {
                    hosts.retry(task, Duration.ofMillis(500));
                } else {
                    hosts.finished(task);
                }
            }
            List<PendingUrl> batch = new ArrayList<>();
            while (inFlight.size() + batch.size() < THREADS) {
                PendingUrl task = hosts.poll();
                if (task == null) {
                    break;
                }
                if (!task.isRobots() && task.attempt() == 0) {
                    handed++;
                }
                batch.add(task);
            }
            Collections.shuffle(batch, random); // fetcher threads count what they took in their own order
            for (PendingUrl task : batch) {
                if (!task.isRobots() && task.attempt() == 0) {
                    taken++;
                    if (taken > maxPages) {
                        taken--;
                        hosts.putBack(task);
                        ended = true;
                        continue;
                    }
                    ended |= taken == maxPages;
                }
                (task.isRobots() ? robots : paged).add(HostKey.of(task.url()));
                inFlight.put(task, now + 20 + random.nextInt(281));
            }
            clock.advance(Duration.ofMillis(10));
        }
        robots.removeIf(host -> host.contains("known-"));
        return new Run(robots, paged, handed, taken, ended);
    }
}
