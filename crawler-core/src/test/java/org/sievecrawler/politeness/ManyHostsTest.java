package org.sievecrawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_RESPECT_ROBOTS;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_ROBOTS_CACHE_HOSTS;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FakeClock;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.robots.RobotsRules;
import org.sievecrawler.sieve.PendingQueue;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.SpillingQueue;

/**
 * The {@link HostScheduler} in a broad crawl: many hosts, most of their URLs in the spill, fetchers driven by a fake
 * clock. Each request ends the moment it is handed out, so a host is ready again after its delay.
 */
class ManyHostsTest {
    private static final Duration DELAY = Duration.ofSeconds(1);
    private static final Duration TICK = Duration.ofMillis(100);

    private final FakeClock clock = new FakeClock();

    @TempDir
    Path dir;

    private static PolitenessConfig noRobots() {
        return CrawlProfile.defaults().with(POLITENESS_RESPECT_ROBOTS, false).with(POLITENESS_DELAY, DELAY)
                .politeness();
    }

    @Test
    void hostsWhoseUrlsAreOnlyInTheSpillAreFetchedEarlyNotAfterTheBigOnes() throws IOException {
        int memory = 5_000;
        HostScheduler hosts = new HostScheduler(noRobots(), clock, new SchedulerLimits(100, Integer.MAX_VALUE, Integer.MAX_VALUE));
        try (SpillingQueue spill = SpillingQueue.create(hosts, memory, dir, 1 << 20)) {
            for (int i = 0; i < 10_000; i++) {
                spill.add(PendingUrl.seed("https://big-a.example/" + i));
                spill.add(PendingUrl.seed("https://big-b.example/" + i));
            }
            for (int h = 0; h < 1_000; h++) {
                for (int i = 0; i < 3; i++) {
                    spill.add(PendingUrl.seed("https://small-" + h + ".example/" + i));
                }
            }
            assertThat(spill.spilled()).as("the big hosts took their share, the rest waits on disk")
                    .isEqualTo(23_000 - 200);

            Map<String, Long> firstFetch = fetchFor(hosts, spill, Duration.ofSeconds(30), memory);

            assertThat(firstFetch).as("every host fetched within 30 s").hasSize(1_002);
            assertThat(firstFetch.values()).as("the small hosts came in the first seconds, not after the big"
                    + " hosts' 10,000 s").allMatch(at -> at <= 5_000);
            assertThat(spill.requeued()).as("the big hosts' URLs read back over their share went to the spill's end")
                    .isPositive();
        }
    }

    @Test
    void withoutSharesTheSpilledHostsWaitForTheBigOnes() throws IOException {
        int memory = 5_000;
        HostScheduler hosts = new HostScheduler(noRobots(), clock, SchedulerLimits.NONE);
        try (SpillingQueue spill = SpillingQueue.create(hosts, memory, dir, 1 << 20)) {
            for (int i = 0; i < 10_000; i++) {
                spill.add(PendingUrl.seed("https://big-a.example/" + i));
                spill.add(PendingUrl.seed("https://big-b.example/" + i));
            }
            for (int h = 0; h < 1_000; h++) {
                spill.add(PendingUrl.seed("https://small-" + h + ".example/0"));
            }
            Map<String, Long> firstFetch = fetchFor(hosts, spill, Duration.ofSeconds(30), memory);
            assertThat(firstFetch).as("the case the shares exist for: only the two big hosts").hasSize(2);
        }
    }

