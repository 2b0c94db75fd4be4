package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@link SieveStateStore} on Kafka's MockProducer and MockConsumer: the chunks and keys a write sends, how a failed
 * write is reported, and how a read reports a chunk missing, a deleted snapshot, damage and a cluster too slow;
 * {@code TakeoverStateOnKafkaTest} runs it on a real broker.
 */
class SieveStateStoreTest {
    private static final CrawlName DOCS = new CrawlName("docs");
    private static final String TOPIC = "docs.sieve-state";
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** A snapshot of partition 0 of three chunks: a filter of 1.2 MB. */
    private static final byte[] THREE_CHUNKS = PartitionSnapshotCodec.encode(
            PartitionSnapshotCodecTest.snapshot(0, 9, 10, 1_000_000));

    private final MockProducer<String, byte[]> producer = new MockProducer<>(true, null, new StringSerializer(),
            new ByteArraySerializer());
    private final MockConsumer<String, byte[]> consumer = new MockConsumer<>("none");

    @Test
    void aWriteCutsTheSnapshotInChunksKeyedByIdIndexAndCountToItsPartition() throws Exception {
        PartitionSnapshot snapshot = PartitionSnapshotCodecTest.snapshot(2, 40, 100, 1_000_000);
        byte[] bytes = PartitionSnapshotCodec.encode(snapshot);
        producer.send(new ProducerRecord<>(TOPIC, 2, "p2-older/0/1", new byte[1]));

        SnapshotRef ref;
        try (SieveStateStore store = store(TIMEOUT)) {
            ref = store.write(snapshot);
        }

        assertThat(ref.id()).matches("p2-1700000000000-[0-9a-f]{8}");
        assertThat(ref.offset()).isEqualTo(1);
        assertThat(ref.chunks()).isEqualTo(3);
        List<ProducerRecord<String, byte[]>> chunks = producer.history().subList(1, 4);
        assertThat(chunks).extracting(ProducerRecord::key)
                .containsExactly(ref.id() + "/0/3", ref.id() + "/1/3", ref.id() + "/2/3");
        assertThat(chunks).extracting(ProducerRecord::partition).containsOnly(2);
        assertThat(chunks).extracting(ProducerRecord::topic).containsOnly(TOPIC);
        assertThat(chunks.get(0).value()).hasSize(SieveStateStore.CHUNK_BYTES);
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        chunks.forEach(chunk -> joined.writeBytes(chunk.value()));
        assertThat(joined.toByteArray()).isEqualTo(bytes);
    }

    @Test
    void chunksAreAtMostTheChunkSizeAndAnEmptyInputIsOneEmptyChunk() {
        assertThat(SieveStateStore.chunks(new byte[0])).singleElement().satisfies(c -> assertThat(c).isEmpty());
        assertThat(SieveStateStore.chunks(new byte[2 * SieveStateStore.CHUNK_BYTES]))
                .extracting(c -> c.length).containsExactly(SieveStateStore.CHUNK_BYTES, SieveStateStore.CHUNK_BYTES);
        assertThat(SieveStateStore.chunks(new byte[SieveStateStore.CHUNK_BYTES + 1]))
                .extracting(c -> c.length).containsExactly(SieveStateStore.CHUNK_BYTES, 1);
    }

