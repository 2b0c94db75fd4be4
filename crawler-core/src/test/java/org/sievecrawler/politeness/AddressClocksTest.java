package org.sievecrawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_PER;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_RESPECT_ROBOTS;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sievecrawler.fixtures.FakeClock;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.profile.PolitenessUnit;
import org.sievecrawler.sieve.PendingUrl;

class AddressClocksTest {
    private static final Duration DELAY = Duration.ofSeconds(1);
    private static final Duration REQUEST = Duration.ofMillis(200);
    /** a.test and b.test are virtual hosts of one server; c.test is another; nowhere.test does not resolve. */
    private static final Map<String, String> DNS = Map.of("a.test", "192.0.2.7", "b.test", "192.0.2.7",
            "c.test", "192.0.2.8");

    private final FakeClock clock = new FakeClock();
    private final List<String> resolved = new ArrayList<>();

    /** One request of a crawl: its host, and when it started and ended (ms from the start). */
    private record Request(String host, long start, long end) {
    }

    private HostScheduler scheduler(PolitenessUnit per, int connections) {
        PolitenessConfig config = CrawlProfile.defaults().with(POLITENESS_RESPECT_ROBOTS, false)
                .with(POLITENESS_DELAY, DELAY).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, connections)
                .with(POLITENESS_PER, per).politeness();
        return new HostScheduler(config, clock).perAddress(AddressClocks.of(config, name -> {
            resolved.add(name);
            return DNS.get(name);
        }));
    }

    /**
     * What a fetcher does ({@code Frontier.next}): looks up the addresses of hosts found unresolved, outside the
     * scheduler's lock, then polls; once more if the poll found hosts to resolve.
     */
    private static PendingUrl poll(HostScheduler scheduler) {
        scheduler.resolveAddresses();
        PendingUrl url = scheduler.poll();
        if (url == null) {
            scheduler.resolveAddresses();
            url = scheduler.poll();
        }
        return url;
    }

    /** Crawls {@code urls} by as many fetchers as needed, each request taking {@link #REQUEST}, in 10 ms steps. */
    private List<Request> crawl(HostScheduler scheduler, List<String> urls) {
        urls.forEach(url -> scheduler.add(PendingUrl.seed(url)));
        long start = clock.millis();
        List<Request> done = new ArrayList<>();
        List<PendingUrl> inFlight = new ArrayList<>();
        List<Long> startedAt = new ArrayList<>();
        while (!scheduler.isIdle()) {
            long now = clock.millis() - start;
            for (int i = inFlight.size() - 1; i >= 0; i--) {
                if (now - startedAt.get(i) >= REQUEST.toMillis()) {
                    PendingUrl url = inFlight.remove(i);
                    done.add(new Request(HostKey.host(url.url()), startedAt.remove(i), now));
                    scheduler.finished(url);
                }
            }
            for (PendingUrl url = poll(scheduler); url != null; url = poll(scheduler)) {
                inFlight.add(url);
                startedAt.add(now);
            }
            clock.advance(Duration.ofMillis(10));
        }
        return done;
    }

    private static List<String> urls() {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            urls.add("http://a.test/" + i);
            urls.add("http://b.test/" + i);
            urls.add("http://c.test/" + i);
        }
        return urls;
    }

    /** The least time between the end of a request to {@code hosts} and the start of the next, and most at once. */
    private static long[] gapsAndOverlap(List<Request> requests, List<String> hosts) {
        List<Request> mine = requests.stream().filter(r -> hosts.contains(r.host()))
                .sorted((x, y) -> Long.compare(x.start(), y.start())).toList();
        long leastGap = Long.MAX_VALUE;
        long mostAtOnce = 0;
        for (int i = 0; i < mine.size(); i++) {
            Request r = mine.get(i);
            long atOnce = mine.stream().filter(o -> o.start() <= r.start() && o.end() > r.start()).count();
            mostAtOnce = Math.max(mostAtOnce, atOnce);
            if (i > 0) {
                long lastEnd = mine.subList(0, i).stream().mapToLong(Request::end).max().orElseThrow();
                leastGap = Math.min(leastGap, r.start() - lastEnd);
            }
        }
        return new long[] {leastGap, mostAtOnce};
    }

    @Test
    void perIpTwoHostsOnOneAddressAreNeverAskedCloserThanTheDelay() {
        List<Request> requests = crawl(scheduler(PolitenessUnit.IP, 1), urls());

        assertThat(requests).hasSize(12);
        long[] shared = gapsAndOverlap(requests, List.of("a.test", "b.test"));
        assertThat(shared[0]).as("least gap between requests to 192.0.2.7, ms").isGreaterThanOrEqualTo(1000);
        assertThat(shared[1]).as("requests to 192.0.2.7 at once").isEqualTo(1);
        long[] other = gapsAndOverlap(requests, List.of("c.test"));
        assertThat(other[0]).as("c.test on its own address keeps its own pace").isBetween(1000L, 1010L);
        assertThat(resolved).as("each host resolved once, before its first request")
                .containsExactlyInAnyOrder("a.test", "b.test", "c.test");
    }

    @Test
    void perHostTwoHostsOnOneAddressAreAskedAtOnce() {
        List<Request> requests = crawl(scheduler(PolitenessUnit.HOST, 1), urls());

        assertThat(requests).hasSize(12);
        long[] shared = gapsAndOverlap(requests, List.of("a.test", "b.test"));
        assertThat(shared[1]).as("a.test and b.test fetched side by side").isEqualTo(2);
        assertThat(resolved).as("no lookup by the scheduler").isEmpty();
        long[] one = gapsAndOverlap(requests, List.of("a.test"));
        assertThat(one[0]).as("each host still keeps its delay").isGreaterThanOrEqualTo(1000);
    }

    @Test
    void perIpAnAddressTakesItsConnectionsAcrossItsHosts() {
        List<Request> requests = crawl(scheduler(PolitenessUnit.IP, 2), urls());

        assertThat(requests).hasSize(12);
        assertThat(gapsAndOverlap(requests, List.of("a.test", "b.test"))[1]).as("two connections to 192.0.2.7")
                .isEqualTo(2);
    }

    @Test
    void perIpAHostParkedAndBackStillWaitsForItsAddressesDelay() {
        HostScheduler scheduler = scheduler(PolitenessUnit.IP, 1);
        scheduler.add(PendingUrl.seed("http://a.test/1"));
        scheduler.add(PendingUrl.seed("http://b.test/1"));
        PendingUrl a = poll(scheduler);
        assertThat(a.url()).isEqualTo("http://a.test/1");
        scheduler.finished(a); // at 0: 192.0.2.7 and a.test wait until 1,000
        clock.advance(DELAY);
        PendingUrl b = poll(scheduler);
        assertThat(b.url()).isEqualTo("http://b.test/1");
        clock.advance(Duration.ofMillis(500));
        scheduler.finished(b); // at 1,500: 192.0.2.7 waits until 2,500
        assertThat(poll(scheduler)).isNull(); // a.test, idle since its own delay passed at 1,000, is parked
        assertThat(scheduler.activeHosts()).as("b.test within its delay").isEqualTo(1);

        scheduler.add(PendingUrl.seed("http://a.test/2")); // at 1,500: a.test back, its address forgotten
        assertThat(poll(scheduler)).as("resolved again, 192.0.2.7 still in its delay").isNull();
        assertThat(resolved).as("a.test resolved again after parking").containsExactly("a.test", "b.test", "a.test");
        clock.advance(Duration.ofMillis(999));
        assertThat(poll(scheduler)).as("at 2,499").isNull();
        clock.advance(Duration.ofMillis(1));
        assertThat(poll(scheduler).url()).as("at 2,500, the address's delay after b.test").isEqualTo("http://a.test/2");
    }

    @Test
    void perIpKeepsAddressesOfHeldHostsOnlyAndSweepsClocksWhoseDelayIsOver() {
        PolitenessConfig config = CrawlProfile.defaults().with(POLITENESS_RESPECT_ROBOTS, false)
                .with(POLITENESS_DELAY, DELAY).with(POLITENESS_PER, PolitenessUnit.IP).politeness();
        AddressClocks clocks = AddressClocks.of(config, name -> "10." + name.replaceAll("[^0-9]", "") + ".0.1");
        HostScheduler scheduler = new HostScheduler(config, clock).perAddress(clocks);
        int hostCount = 20_000; // each on an address of its own, one URL, then never again
        int mostClocks = 0;
        for (int h = 0; h < hostCount; h++) {
            scheduler.add(PendingUrl.seed("http://h" + h + ".test/"));
            PendingUrl url = poll(scheduler);
            assertThat(url).isNotNull();
            scheduler.finished(url);
            clock.advance(Duration.ofMillis(10)); // 100 hosts a second: ~100 addresses in their delay at once
            mostClocks = Math.max(mostClocks, clocks.clockCount());
        }
        clock.advance(DELAY);
        assertThat(poll(scheduler)).isNull();
        assertThat(scheduler.activeHosts()).as("every host parked").isZero();
        assertThat(clocks.addressCount()).as("no address kept for a parked host").isZero();
        assertThat(mostClocks).as("clocks kept at most (~100 busy addresses at a time)")
                .isLessThanOrEqualTo(AddressClocks.MIN_SWEEP);
    }

    @Test
    void perIpANameThatDoesNotResolveIsItsOwnUnit() {
        HostScheduler scheduler = scheduler(PolitenessUnit.IP, 1);
        scheduler.add(PendingUrl.seed("http://nowhere.test/1"));
        scheduler.add(PendingUrl.seed("http://a.test/1"));

        PendingUrl first = poll(scheduler);
        PendingUrl second = poll(scheduler);
        assertThat(List.of(first.url(), second.url())).containsExactlyInAnyOrder("http://nowhere.test/1",
                "http://a.test/1");
        scheduler.finished(first);
        scheduler.finished(second);
        assertThat(scheduler.isIdle()).isTrue();
    }
}