    @Test
    void servesEveryReadyHostWithinOneRoundAndNeverIdlesWhileOneIsReady() {
        int hostCount = 2_000;
        int threads = 50;
        long requestMillis = 100;
        HostScheduler hosts = new HostScheduler(noRobots(), clock, SchedulerLimits.of(100_000, threads));
        Map<String, Integer> queued = new HashMap<>();
        for (int h = 0; h < hostCount; h++) {
            for (int i = 0; i < 40; i++) {
                hosts.add(PendingUrl.seed("https://h" + h + ".example/" + i));
            }
            queued.put("https://h" + h + ".example", 40);
        }
        // the test's own model of the hosts: when each may go next (its delay after its last request), in flight or not
        Map<String, Long> readyAt = new HashMap<>();
        Map<PendingUrl, Long> inFlight = new HashMap<>();
        long start = clock.millis();
        long maxWait = 0;
        long served = 0;
        for (long now = 0; now < 60_000; now += 10) {
            clock.advance(Duration.ofMillis(10));
            final long at = clock.millis();
            inFlight.entrySet().removeIf(request -> {
                if (request.getValue() > at) {
                    return false;
                }
                hosts.finished(request.getKey());
                readyAt.put(HostKey.of(request.getKey().url()), at + DELAY.toMillis());
                return true;
            });
            while (inFlight.size() < threads) {
                PendingUrl url = hosts.poll();
                if (url == null) {
                    break;
                }
                String key = HostKey.of(url.url());
                long ready = readyAt.getOrDefault(key, start);
                assertThat(ready).as("no request to %s before its delay", key).isLessThanOrEqualTo(at);
                maxWait = Math.max(maxWait, at - ready);
                readyAt.put(key, Long.MAX_VALUE); // in flight
                queued.merge(key, -1, Integer::sum);
                inFlight.put(url, at + requestMillis);
                served++;
            }
            if (inFlight.size() < threads) {
                assertThat(readyAt.entrySet()).as("a fetcher idles at %d ms: no host may be ready", at)
                        .noneMatch(host -> host.getValue() <= at && queued.get(host.getKey()) > 0);
            }
        }
        // 50 threads at 100 ms a request serve 500 hosts a second: a round of 2,000 ready hosts takes 4 s
        long round = hostCount * requestMillis / threads;
        assertThat(served).as("every fetcher busy all along").isGreaterThanOrEqualTo(60_000 / requestMillis * threads
                - threads);
        assertThat(maxWait).as("a ready host waits at most one round of the others").isLessThanOrEqualTo(round);
    }