    @Test
    void aChunkRefusedByTheClusterFailsTheWriteNamingTopicPartitionAndSnapshot() throws Exception {
        MockProducer<String, byte[]> manual = new MockProducer<>(false, null, new StringSerializer(),
                new ByteArraySerializer());
        try (SieveStateStore store = new SieveStateStore(manual, consumer, DOCS, TIMEOUT, CLOCK)) {
            CompletableFuture<SnapshotRef> write = CompletableFuture.supplyAsync(() -> {
                try {
                    return store.write(PartitionSnapshotCodecTest.snapshot(4, 40, 0, 100));
                } catch (ClusterException e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            while (manual.history().isEmpty()) {
                Thread.sleep(5);
            }
            manual.errorNext(new RecordTooLargeException("The message is 2000000 bytes"));

            assertThatThrownBy(() -> write.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOfSatisfying(ClusterException.class,
                            e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.REFUSED))
                    .hasMessageMatching("writing snapshot p4-1700000000000-[0-9a-f]{8} \\(\\d+ bytes in 1 chunk\\)"
                            + " to topic docs.sieve-state partition 4 failed: The message is 2000000 bytes");
            assertThat(manual.history()).as("the chunk, then its tombstone").hasSize(2);
            assertThat(manual.history().get(1).value()).isNull();
        }
    }

    @Test
    void aSendThatThrowsAtOnceIsOfTheKindItsErrorSays() {
        producer.sendException = new TimeoutException("Topic docs.sieve-state not present in metadata after 5000 ms.");
        try (SieveStateStore store = store(TIMEOUT)) {
            assertThatThrownBy(() -> store.write(PartitionSnapshotCodecTest.snapshot(0, 1, 0, 100)))
                    .isInstanceOfSatisfying(ClusterException.class,
                            e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.UNAVAILABLE))
                    .hasMessageEndingWith("to topic docs.sieve-state partition 0 failed: Topic docs.sieve-state not"
                            + " present in metadata after 5000 ms.");
        }
    }

    @Test
    void aMissingMiddleChunkIsRefusedNamingIt() {
        List<byte[]> chunks = SieveStateStore.chunks(THREE_CHUNKS);
        String id = "p0-1-abc";
        serve(0, record(id + "/0/3", chunks.get(0)), record("p0-2-other/0/1", new byte[3]),
                record(id + "/2/3", chunks.get(2)), record("p0-3-later/0/1", new byte[3]));

        try (SieveStateStore store = store(TIMEOUT)) {
            assertThatThrownBy(() -> store.read(0, new SnapshotRef(id, 0, 3)))
                    .isInstanceOfSatisfying(ClusterException.class,
                            e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.REFUSED))
                    .hasMessage("crawl docs: snapshot p0-1-abc@0/3 of partition 0 in topic docs.sieve-state: missing:"
                            + " 1 of 3 chunks not found, [1] (found the last chunk at offset 2); rebuild the partition"
                            + " by a replay from offset 0");
        }
    }

    @Test
    void aDeletedSnapshotWhoseChunksWereCompactedIsRefusedSayingSo() {
        List<byte[]> chunks = SieveStateStore.chunks(THREE_CHUNKS);
        String id = "p0-1-abc";
        // compaction kept chunk 0 (the tombstones of 1 and 2 are there, chunk 0's was not written yet)
        serve(0, record(id + "/0/3", chunks.get(0)), record(id + "/1/3", null), record(id + "/2/3", null));

        try (SieveStateStore store = store(TIMEOUT)) {
            assertThatThrownBy(() -> store.read(0, new SnapshotRef(id, 0, 3)))
                    .isInstanceOf(ClusterException.class)
                    .hasMessage("crawl docs: snapshot p0-1-abc@0/3 of partition 0 in topic docs.sieve-state: missing:"
                            + " 2 of 3 chunks not found, [1, 2], and it was deleted (a tombstone at offset 2) (read"
                            + " to the partition's end, offset 3); rebuild the partition by a replay from offset 0");
        }
    }

    @Test
    void damagedChunksAreRefusedNamingTheDamage() {
        byte[] bytes = PartitionSnapshotCodec.encode(PartitionSnapshotCodecTest.snapshot(0, 9, 10, 100));
        bytes[bytes.length / 2] ^= 4;
        serve(0, record("p0-1-abc/0/1", bytes));

        try (SieveStateStore store = store(TIMEOUT)) {
            assertThatThrownBy(() -> store.read(0, new SnapshotRef("p0-1-abc", 0, 1)))
                    .isInstanceOfSatisfying(ClusterException.class,
                            e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.REFUSED))
                    .hasMessageStartingWith("crawl docs: snapshot p0-1-abc@0/1 of partition 0 in topic"
                            + " docs.sieve-state is damaged: snapshot p0-1-abc: checksum mismatch over its ")
                    .hasMessageEndingWith("; rebuild the partition by a replay from offset 0");
        }
    }

