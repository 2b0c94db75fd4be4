package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_RESPECT_ROBOTS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_FALSE_POSITIVE_RATE;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_MAX_IN_MEMORY_URLS;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.frontier.CompletedUrls;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.frontier.Lease;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.profile.SieveConfig;
import org.sievecrawler.sieve.PendingUrl;

/**
 * {@link OwnedPartitions} without Kafka: leases come from every owned partition's frontier in turn, never more than
 * the process's cap at once, and none at all without a recent proof of membership or after a failure.
 */
class OwnedPartitionsTest {
    private static final CrawlProfile PROFILE = CrawlProfile.defaults().with(SIEVE_EXPECTED_URLS, 10_000L)
            .with(SIEVE_FALSE_POSITIVE_RATE, 1e-3).with(SIEVE_MAX_IN_MEMORY_URLS, 10_000)
            .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_RESPECT_ROBOTS, false)
            .with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 10);
    private static final SieveConfig SIEVE = PROFILE.sieve();
    private static final PolitenessConfig POLITE = PROFILE.politeness();

    @TempDir
    Path dir;

    private Frontier frontier(OwnedPartitions owned, int partition, String host) throws Exception {
        Frontier frontier = owned.group().open(new Frontier.Settings(SIEVE, POLITE, 4, dir.resolve("p" + partition)),
                Clock.systemUTC(), record -> { }, (page, links, durable) -> durable.run(), Instant.EPOCH, Optional.empty(),
                CompletedUrls.none());
        List<PendingUrl> urls = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            urls.add(PendingUrl.seed("http://" + host + "/" + i));
        }
        frontier.offer(urls);
        owned.add(partition, frontier);
        return frontier;
    }

    @Test
    void leasesComeFromEveryPartitionInTurnUpToTheProcesssCap() throws Exception {
        OwnedPartitions owned = new OwnedPartitions(4, Duration.ofSeconds(5));
        frontier(owned, 0, "a.test");
        frontier(owned, 1, "b.test");
        owned.proven();
        List<Lease> leases = new ArrayList<>();
        Set<String> hosts = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            Lease lease = owned.next(Duration.ZERO);
            if (lease != null) {
                leases.add(lease);
                hosts.add(lease.url().substring(7, 13));
            }
        }
        assertThat(leases).as("the cap of 4 leases for the whole process").hasSize(4);
        assertThat(hosts).containsExactlyInAnyOrder("a.test", "b.test");
        assertThat(owned.leases().availablePermits()).isZero();
    }

    @Test
    void noLeaseWithoutARecentProofOfMembershipNorAfterAFailure() throws Exception {
        OwnedPartitions owned = new OwnedPartitions(4, Duration.ofMillis(200));
        frontier(owned, 0, "a.test");
        assertThat(owned.next(Duration.ZERO)).as("never proven").isNull();
        owned.proven();
        assertThat(owned.next(Duration.ZERO)).isNotNull();
        Thread.sleep(300);
        assertThat(owned.next(Duration.ZERO)).as("the proof is older than its window").isNull();
        owned.proven();
        owned.fail();
        assertThat(owned.next(Duration.ZERO)).as("the cluster failed").isNull();
        assertThat(owned.exhausted()).as("a cluster process is never out of work by itself").isFalse();
    }
}
