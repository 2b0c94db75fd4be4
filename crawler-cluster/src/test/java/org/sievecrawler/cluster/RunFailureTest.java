package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.frontier.CompletedUrls;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.profile.ProfileKeys;
import org.sievecrawler.profile.SieveConfig;
import org.sievecrawler.sieve.OverflowPolicy;
import org.sievecrawler.sieve.PendingUrl;

/**
 * {@link RunFailure}: the first failure reported stops the process once (no lease any more, the stop asked), a later
 * one is dropped, and the process ends with a message naming the cluster, the process and the partitions it owned.
 */
class RunFailureTest {
    private static final String CLUSTER = "kafka-1:9092";
    private static final SieveConfig SIEVE = new SieveConfig(10_000, 1e-3, OverflowPolicy.WARN, 10_000);
    private static final PolitenessConfig POLITE = CrawlProfile.defaults()
            .with(ProfileKeys.POLITENESS_DELAY, Duration.ZERO).with(ProfileKeys.POLITENESS_RESPECT_ROBOTS, false)
            .politeness();

    @TempDir
    Path dir;

    private final OwnedPartitions owned = new OwnedPartitions(4, Duration.ofSeconds(5));
    private final AtomicInteger stops = new AtomicInteger();
    private final RunFailure failure = new RunFailure(new CrawlName("docs"), CLUSTER, Duration.ofSeconds(15), owned,
            stops::incrementAndGet);

    private void owning(int partition) throws Exception {
        Frontier frontier = owned.group().open(new Frontier.Settings(SIEVE, POLITE, 4, dir.resolve("p" + partition)),
                Clock.systemUTC(), record -> { }, (page, links, durable) -> durable.run(), Instant.EPOCH, Optional.empty(),
                CompletedUrls.none());
        frontier.offer(List.of(PendingUrl.seed("http://p" + partition + ".test/")));
        owned.add(partition, frontier);
    }

    @Test
    void theFirstFailureStopsTheProcessOnceAndALaterOneIsDropped() throws Exception {
        owning(0);
        owned.proven();
        assertThat(failure.happened()).isFalse();
        failure.throwIfFailed();

        ClusterException first = new ClusterException(ClusterException.Kind.UNAVAILABLE, "first");
        failure.fail(first);
        failure.fail(new ClusterException(ClusterException.Kind.REFUSED, "second"));

        assertThat(stops).hasValue(1);
        assertThat(failure.first()).containsSame(first);
        assertThat(owned.next(Duration.ZERO)).as("no lease once the cluster failed").isNull();
        assertThatThrownBy(failure::throwIfFailed).isInstanceOf(ClusterException.class).hasMessage("first")
                .hasFieldOrPropertyWithValue("kind", ClusterException.Kind.UNAVAILABLE);
    }

    @Test
    void theProcessEndsNamingTheClusterItselfAndThePartitionsItOwnedWhenTheClusterFailed() throws Exception {
        owning(3);
        owning(0);
        failure.fail(failure.unavailable("reading the frontier", new KafkaException("outer",
                new KafkaException("Connection refused"))));
        owning(5); // taken after the failure: not named

        assertThat(failure.ending("p1")).hasMessage("the Kafka cluster at kafka-1:9092 failed while reading the"
                + " frontier: Connection refused. Process p1 stopped without handing its partitions [0, 3] back: they"
                + " go on from their last checkpoint once a process takes them (this one started again, when the"
                + " cluster answers), fetching again what was fetched since")
                .hasFieldOrPropertyWithValue("kind", ClusterException.Kind.UNAVAILABLE);
    }

    @Test
    void aClusterThatDidNotAnswerIsNamedOnceAndAProcessWithoutPartitionsSaysSo() {
        failure.fail(failure.noAnswer("member p1 of docs.crawlers"));

        assertThat(failure.ending("p1")).hasMessage("no answer from the Kafka cluster at kafka-1:9092 within 15s"
                + " (--timeout) to member p1 of docs.crawlers: is a broker running there and reachable from here?"
                + " Process p1 stopped; it owned no partition");
    }

    @Test
    void aFailureNotNamingTheClusterIsToldAsTheClustersAndRefusalsKeepTheirKind() {
        failure.fail(new ClusterException(ClusterException.Kind.REFUSED, "partition 2: the snapshot is gone"));

        assertThat(failure.ending("p1")).hasMessage("the Kafka cluster at kafka-1:9092 failed: partition 2: the"
                + " snapshot is gone. Process p1 stopped; it owned no partition")
                .hasFieldOrPropertyWithValue("kind", ClusterException.Kind.REFUSED);
    }
}