    @Test
    void aChunkOverTheChunkSizeOrMoreChunksThanASnapshotHasAreRefusedUnread() {
        serve(0, record("p0-1-abc/0/2", new byte[SieveStateStore.CHUNK_BYTES + 1]),
                record("p0-1-abc/1/2", new byte[1]));

        try (SieveStateStore store = store(TIMEOUT)) {
            assertThatThrownBy(() -> store.read(0, new SnapshotRef("p0-1-abc", 0, 2)))
                    .isInstanceOf(ClusterException.class)
                    .hasMessage("crawl docs: snapshot p0-1-abc@0/2 of partition 0 in topic docs.sieve-state is damaged:"
                            + " chunk 0 at offset 0 has 524289 bytes, more than the 524288 of a chunk; rebuild the"
                            + " partition by a replay from offset 0");
            assertThatThrownBy(() -> store.read(0, new SnapshotRef("p0-1-abc", 0, Integer.MAX_VALUE)))
                    .isInstanceOf(ClusterException.class)
                    .hasMessage("crawl docs: snapshot p0-1-abc@0/2147483647 of partition 0 in topic docs.sieve-state is"
                            + " damaged: 2147483647 chunks, more than a snapshot of at most 2 GiB has (4095); rebuild"
                            + " the partition by a replay from offset 0");
        }
    }

    @Test
    void aSnapshotOfAnotherPartitionIsRefused() {
        serve(1, record("p0-1-abc/0/1", PartitionSnapshotCodec.encode(
                PartitionSnapshotCodecTest.snapshot(0, 9, 10, 100))));

        try (SieveStateStore store = store(TIMEOUT)) {
            assertThatThrownBy(() -> store.read(1, new SnapshotRef("p0-1-abc", 0, 1)))
                    .isInstanceOf(ClusterException.class)
                    .hasMessage("crawl docs: snapshot p0-1-abc@0/1 of partition 1 in topic docs.sieve-state is a"
                            + " snapshot of partition 0; rebuild the partition by a replay from offset 0");
        }
    }

    @Test
    void aClusterThatGivesNothingWithinTheTimeoutIsUnavailable() {
        TopicPartition tp = new TopicPartition(TOPIC, 0);
        consumer.updateEndOffsets(Map.of(tp, 5L));

        try (SieveStateStore store = store(Duration.ofMillis(300))) {
            assertThatThrownBy(() -> store.read(0, new SnapshotRef("p0-1-abc", 2, 2)))
                    .isInstanceOfSatisfying(ClusterException.class,
                            e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.UNAVAILABLE))
                    .hasMessage("crawl docs: snapshot p0-1-abc@2/2 of partition 0 in topic docs.sieve-state: 0 of 2"
                            + " chunks read within 300 ms (up to offset 2 of 5); the cluster is slow or unavailable");
        }
    }

    private SieveStateStore store(Duration timeout) {
        return new SieveStateStore(producer, consumer, DOCS, timeout, CLOCK);
    }

    private static ProducerRecord<String, byte[]> record(String key, byte[] value) {
        return new ProducerRecord<>(TOPIC, key, value);
    }

    /** Makes {@code records} partition {@code partition} of the topic, from offset 0, for the consumer's polls. */
    @SafeVarargs
    private void serve(int partition, ProducerRecord<String, byte[]>... records) {
        TopicPartition tp = new TopicPartition(TOPIC, partition);
        consumer.updateBeginningOffsets(Map.of(tp, 0L));
        consumer.updateEndOffsets(Map.of(tp, (long) records.length));
        List<ConsumerRecord<String, byte[]>> log = new ArrayList<>();
        for (int offset = 0; offset < records.length; offset++) {
            log.add(new ConsumerRecord<>(TOPIC, partition, offset, records[offset].key(), records[offset].value()));
        }
        // records are added once the store has assigned the partition, at its first poll
        consumer.schedulePollTask(() -> log.forEach(consumer::addRecord));
    }
}
