package org.sievecrawler.robots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sievecrawler.profile.PolitenessConfig;

/** {@link RobotsCache} alone, its time given as epoch milliseconds, as the scheduler parks and brings back hosts. */
class RobotsCacheTest {
    private static final PolitenessConfig POLITE = PolitenessConfig.defaults();
    private static final long DAY = Duration.ofHours(24).toMillis();

    /** A host's robots.txt state with its rules fetched at {@code at}, taken from {@code cache}. */
    private static HostRobots fetched(RobotsCache cache, String host, long at) {
        HostRobots robots = cache.take(host, at);
        robots.start(at);
        robots.fetched(RobotsRules.allowAll("test"), at, 0);
        return robots;
    }

    @Test
    void aParkedHostComesBackWithItsRulesWithinTheDay() {
        RobotsCache cache = new RobotsCache(POLITE, 10);
        cache.park("https://a.example", fetched(cache, "https://a.example", 0));

        HostRobots back = cache.take("https://a.example", DAY - 1);

        assertThat(back.due(DAY - 1)).as("no robots.txt request again").isFalse();
        assertThat(back.rules().reason()).isEqualTo("test");
        assertThat(cache.counts()).isEqualTo(new RobotsCache.Counts(1, 1, 0, 0, 0));
    }

    @Test
    void rulesParkedForADayExpireAndTheHostIsAskedAgain() {
        RobotsCache cache = new RobotsCache(POLITE, 10);
        cache.park("https://a.example", fetched(cache, "https://a.example", 0));

        HostRobots back = cache.take("https://a.example", DAY);

        assertThat(back.due(DAY)).isTrue();
        assertThat(cache.counts()).isEqualTo(new RobotsCache.Counts(1, 0, 0, 1, 0));
    }

    @Test
    void rulesOfAHostBeingCrawledExpireAfterADayAndAreCounted() {
        RobotsCache cache = new RobotsCache(POLITE, 10);
        HostRobots robots = fetched(cache, "https://a.example", 0);

        assertThat(robots.due(DAY)).isTrue();
        assertThat(cache.counts().expiries()).isEqualTo(1);
    }

    @Test
    void holdsAtMostItsCapacityDroppingTheLeastRecentlyParked() {
        RobotsCache cache = new RobotsCache(POLITE, 2);
        for (String host : new String[] {"https://a.example", "https://b.example", "https://c.example"}) {
            cache.park(host, fetched(cache, host, 0));
        }

        assertThat(cache.counts().evictions()).isEqualTo(1);
        assertThat(cache.counts().cached()).isEqualTo(2);
        assertThat(cache.take("https://a.example", 1).due(1)).as("evicted: fetched again").isTrue();
        assertThat(cache.take("https://c.example", 1).due(1)).isFalse();
        assertThat(cache.counts().hits()).isEqualTo(1);
    }

    @Test
    void refusesANegativeCapacityNamingIt() {
        assertThatThrownBy(() -> new RobotsCache(POLITE, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("robots cache capacity must be >= 0, was -1");
    }
}