    @Test
    void newHostsRobotsTxtTakesAtMostHalfTheFetchersWhilePagesAreReady() {
        int threads = 8;
        PolitenessConfig config = CrawlProfile.defaults().with(POLITENESS_DELAY, Duration.ZERO).politeness();
        HostScheduler hosts = new HostScheduler(config, clock, SchedulerLimits.of(100_000, threads));
        for (int h = 0; h < 20; h++) { // known hosts: robots.txt fetched, a first page, then many pages each
            hosts.add(PendingUrl.seed("https://known-" + h + ".example/0"));
            PendingUrl robots = hosts.poll();
            assertThat(robots.isRobots()).isTrue();
            hosts.robotsFetched(robots, RobotsRules.allowAll("test"));
            hosts.finished(hosts.poll());
        }
        for (int h = 0; h < 20; h++) {
            for (int i = 1; i < 100; i++) {
                hosts.add(PendingUrl.seed("https://known-" + h + ".example/" + i));
            }
        }
        for (int h = 0; h < 5_000; h++) { // a burst of new hosts, whose robots.txt became due after
            hosts.add(PendingUrl.seed("https://new-" + h + ".example/"));
        }

        long robotsFetched = 0;
        for (int round = 0; round < 100; round++) {
            List<PendingUrl> taken = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                taken.add(hosts.poll());
            }
            assertThat(taken).doesNotContainNull();
            long robotsTasks = taken.stream().filter(PendingUrl::isRobots).count();
            assertThat(robotsTasks).as("round %d: robots.txt takes at most half the fetchers", round)
                    .isLessThanOrEqualTo(threads / 2);
            robotsFetched += robotsTasks;
            for (PendingUrl task : taken) {
                if (task.isRobots()) {
                    hosts.robotsFetched(task, RobotsRules.allowAll("test"));
                } else {
                    hosts.finished(task);
                }
            }
        }
        assertThat(robotsFetched).as("and takes them: the new hosts are not starved either")
                .isGreaterThanOrEqualTo(100 * threads / 2 * 9 / 10);
    }

    /**
     * Robots.txt keeps pace with the first pages it lets through: 400 known hosts keep a backlog of ready pages (400
     * a second for 80 fetches a second), 5,000 new hosts wait for robots.txt. A host's first page after its robots.txt
     * waited its delay and then its turn behind the backlog, so robots.txt ran ahead of it (a crawl stopped then had
     * fetched robots.txt of thousands of hosts it never asked a page of). Now the first page goes before the
     * backlog, and at most 4 x fetch.threads hosts hold a robots.txt and no page yet (plus the robots.txt requests
     * in flight), while the new hosts still get their pages.
     */
    @Test
    void robotsTxtRunsAtMostFetchThreadsHostsAheadOfTheirFirstPages() {
        int threads = 8;
        PolitenessConfig config = CrawlProfile.defaults().with(POLITENESS_DELAY, DELAY).politeness();
        HostScheduler hosts = new HostScheduler(config, clock, SchedulerLimits.of(100_000, threads));
        for (int h = 0; h < 400; h++) {
            hosts.add(PendingUrl.seed("https://known-" + h + ".example/0"));
        }
        for (int h = 0; h < 400; h++) {
            PendingUrl robots = hosts.poll();
            hosts.robotsFetched(robots, RobotsRules.allowAll("test"));
            for (int i = 1; i < 50; i++) {
                hosts.add(PendingUrl.seed("https://known-" + h + ".example/" + i));
            }
        }
        clock.advance(DELAY);
        for (int h = 0; h < 5_000; h++) {
            hosts.add(PendingUrl.seed("https://new-" + h + ".example/"));
        }
        java.util.Set<String> robotsDone = new java.util.HashSet<>();
        java.util.Set<String> paged = new java.util.HashSet<>();
        int mostAhead = 0;
        for (int round = 0; round < 300; round++) { // 30 s
            List<PendingUrl> taken = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                PendingUrl task = hosts.poll();
                if (task != null) {
                    taken.add(task);
                }
            }
            for (PendingUrl task : taken) {
                String host = HostKey.of(task.url());
                if (task.isRobots()) {
                    hosts.robotsFetched(task, RobotsRules.allowAll("test"));
                    robotsDone.add(host);
                } else {
                    paged.add(host);
                    hosts.finished(task);
                }
            }
            long ahead = robotsDone.stream().filter(h -> !paged.contains(h)).count();
            mostAhead = (int) Math.max(mostAhead, ahead);
            assertThat(ahead).as("round %d: hosts with robots.txt and no page yet", round)
                    .isLessThanOrEqualTo(SchedulerLimits.AHEAD_PER_THREAD * threads + threads / 2);
            clock.advance(TICK);
        }
        long newPaged = paged.stream().filter(h -> h.contains("new-")).count();
        // Their first pages come a delay after robots.txt, ahead of the backlog: about 4 x 8 new hosts a second.
        assertThat(newPaged).as("the new hosts get pages too (most ahead: %d)", mostAhead).isGreaterThan(500);
    }

    /**
     * A crawl stopped by limits.max-pages = 10 over 1,000 new hosts of 3 URLs each, 8 fetchers of 100 ms requests,
     * stopped as the fetchers stop it (the page after the 10th is refused and put back, the crawl ends): every host
     * whose robots.txt was fetched had a page fetched.
     */
    @Test
    void fetchesRobotsTxtOnlyForHostsThePageLimitLeavesAPageOf() {
        MaxPagesRun run = crawlToMaxPages(10, 1_000, true);
        assertThat(run.paged).as("the limit was reached").hasSize(10);
        assertThat(run.robots).as("robots.txt of hosts paged only").isSubsetOf(run.paged);
    }

    @Test
    void withoutThePageLimitRobotsTxtRunsAheadOfThePagesAtTheStop() {
        MaxPagesRun run = crawlToMaxPages(10, 1_000, false);
        assertThat(run.robots.size()).as("the case the limit exists for").isGreaterThan(run.paged.size());
    }

    @Test
    void thePageLimitLeavesThePagesOfHostsAlreadyPagedToTheHostsWhoseRobotsTxtCame() {
        // 20 known hosts with a backlog of ready pages compete with new hosts for the last pages of the limit
        MaxPagesRun run = crawlToMaxPages(200, 1_000, true, 20, 40);
        assertThat(run.robots).isSubsetOf(run.paged);
        assertThat(run.paged.stream().filter(h -> h.contains("new-")).count()).as("new hosts got pages too")
                .isPositive();
    }

    /**
     * A crawl stopped by limits.max-duration = 10 s over 1,000 new hosts of 3 URLs each, 8 fetchers of 100 ms
     * requests, 1 s delay: no robots.txt in the last delay, so the only hosts left with robots.txt and no page are
     * those whose robots.txt went out just before that, within one request's time (their first page comes up by that
     * time after the end); without it, every host whose robots.txt came in the last delay is left so.
     */
    @Test
    void noRobotsTxtInTheLastDelayBeforeTheCrawlsEnd() {
        long request = 100;
        Map<String, Long> robotsLate = robotsWithoutPageAtTheEnd(true, request);
        long end = clock.millis(); // the run ends here
        assertThat(robotsLate.values()).as("robots.txt started within a request's time before end - delay")
                .allMatch(at -> at >= end - DELAY.toMillis() - request && at < end - DELAY.toMillis());
        assertThat(robotsWithoutPageAtTheEnd(false, request).size()).as("the case endsAt exists for")
                .isGreaterThan(robotsLate.size() + 8);
    }

    /**
     * Runs 8 fetchers of {@code request} ms requests on 1,000 new hosts for 10 s (told of the end if
     * {@code toldTheEnd}); returns the hosts with a robots.txt request and no page, with when robots.txt went out.
     */
    private Map<String, Long> robotsWithoutPageAtTheEnd(boolean toldTheEnd, long request) {
        int threads = 8;
        PolitenessConfig config = CrawlProfile.defaults().with(POLITENESS_DELAY, DELAY).politeness();
        HostScheduler hosts = new HostScheduler(config, clock, SchedulerLimits.of(100_000, threads));
        long end = clock.millis() + 10_000;
        if (toldTheEnd) {
            hosts.endsAt(java.time.Instant.ofEpochMilli(end));
        }
        for (int h = 0; h < 1_000; h++) {
            for (int i = 0; i < 3; i++) {
                hosts.add(PendingUrl.seed("https://new-" + h + ".example/" + i));
            }
        }
        Map<String, Long> robotsAt = new HashMap<>();
        java.util.Set<String> paged = new java.util.HashSet<>();
        Map<PendingUrl, Long> inFlight = new HashMap<>();
        while (clock.millis() < end) {
            long at = clock.millis();
            inFlight.entrySet().removeIf(done -> {
                if (done.getValue() > at) {
                    return false;
                }
                if (done.getKey().isRobots()) {
                    hosts.robotsFetched(done.getKey(), RobotsRules.allowAll("test"));
                } else {
                    hosts.finished(done.getKey());
                }
                return true;
            });
            while (inFlight.size() < threads) {
                PendingUrl task = hosts.poll();
                if (task == null) {
                    break;
                }
                if (task.isRobots()) {
                    robotsAt.put(HostKey.of(task.url()), at);
                } else {
                    paged.add(HostKey.of(task.url()));
                }
                inFlight.put(task, at + request);
            }
            clock.advance(Duration.ofMillis(10));
        }
        robotsAt.keySet().removeAll(paged);
        return robotsAt;
    }

    private record MaxPagesRun(java.util.Set<String> robots, java.util.Set<String> paged) {
    }

    private MaxPagesRun crawlToMaxPages(long maxPages, int newHosts, boolean limited) {
        return crawlToMaxPages(maxPages, newHosts, limited, 0, 0);
    }

    /**
     * Runs 8 fetchers of 100 ms requests on {@code newHosts} hosts of 3 URLs each (and {@code knownHosts} whose
     * robots.txt was fetched, of {@code knownPages} URLs each), until a fetcher takes the page that reaches
     * {@code maxPages} (the crawl ends, as FetchWorker ends it; one past it is put back) or the pages recorded reach
     * it; returns the
     * hosts whose robots.txt was fetched (but for the known ones) and the hosts paged.
     */
    private MaxPagesRun crawlToMaxPages(long maxPages, int newHosts, boolean limited, int knownHosts,
            int knownPages) {
        int threads = 8;
        PolitenessConfig config = CrawlProfile.defaults().with(POLITENESS_DELAY, DELAY).politeness();
        HostScheduler hosts = new HostScheduler(config, clock, SchedulerLimits.of(100_000, threads));
        for (int h = 0; h < knownHosts; h++) {
            hosts.add(PendingUrl.seed("https://known-" + h + ".example/0"));
            hosts.robotsFetched(hosts.poll(), RobotsRules.allowAll("test"));
            for (int i = 1; i < knownPages; i++) {
                hosts.add(PendingUrl.seed("https://known-" + h + ".example/" + i));
            }
        }
        clock.advance(DELAY);
        if (limited) {
            hosts.limitPages(maxPages);
        }
        for (int h = 0; h < newHosts; h++) {
            for (int i = 0; i < 3; i++) {
                hosts.add(PendingUrl.seed("https://new-" + h + ".example/" + i));
            }
        }
        java.util.Set<String> robots = new java.util.HashSet<>();
        java.util.Set<String> paged = new java.util.HashSet<>();
        Map<PendingUrl, Long> inFlight = new HashMap<>();
        long taken = 0;
        long[] recorded = {0};
        boolean ended = false;
        for (int tick = 0; tick < 60_000 && !ended && recorded[0] < maxPages; tick++) { // 10 min at most
            long at = clock.millis();
            inFlight.entrySet().removeIf(request -> {
                if (request.getValue() > at) {
                    return false;
                }
                PendingUrl task = request.getKey();
                if (task.isRobots()) {
                    hosts.robotsFetched(task, RobotsRules.allowAll("test"));
                } else {
                    hosts.finished(task);
                    recorded[0]++;
                }
                return true;
            });
            while (inFlight.size() < threads && !ended) {
                PendingUrl task = hosts.poll();
                if (task == null) {
                    break;
                }
                if (task.isRobots()) {
                    robots.add(HostKey.of(task.url()));
                } else if (++taken > maxPages) {
                    hosts.putBack(task);
                    ended = true;
                    break;
                } else {
                    paged.add(HostKey.of(task.url()));
                    ended = taken == maxPages;
                }
                inFlight.put(task, at + 100);
            }
            clock.advance(Duration.ofMillis(10));
        }
        assertThat(ended || recorded[0] >= maxPages).as("the crawl reached its page limit").isTrue();
        return new MaxPagesRun(robots, paged);
    }

    @Test
    void aHostIdleSinceItsDelayIsParkedAndComesBackWithItsRobotsRules() {
        PolitenessConfig config = CrawlProfile.defaults().with(POLITENESS_DELAY, DELAY).politeness();
        HostScheduler hosts = new HostScheduler(config, clock);
        hosts.add(PendingUrl.seed("https://a.example/1"));
        PendingUrl robots = hosts.poll();
        hosts.robotsFetched(robots, RobotsRules.parsed(
                new crawlercommons.robots.SimpleRobotRules(), Duration.ofSeconds(5))); // Crawl-delay: 5
        clock.advance(Duration.ofSeconds(5));
        PendingUrl page = hosts.poll();
        hosts.finished(page);
        clock.advance(Duration.ofSeconds(4));
        assertThat(hosts.poll()).isNull();
        assertThat(hosts.activeHosts()).as("within its delay: held").isEqualTo(1);

        hosts.add(PendingUrl.seed("https://a.example/2"));
        assertThat(hosts.poll()).as("its Crawl-delay still holds").isNull();
        clock.advance(Duration.ofSeconds(1));
        PendingUrl second = hosts.poll();
        assertThat(second.url()).isEqualTo("https://a.example/2");
        hosts.finished(second);
        clock.advance(Duration.ofSeconds(5));
        assertThat(hosts.poll()).isNull();
        assertThat(hosts.activeHosts()).as("idle since its delay passed: parked").isZero();

        hosts.add(PendingUrl.seed("https://a.example/3"));
        PendingUrl third = hosts.poll();
        assertThat(third.url()).as("back without robots.txt again").isEqualTo("https://a.example/3");
        hosts.finished(third);
        clock.advance(Duration.ofSeconds(4));
        hosts.add(PendingUrl.seed("https://a.example/4"));
        assertThat(hosts.poll()).as("its Crawl-delay came back with its rules").isNull();
        assertThat(hosts.robotsCounts()).isEqualTo(new org.sievecrawler.robots.RobotsCache.Counts(1, 1, 0, 0, 0));
        assertThat(hosts.hostCount()).as("one host seen").isEqualTo(1);
    }

    @Test
    void keepsAsManyParkedHostsRulesAsPolitenessRobotsCacheHostsSays() {
        for (int cacheHosts : new int[] {0, 300, 1_000}) {
            PolitenessConfig config = CrawlProfile.defaults().with(POLITENESS_DELAY, DELAY)
                    .with(POLITENESS_ROBOTS_CACHE_HOSTS, cacheHosts).politeness();
            HostScheduler hosts = new HostScheduler(config, clock, SchedulerLimits.of(100_000, 16));
            for (int round = 0; round < 2; round++) { // 1,000 hosts, one URL each, parked between the rounds
                for (int h = 0; h < 1_000; h++) {
                    hosts.add(PendingUrl.seed("https://h" + h + ".example/" + round));
                }
                while (hosts.size() > 0) {
                    for (PendingUrl task = hosts.poll(); task != null; task = hosts.poll()) {
                        if (task.isRobots()) {
                            hosts.robotsFetched(task, RobotsRules.allowAll("test"));
                        } else {
                            hosts.finished(task);
                        }
                    }
                    clock.advance(DELAY);
                }
                clock.advance(DELAY);
                assertThat(hosts.poll()).isNull();
                assertThat(hosts.activeHosts()).isZero();
                assertThat(hosts.robotsCounts().cached()).as("cache of %d", cacheHosts)
                        .isEqualTo(Math.min(cacheHosts, 1_000));
            }
            assertThat(hosts.robotsCounts().fetches()).as("robots.txt requests, cache of %d", cacheHosts)
                    .isEqualTo(2_000 - Math.min(cacheHosts, 1_000));
        }
    }

    @Test
    void holdsNoStateForHostsWithNothingToDoAndFetchesRobotsTxtOncePerHost() {
        PolitenessConfig config = CrawlProfile.defaults().with(POLITENESS_DELAY, DELAY).politeness();
        HostScheduler hosts = new HostScheduler(config, clock, SchedulerLimits.of(100_000, 16));
        int hostCount = 10_000;
        for (int round = 0; round < 3; round++) { // each host gets one URL per round, well apart
            for (int h = 0; h < hostCount; h++) {
                hosts.add(PendingUrl.seed("https://h" + h + ".example/" + round));
            }
            for (PendingUrl task = hosts.poll(); task != null; task = hosts.poll()) {
                if (task.isRobots()) {
                    hosts.robotsFetched(task, RobotsRules.allowAll("test"));
                } else {
                    hosts.finished(task);
                }
            }
            clock.advance(DELAY);
            while (hosts.size() > 0) {
                for (PendingUrl task = hosts.poll(); task != null; task = hosts.poll()) {
                    hosts.finished(task);
                }
                clock.advance(DELAY);
            }
            clock.advance(DELAY);
            assertThat(hosts.poll()).isNull();
            assertThat(hosts.activeHosts()).as("round %d: every host parked", round).isZero();
        }
        assertThat(hosts.robotsCounts().fetches()).as("robots.txt once per host").isEqualTo(hostCount);
        assertThat(hosts.robotsCounts().hits()).isEqualTo(2L * hostCount);
        assertThat(hosts.hostCount()).isEqualTo(hostCount);
    }

    /**
     * Polls {@code queue} as fast as fetchers would for {@code span} of fake time, each request ending at once, and
     * returns each host's first fetch (ms since the start); checks that the scheduler never holds more than
     * {@code maxInMemory} URLs.
     */
    private Map<String, Long> fetchFor(HostScheduler hosts, PendingQueue queue, Duration span, int maxInMemory) {
        long start = clock.millis();
        Map<String, Long> firstFetch = new HashMap<>();
        while (clock.millis() - start < span.toMillis()) {
            PendingUrl url = queue.poll();
            if (url == null) {
                clock.advance(TICK);
                continue;
            }
            firstFetch.putIfAbsent(HostKey.host(url.url()), clock.millis() - start);
            hosts.finished(url);
            assertThat(hosts.size()).isLessThanOrEqualTo(maxInMemory);
        }
        return firstFetch;
    }
}
