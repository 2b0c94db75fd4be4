package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sievecrawler.sieve.PendingUrl;

/**
 * {@link ClusterAdmin#status} against a real one-node Kafka 4 broker ({@link LocalKafka}): three seeds are sent and
 * not consumed (lag 3, no owner, not started); a consumer in the crawl's group {@code <crawl>.crawlers} reads and
 * commits them (consumed 3, lag 0) and owns every partition while subscribed, none after it closes. Then checkpoint
 * marks committed as offset metadata by a consumer of the group: read back per partition (another tool's metadata
 * is no mark, a broken mark is unreadable without failing the status), and drained only once every partition with
 * records has a mark with nothing pending, and not again after one more seed.
 */
class ClusterStatusOnKafkaTest {
    private static final int PARTITIONS = 4;

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    @Test
    void statusFollowsSeedsThroughAConsumerOfTheCrawlsGroup() throws Exception {
        CrawlName crawl = new CrawlName("watched");
        try (ClusterAdmin admin = ClusterAdmin.connect(kafka.bootstrap(), Duration.ofSeconds(30))) {
            admin.init(new ClusterTopics(crawl, PARTITIONS, (short) 1));
        }
        List<PendingUrl> seeds = List.of(PendingUrl.seed("http://a.example/"), PendingUrl.seed("https://a.example/x"),
                PendingUrl.seed("https://b.example/"));
        try (FrontierProducer frontier = FrontierProducer.connect(kafka.bootstrap(), crawl, Duration.ofSeconds(30))) {
            for (PendingUrl seed : seeds) {
                frontier.send(seed);
            }
            frontier.flush();
        }
        Map<Integer, Long> expected = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            expected.put(p, 0L);
        }
        for (String host : List.of("a.example", "a.example", "b.example")) {
            expected.merge(BuiltInPartitioner.partitionForKey(host.getBytes(StandardCharsets.UTF_8), PARTITIONS), 1L,
                    Long::sum);
        }

        try (ClusterAdmin admin = ClusterAdmin.connect(kafka.bootstrap(), Duration.ofSeconds(30))) {
            ClusterStatus sent = admin.status(crawl);
            assertThat(sent.group()).isEqualTo("watched.crawlers");
            assertThat(sent.partitions()).allSatisfy(p -> {
                assertThat(p.sent()).as("partition " + p.partition()).isEqualTo(expected.get(p.partition()));
                assertThat(p.owner()).isEmpty();
                assertThat(p.committed()).isEmpty();
                assertThat(p.done()).isZero();
            }).hasSize(PARTITIONS);
            assertThat(sent.sent()).isEqualTo(3);
            assertThat(sent.lag()).isEqualTo(3);

            Properties properties = new Properties();
            properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
            properties.put(ConsumerConfig.GROUP_ID_CONFIG, ClusterTopics.group(crawl));
            properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "crawler-test");
            properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            try (KafkaConsumer<String, PendingUrl> consumer = new KafkaConsumer<>(properties, new StringDeserializer(),
                    new PendingUrlDeserializer())) {
                consumer.subscribe(List.of("watched.frontier"));
                List<ConsumerRecord<String, PendingUrl>> records = new ArrayList<>();
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (records.size() < seeds.size() && System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                }
                assertThat(records).extracting(ConsumerRecord::value).containsExactlyInAnyOrderElementsOf(seeds);
                consumer.commitSync(Duration.ofSeconds(30));

                ClusterStatus consumed = admin.status(crawl);
                assertThat(consumed.consumed()).isEqualTo(3);
                assertThat(consumed.lag()).isZero();
                assertThat(consumed.partitions()).allSatisfy(p -> assertThat(p.owner())
                        .as("partition " + p.partition()).hasValueSatisfying(o -> assertThat(o)
                                .startsWith("crawler-test@")));
                assertThat(consumed.owners()).hasSize(1);
                assertThat(consumed.partitions()).filteredOn(p -> p.sent() > 0)
                        .allSatisfy(p -> assertThat(p.committed()).isEqualTo(OptionalLong.of(p.sent())));
            }

