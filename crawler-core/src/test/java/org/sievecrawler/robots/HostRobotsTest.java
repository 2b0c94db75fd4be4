package org.sievecrawler.robots;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.profile.ProfileKeys;
import org.sievecrawler.sieve.PendingUrl;

/**
 * {@link HostRobots} alone, its time given as epoch milliseconds: what the scheduler that holds it is told at each step.
 * How the scheduler then hands out a host's tasks is {@code HostSchedulerTest}'s.
 */
class HostRobotsTest {
    private static final String HOST = "https://a.example";
    private static final PolitenessConfig POLITE = PolitenessConfig.defaults();
    private static final long RETRY = POLITE.robotsRetry().toMillis();
    private static final long DAY = Duration.ofHours(24).toMillis();

    private static RobotsRules unavailable(String reason) {
        return RobotsRules.unreachable(reason);
    }

    @Test
    void namesTheRobotsTxtOfAHostKey() {
        assertThat(HostRobots.url("http://[::1]:81")).isEqualTo("http://[::1]:81/robots.txt");
        assertThat(HostRobots.url(HOST)).isEqualTo("https://a.example/robots.txt");
    }

    @Test
    void isDueFirstAndHoldsThePagesWhileItIsFetched() {
        HostRobots robots = new HostRobots(HOST, POLITE);
        assertThat(robots.due(0)).isTrue();
        assertThat(robots.fetching()).isFalse();
        assertThat(robots.rules().allows(HOST + "/")).as("nothing before the rules").isFalse();
        assertThat(robots.rules().reason()).isEqualTo("robots.txt of https://a.example not fetched yet");

        PendingUrl task = robots.start(0);

        assertThat(task.url()).isEqualTo("https://a.example/robots.txt");
        assertThat(task.isRobots()).isTrue();
        assertThat(task.attempt()).isZero();
        assertThat(robots.fetching()).isTrue();
        assertThat(robots.due(0)).as("still due while fetched: the pages wait").isTrue();
    }

    @Test
    void holdsItsRulesForADayThenIsDueAgainKeepingThemMeanwhile() {
        HostRobots robots = new HostRobots(HOST, POLITE);
        robots.start(1_000);
        RobotsRules rules = RobotsRules.allowAll("robots.txt answered 404: everything allowed");

        assertThat(robots.fetched(rules, 1_000, 5)).as("the rules hold").isTrue();

        assertThat(robots.rules()).isSameAs(rules);
        assertThat(robots.due(1_000 + DAY - 1)).isFalse();
        assertThat(robots.due(1_000 + DAY)).isTrue();
        assertThat(robots.rules()).as("the old rules until the new ones come").isSameAs(rules);
        assertThat(robots.startAt(77)).as("at the host's polite time").isEqualTo(77);
    }

    @Test
    void triesAnUnavailableRobotsTxtAgainAfterDoublingWaitsThenGivesUpRefusingEverything() {
        HostRobots robots = new HostRobots(HOST, POLITE);
        long now = 0;
        robots.start(now);

        assertThat(robots.fetched(unavailable("robots.txt answered 503"), now, 1)).isFalse();
        assertThat(robots.due(now)).isTrue();
        assertThat(robots.startAt(now)).isEqualTo(now + RETRY);
        assertThat(robots.start(now + RETRY - 1)).as("waits for its retry time").isNull();
        PendingUrl second = robots.start(now + RETRY);
        assertThat(second.attempt()).isEqualTo(1);

        now += RETRY;
        assertThat(robots.fetched(unavailable("robots.txt could not be fetched: read timed out"), now, 1)).isFalse();
        assertThat(robots.startAt(now)).as("the second wait is doubled").isEqualTo(now + 2 * RETRY);
        PendingUrl third = robots.start(now + 2 * RETRY);
        assertThat(third.attempt()).isEqualTo(2);

        now += 2 * RETRY;
        RobotsRules last = unavailable("robots.txt answered 500: host disallowed until it answers");
        assertThat(robots.fetched(last, now, 1)).isFalse();
        assertThat(robots.due(now + 10 * DAY)).as("given up: never due again").isFalse();
        assertThat(robots.rules()).isSameAs(last);
        assertThat(robots.rules().allows(HOST + "/page")).isFalse();
    }

    @Test
    void triesARobotsTxtThatCouldNotReachItsHostAgainAfterTheGivenBackoff() {
        HostRobots robots = new HostRobots(HOST, POLITE);
        robots.start(0);

        robots.retry(100, Duration.ofSeconds(1));

        assertThat(robots.fetching()).isFalse();
        assertThat(robots.startAt(0)).isEqualTo(1_100);
        assertThat(robots.start(1_099)).isNull();
        assertThat(robots.start(1_100).attempt()).isEqualTo(1);
    }

    @Test
    void isNeverDueOnceItsHostIsUnreachable() {
        HostRobots robots = new HostRobots(HOST, POLITE);
        robots.start(0);

        robots.hostUnreachable();

        assertThat(robots.fetching()).isFalse();
        assertThat(robots.due(10 * DAY)).isFalse();
    }

    @Test
    void isNeverDueAndAllowsEverythingWhenRobotsTxtIsNotRespected() {
        HostRobots robots = new HostRobots(HOST, CrawlProfile.defaults().with(ProfileKeys.POLITENESS_RESPECT_ROBOTS, false).politeness());

        assertThat(robots.due(0)).isFalse();
        assertThat(robots.due(10 * DAY)).isFalse();
        assertThat(robots.rules()).isSameAs(HostRobots.NOT_RESPECTED);
        assertThat(robots.rules().allows(HOST + "/private")).isTrue();
        assertThat(robots.rules().reason()).isEqualTo("politeness.respect-robots is false");
    }
}
