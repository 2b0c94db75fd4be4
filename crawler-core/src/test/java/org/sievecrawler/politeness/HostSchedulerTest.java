package org.sievecrawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_RESPECT_ROBOTS;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_ROBOTS_RETRY;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sievecrawler.fixtures.FakeClock;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.robots.RobotsPolicy;
import org.sievecrawler.robots.RobotsRules;
import org.sievecrawler.sieve.PendingUrl;

class HostSchedulerTest {
    private final FakeClock clock = new FakeClock();
    private final RobotsPolicy robots = new RobotsPolicy("sievecrawler", Duration.ofSeconds(30));

    private HostScheduler scheduler(PolitenessConfig config) {
        return new HostScheduler(config, clock);
    }

    private static PolitenessConfig noRobots(Duration delay) {
        return CrawlProfile.defaults().with(POLITENESS_RESPECT_ROBOTS, false)
                .with(POLITENESS_DELAY, delay).politeness();
    }

    @Test
    void handsOutOneUrlOfAHostAtATimeAndWaitsTheDelayAfterEachRequest() {
        HostScheduler scheduler = scheduler(noRobots(Duration.ofSeconds(1)));
        scheduler.add(PendingUrl.seed("https://a.example/1"));
        scheduler.add(PendingUrl.seed("https://a.example/2"));

        PendingUrl first = scheduler.poll();
        assertThat(first.url()).isEqualTo("https://a.example/1");
        assertThat(scheduler.poll()).as("one connection per host: the second waits").isNull();

        clock.advance(Duration.ofMillis(300)); // the request takes 300 ms
        scheduler.finished(first);
        assertThat(scheduler.poll()).as("the delay runs from the end of the request").isNull();
        clock.advance(Duration.ofMillis(999));
        assertThat(scheduler.poll()).isNull();
        clock.advance(Duration.ofMillis(1));
        assertThat(scheduler.poll().url()).isEqualTo("https://a.example/2");
        assertThat(scheduler.size()).isZero();
    }

    @Test
    void neverHoldsBackAReadyHostBehindADelayedOne() {
        HostScheduler scheduler = scheduler(noRobots(Duration.ofSeconds(10)));
        for (int i = 0; i < 3; i++) {
            scheduler.add(PendingUrl.seed("https://slow.example/" + i));
        }
        for (int i = 0; i < 3; i++) {
            scheduler.add(PendingUrl.seed("https://fast.example/" + i));
        }
        PendingUrl slow = scheduler.poll();
        PendingUrl fast = scheduler.poll();
        assertThat(List.of(slow.url(), fast.url()))
                .containsExactly("https://slow.example/0", "https://fast.example/0");
        scheduler.finished(slow);
        scheduler.finished(fast);
        assertThat(scheduler.poll()).isNull();

        // fast.example's 10 s delay runs out first: a poll gets it although slow.example's URLs came first.
        scheduler.add(PendingUrl.seed("https://other.example/0"));
        assertThat(scheduler.poll().url()).isEqualTo("https://other.example/0");
        clock.advance(Duration.ofSeconds(10));
        List<String> next = new ArrayList<>();
        for (PendingUrl url = scheduler.poll(); url != null; url = scheduler.poll()) {
            next.add(url.url());
        }
        assertThat(next).containsExactlyInAnyOrder("https://slow.example/1", "https://fast.example/1");
    }

