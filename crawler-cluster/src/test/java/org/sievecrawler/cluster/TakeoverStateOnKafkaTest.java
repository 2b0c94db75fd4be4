package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sievecrawler.frontier.CompletedUrls;

/**
 * What a new owner of a frontier partition reads on a real one-node Kafka 4 broker ({@link LocalKafka}): a snapshot
 * of several chunks written and read back by {@link SieveStateStore}, another writer's records between its chunks,
 * a snapshot that is not there, tombstones; and done markers sent by {@link DoneMarkers} and read back from an
 * offset by {@link DoneLog}.
 */
class TakeoverStateOnKafkaTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    @Test
    void aSnapshotOfSeveralChunksReadsBackEqual() throws Exception {
        CrawlName crawl = init("snap", 2);
        // two filters of 1.2 MB (1M URLs at 1 %) and 10,000 pending URLs: about 3 MB, 6 chunks
        PartitionSnapshot snapshot = PartitionSnapshotCodecTest.snapshot(1, 123_456, 10_000, 1_000_000, 1_000_000);
        byte[] bytes = PartitionSnapshotCodec.encode(snapshot);
        assertThat(bytes.length).isGreaterThan(5 * SieveStateStore.CHUNK_BYTES);

        try (SieveStateStore store = SieveStateStore.connect(kafka.bootstrap(), crawl, TIMEOUT)) {
            SnapshotRef first = store.write(PartitionSnapshotCodecTest.snapshot(1, 5, 10, 100));
            SnapshotRef ref = store.write(snapshot);

            assertThat(ref.id()).matches("p1-[0-9]+-[0-9a-f]{8}");
            assertThat(ref.chunks()).isEqualTo((bytes.length + SieveStateStore.CHUNK_BYTES - 1)
                    / SieveStateStore.CHUNK_BYTES);
            assertThat(ref.offset()).isEqualTo(first.offset() + first.chunks());
            PartitionSnapshot read = store.read(1, ref);
            assertThat(PartitionSnapshotCodec.encode(read)).isEqualTo(bytes);
            assertThat(read.pending()).isEqualTo(snapshot.pending());
            assertThat(store.read(1, first).frontierOffset()).isEqualTo(5);
        }
    }

    @Test
    void anotherWritersRecordsBetweenTheChunksAreSkipped() throws Exception {
        CrawlName crawl = init("interleaved", 1);
        String topic = "interleaved.sieve-state";
        byte[] bytes = PartitionSnapshotCodec.encode(PartitionSnapshotCodecTest.snapshot(0, 77, 1_000, 1_000_000));
        List<byte[]> chunks = SieveStateStore.chunks(bytes);
        assertThat(chunks).hasSize(3);
        String id = "p0-1700000000000-0000abcd";
        long offset;
        try (KafkaProducer<String, byte[]> raw = rawProducer()) {
            raw.send(new ProducerRecord<>(topic, 0, "p0-1-other/0/1", new byte[10])).get();
            offset = raw.send(new ProducerRecord<>(topic, 0, SieveStateStore.key(id, 0, 3), chunks.get(0))).get()
                    .offset();
            raw.send(new ProducerRecord<>(topic, 0, "p0-1700000000000-0000abce/0/2", new byte[100])).get();
            raw.send(new ProducerRecord<>(topic, 0, SieveStateStore.key(id, 1, 3), chunks.get(1))).get();
            raw.send(new ProducerRecord<>(topic, 0, "p0-old/0/1", null)).get();
            raw.send(new ProducerRecord<>(topic, 0, SieveStateStore.key(id, 2, 3), chunks.get(2))).get();
        }

        try (SieveStateStore store = SieveStateStore.connect(kafka.bootstrap(), crawl, TIMEOUT)) {
            PartitionSnapshot read = store.read(0, new SnapshotRef(id, offset, 3));

            assertThat(PartitionSnapshotCodec.encode(read)).isEqualTo(bytes);
        }
    }

    @Test
    void aSnapshotThatIsNotThereIsRefusedNamingWhatIsMissing() throws Exception {
        CrawlName crawl = init("missing", 1);
        try (SieveStateStore store = SieveStateStore.connect(kafka.bootstrap(), crawl, TIMEOUT)) {
            SnapshotRef written = store.write(PartitionSnapshotCodecTest.snapshot(0, 1, 10, 100));

            assertThatThrownBy(() -> store.read(0, new SnapshotRef("p0-1-gone", 40, 2)))
                    .isInstanceOfSatisfying(ClusterException.class,
                            e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.REFUSED))
                    .hasMessage("crawl missing: snapshot p0-1-gone@40/2 of partition 0 in topic missing.sieve-state:"
                            + " missing: the partition ends at offset 1, and the snapshot's first chunk was at offset"
                            + " 40 (another crawl's or a recreated topic's reference?); rebuild the partition by a"
                            + " replay from offset 0");
            assertThatThrownBy(() -> store.read(0, new SnapshotRef("p0-1-gone", written.offset(), 1)))
                    .isInstanceOfSatisfying(ClusterException.class,
                            e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.REFUSED))
                    .hasMessage("crawl missing: snapshot p0-1-gone@0/1 of partition 0 in topic missing.sieve-state:"
                            + " missing: chunk 0 of 1 is not at offset 0 (found key \"" + written.id()
                            + "/0/1\" at offset 0): compacted away, or not this crawl's snapshot; rebuild the"
                            + " partition by a replay from offset 0");
        }
    }

    @Test
    void deleteWritesATombstoneForEachChunk() throws Exception {
        CrawlName crawl = init("deleted", 1);
        try (SieveStateStore store = SieveStateStore.connect(kafka.bootstrap(), crawl, TIMEOUT)) {
            SnapshotRef ref = store.write(PartitionSnapshotCodecTest.snapshot(0, 1, 10, 1_000_000));
            assertThat(ref.chunks()).isEqualTo(3);

            store.delete(0, ref);

            List<ConsumerRecord<String, byte[]>> records = readRaw("deleted.sieve-state", 6);
            assertThat(records.subList(3, 6)).extracting(ConsumerRecord::key)
                    .containsExactly(ref.id() + "/0/3", ref.id() + "/1/3", ref.id() + "/2/3");
            assertThat(records.subList(3, 6)).extracting(ConsumerRecord::value).containsOnlyNulls();
            // until compaction runs, the chunks are still there and read back
            assertThat(store.read(0, ref).frontierOffset()).isEqualTo(1);
        }
    }

    @Test
    void doneMarkersReadBackFromAnOffsetAreExactlyThoseAfterIt() throws Exception {
        CrawlName crawl = init("done", 2);
        List<List<String>> sent = List.of(new ArrayList<>(), new ArrayList<>());
        AtomicInteger acknowledged = new AtomicInteger();
        try (DoneMarkers markers = DoneMarkers.connect(kafka.bootstrap(), crawl, TIMEOUT)) {
            for (int i = 0; i < 1_000; i++) {
                int partition = FrontierRecords.partition("h" + (i % 7) + ".example", 2);
                String url = "https://h" + (i % 7) + ".example/page/" + i;
                markers.markDone(partition, url, failure -> {
                    if (failure.isEmpty()) {
                        acknowledged.incrementAndGet();
                    }
                });
                sent.get(partition).add(url);
            }
            markers.flush();
            assertThat(markers.acknowledged()).isEqualTo(1_000);
        }
        assertThat(acknowledged).hasValue(1_000);

        MockProducer<byte[], byte[]> copies = new MockProducer<>(true, null, new ByteArraySerializer(),
                new ByteArraySerializer());
        RecordGate gate = new RecordGate(new RecordCheck(RecordCheckTest.profile(), 2),
                new RejectedRecords(copies, crawl, "test"));
        try (DoneLog log = DoneLog.connect(kafka.bootstrap(), crawl, TIMEOUT)) {
            assertThat(log.endOffset(0)).isEqualTo(sent.get(0).size());
            assertThat(log.endOffset(1)).isEqualTo(sent.get(1).size());

            DoneLog.Done done = log.readDone(0, 100, TIMEOUT, gate);

            assertThat(done.end()).isEqualTo(sent.get(0).size());
            assertThat(done.markers()).isEqualTo(sent.get(0).size() - 100);
            CompletedUrls urls = done.urls();
            assertThat(urls.size()).isEqualTo(sent.get(0).size() - 100);
            assertThat(urls.remove(sent.get(0).get(99))).as("the marker before the offset").isFalse();
            assertThat(urls.remove(sent.get(1).get(200))).as("a marker of the other partition").isFalse();
            for (String url : sent.get(0).subList(100, sent.get(0).size())) {
                assertThat(urls.remove(url)).as(url).isTrue();
            }
            assertThat(urls.isEmpty()).isTrue();

            DoneLog.Done all = log.readDone(1, 0, TIMEOUT, gate);
            assertThat(all.urls().size()).isEqualTo(sent.get(1).size());
            DoneLog.Done none = log.readDone(1, all.end(), TIMEOUT, gate);
            assertThat(none.urls().isEmpty()).isTrue();
            assertThat(none.end()).isEqualTo(all.end());
            assertThatThrownBy(() -> log.readDone(1, all.end() + 5, TIMEOUT, gate))
                    .isInstanceOfSatisfying(ClusterException.class,
                            e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.REFUSED))
                    .hasMessage("crawl done: the done markers of topic done.fetched partition 1 from offset "
                            + (all.end() + 5) + ": the partition ends at offset " + all.end() + ", before it"
                            + " (another crawl's offset, or the topic was recreated)");
        }
        assertThat(gate.refused()).as("bad markers").isZero();
        List<ConsumerRecord<String, byte[]>> first = readRaw("done.fetched", 1);
        assertThat(first.get(0).key()).isEqualTo("h" + sentFirst(0) + ".example");
    }

    /** The first i of 0-6 whose host h{i}.example is of partition {@code p} of 2. */
    private static int sentFirst(int p) {
        for (int i = 0; ; i++) {
            if (FrontierRecords.partition("h" + i + ".example", 2) == p) {
                return i;
            }
        }
    }

    private static CrawlName init(String name, int partitions) throws ClusterException {
        CrawlName crawl = new CrawlName(name);
        try (ClusterAdmin admin = ClusterAdmin.connect(kafka.bootstrap(), TIMEOUT)) {
            admin.init(new ClusterTopics(crawl, partitions, (short) 1));
        }
        return crawl;
    }

    private static KafkaProducer<String, byte[]> rawProducer() {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
        return new KafkaProducer<>(properties, new StringSerializer(), new ByteArraySerializer());
    }

    /** The first {@code count} records of partition 0 of {@code topic}. */
    private static List<ConsumerRecord<String, byte[]>> readRaw(String topic, int count) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(properties, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (records.size() < count && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        assertThat(records).as("records read from " + topic).hasSizeGreaterThanOrEqualTo(count);
        return records.subList(0, count);
    }
}
