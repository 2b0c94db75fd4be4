package org.sievecrawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_RESPECT_ROBOTS;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sievecrawler.fixtures.FakeClock;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.sieve.PendingUrl;

/** One wait on several host schedulers that share a {@link Monitor}. */
class MonitorTest {
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
        Monitor.awaitAny(List.of(first, second), Duration.ofSeconds(20));
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
                () -> Monitor.awaitAny(List.of(first, second), Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one monitor");
    }
}
