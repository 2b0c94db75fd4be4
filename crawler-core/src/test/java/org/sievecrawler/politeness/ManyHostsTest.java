package org.sievecrawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_RESPECT_ROBOTS;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FakeClock;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.PolitenessConfig;
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
        HostScheduler hosts = new HostScheduler(noRobots(), clock, new SchedulerLimits(100, Integer.MAX_VALUE));
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
