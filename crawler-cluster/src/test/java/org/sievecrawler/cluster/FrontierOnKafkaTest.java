package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sievecrawler.sieve.PendingUrl;

/**
 * {@link FrontierProducer} and the frontier's record format against a real one-node Kafka 4 broker
 * ({@link LocalKafka}), where {@code FrontierProducerTest} uses Kafka's MockProducer: after {@code init}, seeds of
 * two hosts sent through Kafka's own partitioner are read back from {@code <crawl>.frontier}, each host's URLs in one
 * partition ({@link FrontierRecords#partition}) and every value a PendingUrl. Bad records on a real broker:
 * {@code PoisonRecordsOnKafkaTest}.
 */
class FrontierOnKafkaTest {
    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    @Test
    void seedsOfAHostLandInOnePartitionAndReadBack() throws Exception {
        CrawlName crawl = new CrawlName("seeded");
        try (ClusterAdmin admin = ClusterAdmin.connect(kafka.bootstrap(), Duration.ofSeconds(30))) {
            admin.init(new ClusterTopics(crawl, 6, (short) 1));
        }
        List<PendingUrl> seeds = List.of(PendingUrl.seed("http://a.example/"),
                PendingUrl.seed("https://a.example:8443/x"), PendingUrl.seed("https://b.example/"));
        FrontierProducer.Acknowledged acknowledged;
        try (FrontierProducer frontier = FrontierProducer.connect(kafka.bootstrap(), crawl, Duration.ofSeconds(30))) {
            for (PendingUrl seed : seeds) {
                assertThat(frontier.send(seed)).isTrue();
            }
            frontier.flush();
            acknowledged = frontier.acknowledged();
        }
        assertThat(acknowledged.urls()).isEqualTo(3);

        List<ConsumerRecord<String, PendingUrl>> records = readAll("seeded.frontier", 6, 3);

        assertThat(records).extracting(ConsumerRecord::value).containsExactlyInAnyOrderElementsOf(seeds);
        Map<String, Set<Integer>> partitionsByHost = new HashMap<>();
        records.forEach(r -> partitionsByHost.computeIfAbsent(r.key(), k -> new HashSet<>()).add(r.partition()));
        assertThat(partitionsByHost).containsOnlyKeys("a.example", "b.example")
                .allSatisfy((host, partitions) -> assertThat(partitions)
                        .containsExactly(FrontierRecords.partition(host, 6)));
        assertThat(acknowledged.partitions()).containsExactlyInAnyOrderElementsOf(
                partitionsByHost.values().stream().flatMap(Set::stream).toList());
    }

    /** The first {@code count} records of {@code topic}, from the beginning of its {@code partitions} partitions. */
    private static List<ConsumerRecord<String, PendingUrl>> readAll(String topic, int partitions, int count) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<String, PendingUrl>> records = new ArrayList<>();
        try (KafkaConsumer<String, PendingUrl> consumer = new KafkaConsumer<>(properties, new StringDeserializer(),
                new PendingUrlDeserializer())) {
            List<TopicPartition> all = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p))
                    .toList();
            consumer.assign(all);
            consumer.seekToBeginning(all);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (records.size() < count && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        assertThat(records).as("records read from " + topic).hasSize(count);
        return records;
    }
}
