package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
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
 * {@link BackPressure} on Kafka's MockConsumer: a partition whose frontier holds more than its share of the bound is
 * paused, and resumed once it holds less than half of it; a share is never below 1,000 URLs.
 */
class BackPressureTest {
    private static final SieveConfig SIEVE = new SieveConfig(100_000, 1e-3, OverflowPolicy.WARN, 100_000);
    private static final PolitenessConfig POLITE = CrawlProfile.defaults()
            .with(ProfileKeys.POLITENESS_DELAY, Duration.ZERO).with(ProfileKeys.POLITENESS_RESPECT_ROBOTS, false)
            .politeness();
    private static final CrawlName CRAWL = new CrawlName("docs");

    @TempDir
    Path dir;

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final OwnedPartitions owned = new OwnedPartitions(10_000, Duration.ofSeconds(5));
    private final Assignment assignment = new Assignment(owned);

    /** Partition {@code p}, owned, its frontier holding {@code waiting} URLs of as many hosts. */
    private OwnedPartition owning(int p, int waiting) throws Exception {
        TopicPartition topic = new TopicPartition(CRAWL.topic(ClusterTopics.FRONTIER), p);
        Frontier frontier = owned.group().open(new Frontier.Settings(SIEVE, POLITE, 4, dir.resolve("p" + p)),
                Clock.systemUTC(), record -> { }, (page, links, durable) -> durable.run(), Instant.EPOCH, Optional.empty(),
                CompletedUrls.none());
        List<PendingUrl> urls = new ArrayList<>();
        for (int i = 0; i < waiting; i++) {
            urls.add(PendingUrl.seed("http://h" + i + ".p" + p + ".test/"));
        }
        frontier.offer(urls);
        OwnedPartition partition = new OwnedPartition(topic, frontier, 0, 0, 0,
                new CheckpointMark(Optional.empty(), 0, 0, 0, 0, "p1", 0));
        assignment.add(partition);
        return partition;
    }

    @Test
    void aPartitionOverItsShareIsPausedAndResumedBelowHalfOfIt() throws Exception {
        consumer.assign(List.of(new TopicPartition(CRAWL.topic(ClusterTopics.FRONTIER), 0),
                new TopicPartition(CRAWL.topic(ClusterTopics.FRONTIER), 1)));
        OwnedPartition full = owning(0, 2_100);
        OwnedPartition light = owning(1, 10);
        BackPressure pressure = new BackPressure(consumer, assignment, 4_000); // a share of 2,000 each

        pressure.adjust();
        assertThat(consumer.paused()).containsExactly(full.topic);
        assertThat(full.paused).isTrue();
        assertThat(light.paused).isFalse();

        for (int i = 0; i < 1_000; i++) { // 1,100 waiting: under the share, not yet under half of it
            assertThat(full.frontier.next()).isNotNull();
        }
        pressure.adjust();
        assertThat(consumer.paused()).as("still over half its share").containsExactly(full.topic);

        for (int i = 0; i < 200; i++) { // 900 waiting
            assertThat(full.frontier.next()).isNotNull();
        }
        pressure.adjust();
        assertThat(consumer.paused()).isEmpty();
        assertThat(full.paused).isFalse();
    }

    @Test
    void aShareIsNeverBelowAThousandUrls() throws Exception {
        consumer.assign(List.of(new TopicPartition(CRAWL.topic(ClusterTopics.FRONTIER), 0)));
        OwnedPartition partition = owning(0, 1_000);
        new BackPressure(consumer, assignment, 10).adjust();
        assertThat(consumer.paused()).as("1,000 waiting is the least share").isEmpty();
        partition.frontier.offer(List.of(PendingUrl.seed("http://one-more.test/")));
        new BackPressure(consumer, assignment, 10).adjust();
        assertThat(consumer.paused()).containsExactly(partition.topic);
    }
}