            ClusterStatus left = admin.status(crawl);
            assertThat(left.partitions()).extracting(ClusterStatus.Partition::owner).containsOnly(Optional.empty());
            assertThat(left.consumed()).isEqualTo(3);
            assertThat(left.lag()).isZero();
        }
    }

    @Test
    void marksCommittedAsOffsetMetadataShowPerPartitionAndTellWhenTheCrawlHasDrained() throws Exception {
        CrawlName crawl = new CrawlName("marked");
        String frontier = crawl.topic(ClusterTopics.FRONTIER);
        try (ClusterAdmin admin = ClusterAdmin.connect(kafka.bootstrap(), Duration.ofSeconds(30))) {
            admin.init(new ClusterTopics(crawl, PARTITIONS, (short) 1));
            List<PendingUrl> seeds = List.of(PendingUrl.seed("https://a.example/"),
                    PendingUrl.seed("https://a.example/b"), PendingUrl.seed("https://c.example/"));
            send(crawl, seeds);
            int busy = partition("a.example");
            int other = partition("c.example");
            assertThat(other).as("the two hosts' partitions").isNotEqualTo(busy);
            int empty = java.util.stream.IntStream.range(0, PARTITIONS).filter(p -> p != busy && p != other)
                    .findFirst().orElseThrow();
            int alsoEmpty = java.util.stream.IntStream.range(0, PARTITIONS)
                    .filter(p -> p != busy && p != other && p != empty).findFirst().orElseThrow();

            try (KafkaConsumer<String, PendingUrl> consumer = consumer(crawl, "crawler-marks")) {
                consumer.subscribe(List.of(frontier));
                List<ConsumerRecord<String, PendingUrl>> records = new ArrayList<>();
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (records.size() < seeds.size() && System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                }
                assertThat(records).hasSize(seeds.size());
                Map<Integer, Long> sent = new HashMap<>();
                records.forEach(r -> sent.merge(r.partition(), 1L, Long::sum));

                // the owner admitted everything, one URL of the busy partition not fetched yet
                Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
                for (int p : sent.keySet()) {
                    commits.put(new TopicPartition(frontier, p), new OffsetAndMetadata(sent.get(p),
                            mark(sent.get(p), p == busy ? 1 : 0).encode()));
                }
                commits.put(new TopicPartition(frontier, empty), new OffsetAndMetadata(0, "another tool's note"));
                commits.put(new TopicPartition(frontier, alsoEmpty), new OffsetAndMetadata(0, "v1;broken"));
                consumer.commitSync(commits, Duration.ofSeconds(30));

                ClusterStatus pending = admin.status(crawl);
                ClusterStatus.Partition busyLine = pending.partitions().get(busy);
                assertThat(busyLine.mark()).hasValueSatisfying(m -> {
                    assertThat(m.consumed()).isEqualTo(sent.get(busy));
                    assertThat(m.pending()).isEqualTo(1);
                    assertThat(m.member()).isEqualTo("crawler-marks");
                });
                assertThat(pending.partitions().get(other).mark()).isPresent();
                assertThat(pending.partitions().get(empty).mark()).isEmpty();
                assertThat(pending.partitions().get(empty).unreadable()).isEmpty();
                assertThat(pending.partitions().get(alsoEmpty).unreadable()).hasValueSatisfying(
                        why -> assertThat(why).startsWith("partition " + alsoEmpty + " of marked.frontier:"
                                + " unreadable checkpoint mark: checkpoint metadata \"v1;broken\""));
                assertThat(pending.pending()).isEqualTo(1);
                assertThat(pending.notDrained(ClusterStatus.DEFAULT_MARK_STALENESS))
                        .containsExactly("partition " + busy + ": 1 pending");

                // fetched: nothing pending anywhere
                commits.put(new TopicPartition(frontier, busy), new OffsetAndMetadata(sent.get(busy),
                        mark(sent.get(busy), 0).encode()));
                consumer.commitSync(commits, Duration.ofSeconds(30));
                ClusterStatus drained = admin.status(crawl);
                assertThat(drained.notDrained(ClusterStatus.DEFAULT_MARK_STALENESS)).isEmpty();
                assertThat(drained.drained(ClusterStatus.DEFAULT_MARK_STALENESS)).isTrue();

                // one more record sent after the marks: consumed is below the end offset again
                send(crawl, List.of(PendingUrl.seed("https://c.example/late")));
                ClusterStatus late = admin.status(crawl);
                assertThat(late.notDrained(ClusterStatus.DEFAULT_MARK_STALENESS)).containsExactly("partition "
                        + other + ": consumed " + sent.get(other) + " of " + (sent.get(other) + 1) + " records");
            }
        }
    }

    private static CheckpointMark mark(long consumed, long pending) {
        return new CheckpointMark(Optional.empty(), 0, consumed, pending, 0, "crawler-marks",
                System.currentTimeMillis());
    }

    private static int partition(String host) {
        return BuiltInPartitioner.partitionForKey(host.getBytes(StandardCharsets.UTF_8), PARTITIONS);
    }

    private static void send(CrawlName crawl, List<PendingUrl> urls) throws Exception {
        try (FrontierProducer frontier = FrontierProducer.connect(kafka.bootstrap(), crawl, Duration.ofSeconds(30))) {
            for (PendingUrl url : urls) {
                frontier.send(url);
            }
            frontier.flush();
        }
    }

    private static KafkaConsumer<String, PendingUrl> consumer(CrawlName crawl, String clientId) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, ClusterTopics.group(crawl));
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(properties, new StringDeserializer(), new PendingUrlDeserializer());
    }
}
