package org.sievecrawler.cluster;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.StringSerializer;
import org.sievecrawler.sieve.PendingUrl;

/**
 * A crawl's frontier topic in memory, for tests: a {@link MockProducer} of {@code <crawl>.frontier} on one broker
 * that partitions keyed records as {@code KafkaProducer} does (Kafka's default partitioner: murmur2 of the key bytes,
 * modulo the partitions; MockProducer without a partitioner puts every record in partition 0). Used by this module's
 * tests and by crawler-cli's (through the test jar).
 */
public final class MockFrontier {
    private MockFrontier() {
    }

    /** A producer for {@code crawl}'s frontier of {@code partitions}, whose sends complete at once or when told. */
    public static MockProducer<String, PendingUrl> producer(CrawlName crawl, int partitions, boolean autoComplete) {
        Node broker = new Node(0, "127.0.0.1", 9092);
        List<PartitionInfo> infos = IntStream.range(0, partitions)
                .mapToObj(p -> new PartitionInfo(crawl.topic(ClusterTopics.FRONTIER), p, broker, new Node[] {broker},
                        new Node[] {broker}))
                .toList();
        Cluster cluster = new Cluster("test", List.of(broker), infos, Set.of(), Set.of());
        return new MockProducer<>(cluster, autoComplete, new DefaultPartitioner(), new StringSerializer(),
                new PendingUrlSerializer());
    }

    /** The partition Kafka's default partitioner gives the key {@code key} among {@code partitions}. */
    public static int partition(String key, int partitions) {
        return BuiltInPartitioner.partitionForKey(key.getBytes(java.nio.charset.StandardCharsets.UTF_8), partitions);
    }

    private static final class DefaultPartitioner implements Partitioner {
        @Override
        public int partition(String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes,
                Cluster cluster) {
            return BuiltInPartitioner.partitionForKey(keyBytes, cluster.partitionsForTopic(topic).size());
        }

        @Override
        public void close() {
        }

        @Override
        public void configure(Map<String, ?> configs) {
        }
    }
}