    @Test
    void allowsSeveralConnectionsPerHostWhenConfigured() {
        HostScheduler scheduler = scheduler(CrawlProfile.defaults().with(POLITENESS_RESPECT_ROBOTS, false)
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 3).politeness());
        for (int i = 0; i < 5; i++) {
            scheduler.add(PendingUrl.seed("http://127.0.0.1:8080/" + i));
        }
        List<PendingUrl> taken = new ArrayList<>();
        for (PendingUrl url = scheduler.poll(); url != null; url = scheduler.poll()) {
            taken.add(url);
        }
        assertThat(taken).hasSize(3);
        assertThat(scheduler.inFlight()).isEqualTo(3);
        scheduler.finished(taken.get(0));
        assertThat(scheduler.poll().url()).isEqualTo("http://127.0.0.1:8080/3");
    }

    @Test
    void handsOutTheHostsRobotsTxtFirstAndHoldsItsPagesUntilTheRulesAreKnown() {
        HostScheduler scheduler = scheduler(CrawlProfile.defaults().with(POLITENESS_DELAY, Duration.ZERO)
                .with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4).politeness());
        scheduler.add(PendingUrl.seed("https://a.example/private/x"));
        scheduler.add(PendingUrl.seed("https://a.example/public"));

        PendingUrl robotsTask = scheduler.poll();
        assertThat(robotsTask.isRobots()).isTrue();
        assertThat(robotsTask.url()).isEqualTo("https://a.example/robots.txt");
        assertThat(scheduler.poll()).as("no page before the rules").isNull();

        scheduler.robotsFetched(robotsTask, robots.interpret(robotsTask.url(), 200,
                "User-agent: *\nDisallow: /private/\n".getBytes(StandardCharsets.UTF_8), null));
        PendingUrl page = scheduler.poll();
        assertThat(page.url()).isEqualTo("https://a.example/private/x");
        assertThat(scheduler.rules(page.url()).allows(page.url())).isFalse();
        assertThat(scheduler.rules(page.url()).allows("https://a.example/public")).isTrue();
        assertThat(scheduler.poll().url()).isEqualTo("https://a.example/public");
    }

    @Test
    void raisesAHostsDelayToItsCrawlDelay() {
        HostScheduler scheduler = scheduler(CrawlProfile.defaults()
                .with(POLITENESS_DELAY, Duration.ofSeconds(1)).politeness());
        scheduler.add(PendingUrl.seed("https://a.example/1"));
        scheduler.add(PendingUrl.seed("https://a.example/2"));
        PendingUrl robotsTask = scheduler.poll();
        scheduler.robotsFetched(robotsTask, robots.interpret(robotsTask.url(), 200,
                "User-agent: *\nCrawl-delay: 5\n".getBytes(StandardCharsets.UTF_8), null));
        clock.advance(Duration.ofSeconds(4));
        assertThat(scheduler.poll()).as("robots.txt was a request too: 5 s before the first page").isNull();
        clock.advance(Duration.ofSeconds(1));
        PendingUrl first = scheduler.poll();
        scheduler.finished(first);
        clock.advance(Duration.ofMillis(4_999));
        assertThat(scheduler.poll()).isNull();
        clock.advance(Duration.ofMillis(1));
        assertThat(scheduler.poll().url()).isEqualTo("https://a.example/2");
    }

    @Test
    void servesAHostWithACrawlDelayOneRequestAtATime() {
        HostScheduler scheduler = scheduler(CrawlProfile.defaults().with(POLITENESS_DELAY, Duration.ZERO)
                .with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 8).politeness());
        for (int i = 0; i < 3; i++) {
            scheduler.add(PendingUrl.seed("https://a.example/" + i));
        }
        PendingUrl robotsTask = scheduler.poll();
        scheduler.robotsFetched(robotsTask, robots.interpret(robotsTask.url(), 200,
                "User-agent: *\nCrawl-delay: 1\n".getBytes(StandardCharsets.UTF_8), null));
        clock.advance(Duration.ofSeconds(1));
        assertThat(scheduler.poll()).isNotNull();
        assertThat(scheduler.poll()).as("Crawl-delay: one request at a time despite 8 connections").isNull();
    }

    @Test
    void retriesAnUnavailableRobotsTxtWithDoublingWaitsThenGivesUp() {
        HostScheduler scheduler = scheduler(CrawlProfile.defaults().with(POLITENESS_DELAY, Duration.ZERO)
                .with(POLITENESS_ROBOTS_RETRY, Duration.ofSeconds(10)).politeness());
        scheduler.add(PendingUrl.seed("https://down.example/page"));

        PendingUrl attempt1 = scheduler.poll();
        scheduler.robotsFetched(attempt1, robots.interpret(attempt1.url(), 503, new byte[0], null));
        assertThat(scheduler.poll()).as("the host's page waits for its robots.txt").isNull();
        clock.advance(Duration.ofSeconds(10));
        PendingUrl attempt2 = scheduler.poll();
        assertThat(attempt2.isRobots()).isTrue();
        scheduler.robotsFetched(attempt2, robots.interpret(attempt2.url(), 0, new byte[0], "read timed out"));
        clock.advance(Duration.ofSeconds(19));
        assertThat(scheduler.poll()).as("second wait is doubled").isNull();
        clock.advance(Duration.ofSeconds(1));
        PendingUrl attempt3 = scheduler.poll();
        assertThat(attempt3.isRobots()).isTrue();
        scheduler.robotsFetched(attempt3, robots.interpret(attempt3.url(), 500, new byte[0], null));

        PendingUrl page = scheduler.poll();
        assertThat(page.url()).isEqualTo("https://down.example/page");
        RobotsRules rules = scheduler.rules(page.url());
        assertThat(rules.kind()).isEqualTo(RobotsRules.Kind.UNREACHABLE);
        assertThat(rules.allows(page.url())).isFalse();
        assertThat(rules.reason()).contains("answered 500");
        scheduler.skipped(page);
        assertThat(scheduler.isIdle()).isTrue();
    }

    @Test
    void retriesARobotsTxtThatCouldNotConnectAfterTheGivenBackoffThenHandsOutAnUnreachableHostsUrlsAtOnce() {
        HostScheduler scheduler = scheduler(CrawlProfile.defaults().with(POLITENESS_DELAY, Duration.ofSeconds(5))
                .with(POLITENESS_ROBOTS_RETRY, Duration.ofMinutes(10)).politeness());
        scheduler.add(PendingUrl.seed("http://down.example/a"));
        scheduler.add(PendingUrl.seed("http://down.example/b"));

        PendingUrl attempt1 = scheduler.poll();
        scheduler.retryRobots(attempt1, Duration.ofSeconds(1));
        assertThat(scheduler.poll()).isNull();
        clock.advance(Duration.ofSeconds(1));
        PendingUrl attempt2 = scheduler.poll();
        assertThat(attempt2.isRobots()).isTrue();
        assertThat(attempt2.attempt()).isEqualTo(1);
        scheduler.unreachable(attempt2, "connection refused");

        PendingUrl a = scheduler.poll();
        PendingUrl b = scheduler.poll();
        assertThat(a.url()).isEqualTo("http://down.example/a");
        assertThat(b.url()).as("no delay, no connection limit: no request is made").isEqualTo("http://down.example/b");
        assertThat(scheduler.unreachableReason(a.url())).isEqualTo("connection refused");
        assertThat(scheduler.unreachableHosts()).containsExactly(Map.entry("http://down.example", "connection refused"));
        scheduler.skipped(a);
        scheduler.skipped(b);
        assertThat(scheduler.isIdle()).isTrue();
    }

    @Test
    void aRetriedUrlComesFirstAfterTheBackoff() {
        HostScheduler scheduler = scheduler(noRobots(Duration.ofMillis(100)));
        scheduler.add(PendingUrl.seed("https://a.example/busy"));
        scheduler.add(PendingUrl.seed("https://a.example/next"));
        PendingUrl busy = scheduler.poll();

        scheduler.retry(busy, Duration.ofSeconds(5)); // e.g. 429 with Retry-After: 5
        clock.advance(Duration.ofMillis(4_999));
        assertThat(scheduler.poll()).isNull();
        clock.advance(Duration.ofMillis(1));
        PendingUrl again = scheduler.poll();
        assertThat(again.url()).isEqualTo("https://a.example/busy");
        assertThat(again.attempt()).isEqualTo(1);
    }

    @Test
    void fetchesRobotsTxtAgainAfterADay() {
        HostScheduler scheduler = scheduler(CrawlProfile.defaults().with(POLITENESS_DELAY, Duration.ZERO).politeness());
        scheduler.add(PendingUrl.seed("https://a.example/1"));
        PendingUrl robotsTask = scheduler.poll();
        scheduler.robotsFetched(robotsTask, RobotsRules.allowAll("robots.txt answered 404"));
        scheduler.finished(scheduler.poll());

        clock.advance(Duration.ofHours(24));
        scheduler.add(PendingUrl.seed("https://a.example/2"));
        assertThat(scheduler.poll().isRobots()).isTrue();
    }

    @Test
    void isIdleOnlyWhenNothingIsPendingOrInFlight() {
        HostScheduler scheduler = scheduler(noRobots(Duration.ZERO));
        assertThat(scheduler.isIdle()).isTrue();
        scheduler.add(PendingUrl.seed("https://a.example/1"));
        assertThat(scheduler.isIdle()).isFalse();
        PendingUrl url = scheduler.poll();
        assertThat(scheduler.isIdle()).as("in flight").isFalse();
        scheduler.finished(url);
        assertThat(scheduler.isIdle()).isTrue();
    }

    @Test
    void oneWaitOnSchedulersSharingAMonitorWakesWhenAnyOfThemGetsWork() throws Exception {
        PolitenessConfig config = CrawlProfile.defaults().with(POLITENESS_DELAY, Duration.ZERO)
                .with(POLITENESS_RESPECT_ROBOTS, false).politeness();
        Monitor monitor = new Monitor();
        java.time.Instant now = java.time.Instant.now();
        HostScheduler first = new HostScheduler(config, java.time.Clock.systemUTC(), now, monitor);
        HostScheduler second = new HostScheduler(config, java.time.Clock.systemUTC(), now, monitor);
        Thread adder = new Thread(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
            second.add(PendingUrl.seed("http://b.test/"));
        });
        long started = System.nanoTime();
        adder.start();
        HostScheduler.awaitAny(List.of(first, second), Duration.ofSeconds(20));
        long waitedMillis = (System.nanoTime() - started) / 1_000_000;
        adder.join();
        assertThat(waitedMillis).as("woken by the second scheduler's new work, not the 20 s bound").isLessThan(10_000);
        assertThat(second.poll()).isNotNull();
    }

    @Test
    void schedulersWithTheirOwnMonitorsCannotBeWaitedOnTogether() {
        PolitenessConfig config = PolitenessConfig.defaults();
        HostScheduler first = new HostScheduler(config, new FakeClock());
        HostScheduler second = new HostScheduler(config, new FakeClock());
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> HostScheduler.awaitAny(List.of(first, second), Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one monitor");
    }
}
