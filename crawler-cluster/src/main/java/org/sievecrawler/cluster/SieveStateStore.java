package org.sievecrawler.cluster;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.sievecrawler.sieve.CorruptFilterException;

/**
 * The snapshots of a crawl's frontier partitions in {@code <crawl>.sieve-state}: {@link #write} puts a
 * {@link PartitionSnapshot} in the sieve-state partition of the same number and returns its {@link SnapshotRef}
 * (which the checkpoint then commits in its {@link CheckpointMark}); {@link #read} gets it back for a new owner;
 * {@link #delete} writes tombstones for an old one, so that compaction removes it once a newer one is committed.
 *
 * <p><b>Records.</b> A snapshot has a fresh id, {@code p<partition>-<millis>-<8 hex digits>}, and its bytes
 * ({@link PartitionSnapshotCodec}) are cut in n chunks of at most {@value #CHUNK_BYTES} bytes (Kafka's default
 * largest record is about 1 MB: {@code message.max.bytes}, {@code max.message.bytes}, {@code max.request.size}),
 * chunk i keyed {@code <id>/<i>/<n>}, all sent to the partition in order ({@code acks=all}, idempotent: the chunks
 * of one snapshot keep their order, with another writer's records perhaps between them). Keys are unique per
 * snapshot, so compaction never replaces a committed snapshot by a newer one that may never be committed; an old
 * snapshot goes only by its tombstones. A write that fails sends tombstones for what it wrote (best effort); a
 * snapshot written and never committed because the process died in between stays in the topic: one per such
 * crash, a few MB.
 *
 * <p><b>Reading.</b> {@link #read} seeks to the reference's offset, where chunk 0 must be, reads forward skipping
 * other snapshots' records until it has the n chunks, and decodes them. A chunk missing (compacted away after a
 * {@link #delete}, a reference to another crawl, a topic recreated), more chunks than a snapshot can have, a chunk
 * larger than {@value #CHUNK_BYTES} bytes or damaged bytes are a
 * {@link ClusterException.Kind#REFUSED} naming the crawl, partition, snapshot and what is missing: the caller then
 * rebuilds the partition by a replay from offset 0. A cluster that does not answer within the timeout is
 * {@link ClusterException.Kind#UNAVAILABLE}.
 *
 * <p>Thread-safe: {@link #write} and {@link #delete} may be called from any thread (Kafka's producer is
 * thread-safe); {@link #read}s, which share one consumer, are serialized. Close it after the last call. Out of scope:
 * what a snapshot holds and when to take one (the lead's checkpoint), the commit of the frontier offset, creating the
 * topic ({@link ClusterAdmin}).
 */
public final class SieveStateStore implements AutoCloseable {
    /** The most bytes of a snapshot in one record: half of Kafka's default largest record (about 1 MB). */
    public static final int CHUNK_BYTES = 512 * 1024;
    /** The most chunks of a snapshot: its bytes are one array, at most 2 GiB. A reference naming more is damaged. */
    static final int MAX_CHUNKS = Integer.MAX_VALUE / CHUNK_BYTES;
    /** How long one poll of a read waits at most before the read checks its deadline again. */
    private static final Duration POLL = Duration.ofMillis(200);

    private final Producer<String, byte[]> producer;
    private final Consumer<String, byte[]> consumer;
    private final CrawlName crawl;
    private final String topic;
    private final Duration timeout;
    private final Clock clock;
    private final Object reading = new Object();

    SieveStateStore(Producer<String, byte[]> producer, Consumer<String, byte[]> consumer, CrawlName crawl,
            Duration timeout, Clock clock) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.crawl = Objects.requireNonNull(crawl, "crawl");
        this.topic = crawl.topic(ClusterTopics.SIEVE_STATE);
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * A store for the snapshots of {@code crawl} on the cluster at {@code bootstrap} ({@code HOST:PORT}, several
     * separated by commas), with the crawl's client settings ({@link ClusterClients}). {@code timeout} bounds each
     * write, read and delete. Nothing is sent yet.
     *
     * @throws IllegalArgumentException when {@code bootstrap} is not a list of HOST:PORT, naming the value
     * @throws ClusterException when a client cannot be created (e.g. no address of the hosts resolves)
     */
    public static SieveStateStore connect(String bootstrap, CrawlName crawl, Duration timeout)
            throws ClusterException {
        String servers = ClusterClients.bootstrapServers(bootstrap);
        String client = "crawler-sieve-state-" + crawl;
        KafkaProducer<String, byte[]> producer;
        try {
            producer = new KafkaProducer<>(ClusterClients.producer(servers, client, timeout), new StringSerializer(),
                    new ByteArraySerializer());
        } catch (KafkaException e) {
            throw ClusterClients.cannotConnect(servers, e);
        }
        try {
            return new SieveStateStore(producer, new KafkaConsumer<>(ClusterClients.consumer(servers, client,
                    timeout), new StringDeserializer(), new ByteArrayDeserializer()), crawl, timeout,
                    Clock.systemUTC());
        } catch (KafkaException e) {
            producer.close(Duration.ZERO);
            throw ClusterClients.cannotConnect(servers, e);
        }
    }

    /**
     * Writes {@code snapshot} to the sieve-state partition {@code snapshot.partition()} under a fresh id and waits
     * until every chunk is acknowledged.
     *
     * @return where it lies: its id, the offset of its first chunk and its chunks
     * @throws ClusterException naming the topic, partition and snapshot when a chunk was not acknowledged within the
     *     timeout or was refused (UNAVAILABLE or REFUSED as for {@link FrontierProducer}: a missing topic or
     *     partition is REFUSED); of kind UNAVAILABLE when the wait was interrupted (the interrupt flag is kept)
     */
    public SnapshotRef write(PartitionSnapshot snapshot) throws ClusterException {
        int partition = snapshot.partition();
        byte[] bytes = PartitionSnapshotCodec.encode(snapshot);
        String id = newId(partition);
        List<byte[]> chunks = chunks(bytes);
        int n = chunks.size();
        String what = "writing snapshot " + id + " (" + bytes.length + " bytes in " + n
                + (n == 1 ? " chunk" : " chunks") + ") to topic " + topic + " partition " + partition;
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            records.add(new ProducerRecord<>(topic, partition, key(id, i, n), chunks.get(i)));
        }
        try {
            return new SnapshotRef(id, sendAll(records).get(0).offset(), n);
        } catch (ClusterException e) {
            forget(partition, id, n); // what was written will never be read: let compaction remove it
            throw new ClusterException(e.kind(), what + " " + e.getMessage());
        }
    }

    /**
     * Reads the snapshot {@code ref} of frontier partition {@code partition}.
     *
     * @throws ClusterException of kind REFUSED naming the crawl, partition and snapshot when a chunk is missing
     *     (compacted away, never written there) or the snapshot is damaged: rebuild the partition by a replay;
     *     UNAVAILABLE when the cluster did not give the chunks within the timeout or the wait was interrupted (the
     *     interrupt flag is kept)
     */
    public PartitionSnapshot read(int partition, SnapshotRef ref) throws ClusterException {
        String what = "crawl " + crawl + ": snapshot " + ref + " of partition " + partition + " in topic " + topic;
        synchronized (reading) {
            byte[] bytes = readChunks(partition, ref, what);
            PartitionSnapshot snapshot;
            try {
                snapshot = PartitionSnapshotCodec.decode("snapshot " + ref.id(), bytes);
            } catch (CorruptFilterException e) {
                throw refused(what + " is damaged: " + e.getMessage());
            }
            if (snapshot.partition() != partition) {
                throw refused(what + " is a snapshot of partition " + snapshot.partition());
            }
            return snapshot;
        }
    }

    /**
     * Writes a tombstone (a record without value) for each chunk of {@code ref} to the sieve-state partition
     * {@code partition} and waits until they are acknowledged: compaction then removes the snapshot (Kafka keeps the
     * tombstones themselves for {@code delete.retention.ms}, a day by default). Call it for the previous snapshot
     * once a commit names a newer one.
     *
     * @throws ClusterException naming the topic, partition and snapshot, as {@link #write}
     */
    public void delete(int partition, SnapshotRef ref) throws ClusterException {
        List<ProducerRecord<String, byte[]>> tombstones = new ArrayList<>(ref.chunks());
        for (int i = 0; i < ref.chunks(); i++) {
            tombstones.add(new ProducerRecord<>(topic, partition, key(ref.id(), i, ref.chunks()), null));
        }
        try {
            sendAll(tombstones);
        } catch (ClusterException e) {
            throw new ClusterException(e.kind(), "deleting snapshot " + ref + " from topic " + topic + " partition "
                    + partition + " " + e.getMessage());
        }
    }

    /**
     * Sends {@code records} and waits, up to the timeout, until each is acknowledged; returns their metadata in order.
     *
     * @throws ClusterException whose message goes on "... failed: why" or "... was interrupted"
     */
    private List<RecordMetadata> sendAll(List<ProducerRecord<String, byte[]>> records) throws ClusterException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
            for (ProducerRecord<String, byte[]> record : records) {
                sent.add(producer.send(record));
            }
            List<RecordMetadata> acknowledged = new ArrayList<>(records.size());
            for (Future<RecordMetadata> future : sent) {
                acknowledged.add(future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
            return acknowledged;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new ClusterException(ClusterClients.kind(cause), "failed: " + ClusterClients.rootMessage(cause));
        } catch (TimeoutException e) {
            throw new ClusterException(ClusterException.Kind.UNAVAILABLE, "failed: not acknowledged within "
                    + timeout.toMillis() + " ms");
        } catch (InterruptedException | InterruptException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException(ClusterException.Kind.UNAVAILABLE, "was interrupted");
        } catch (KafkaException e) {
            throw new ClusterException(ClusterClients.kind(e), "failed: " + ClusterClients.rootMessage(e));
        }
    }

    /** Tombstones for the chunks of a snapshot that was not written whole, without waiting: best effort. */
    private void forget(int partition, String id, int n) {
        try {
            for (int i = 0; i < n; i++) {
                producer.send(new ProducerRecord<>(topic, partition, key(id, i, n), null));
            }
        } catch (KafkaException e) {
            // The producer failed already; the write's own failure is what the caller is told.
        }
    }

    /** The topic the snapshots are in, {@code <crawl>.sieve-state}. */
    String topic() {
        return topic;
    }

    /** The chunks of {@code ref}, concatenated. Holds {@link #reading}. */
    private byte[] readChunks(int partition, SnapshotRef ref, String what) throws ClusterException {
        TopicPartition tp = new TopicPartition(topic, partition);
        int n = ref.chunks();
        if (n > MAX_CHUNKS) {
            throw refused(what + " is damaged: " + n + " chunks, more than a snapshot of at most 2 GiB has ("
                    + MAX_CHUNKS + ")");
        }
        byte[][] chunks = new byte[n][];
        int found = 0;
        String prefix = ref.id() + "/";
        Optional<Long> tombstone = Optional.empty();
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            consumer.assign(List.of(tp));
            Long endOffset = consumer.endOffsets(List.of(tp), timeout).get(tp);
            long end = endOffset == null ? 0 : endOffset;
            if (ref.offset() >= end) {
                throw refused(what + ": missing: the partition ends at offset " + end + ", and the snapshot's first"
                        + " chunk was at offset " + ref.offset() + " (another crawl's or a recreated topic's"
                        + " reference?)");
            }
            consumer.seek(tp, ref.offset());
            boolean first = true;
            while (found < n) {
                long position = consumer.position(tp, timeout);
                if (position >= end) {
                    throw refused(what + ": " + missing(chunks, tombstone) + " (read to the partition's end, offset "
                            + end + ")");
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new ClusterException(ClusterException.Kind.UNAVAILABLE, what + ": " + found + " of " + n
                            + " chunks read within " + timeout.toMillis() + " ms (up to offset " + position
                            + " of " + end + "); the cluster is slow or unavailable");
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(min(POLL, left)).records(tp)) {
                    if (first) {
                        first = false;
                        if (record.offset() != ref.offset() || !key(ref.id(), 0, n).equals(record.key())
                                || record.value() == null) {
                            throw refused(what + ": missing: chunk 0 of " + n + " is not at offset " + ref.offset()
                                    + " (found " + describe(record) + "): compacted away, or not this crawl's"
                                    + " snapshot");
                        }
                    }
                    String key = record.key();
                    if (key == null || !key.startsWith(prefix)) {
                        continue; // another snapshot's chunk or tombstone
                    }
                    int i = chunkIndex(key, n);
                    if (i < 0) {
                        throw refused(what + " is damaged: the record at offset " + record.offset() + " has key "
                                + FrontierRecords.quote(key) + ", expected " + ref.id() + "/<0 to " + (n - 1) + ">/"
                                + n);
                    }
                    if (record.value() == null) {
                        tombstone = Optional.of(record.offset());
                        continue;
                    }
                    if (record.value().length > CHUNK_BYTES) {
                        throw refused(what + " is damaged: chunk " + i + " at offset " + record.offset() + " has "
                                + record.value().length + " bytes, more than the " + CHUNK_BYTES + " of a chunk");
                    }
                    if (chunks[i] == null) {
                        chunks[i] = record.value();
                        found++;
                    }
                    if (found == n) {
                        break;
                    }
                    if (i == n - 1) { // the last chunk is written last: the ones not found are gone
                        throw refused(what + ": " + missing(chunks, tombstone) + " (found the last chunk at offset "
                                + record.offset() + ")");
                    }
                }
            }
        } catch (InvalidOffsetException e) {
            throw refused(what + ": missing: offset " + ref.offset() + " is no longer in the partition ("
                    + ClusterClients.rootMessage(e) + ")");
        } catch (KafkaException e) {
            throw ClusterClients.readFailed(what, e);
        }
        return concatenate(chunks);
    }

    private static String missing(byte[][] chunks, Optional<Long> tombstone) {
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < chunks.length; i++) {
            if (chunks[i] == null) {
                missing.add(i);
            }
        }
        String listed = missing.size() <= 10 ? missing.toString()
                : missing.subList(0, 10).toString().replace("]", ", ...]");
        return "missing: " + missing.size() + " of " + chunks.length + " chunks not found, " + listed
                + tombstone.map(offset -> ", and it was deleted (a tombstone at offset " + offset + ")").orElse("");
    }

    private static String describe(ConsumerRecord<String, byte[]> record) {
        return "key " + (record.key() == null ? "none" : FrontierRecords.quote(record.key()))
                + (record.value() == null ? " without value" : "") + " at offset " + record.offset();
    }

    private static byte[] concatenate(byte[][] chunks) {
        long total = 0;
        for (byte[] chunk : chunks) {
            total += chunk.length;
        }
        byte[] bytes = new byte[Math.toIntExact(total)];
        int at = 0;
        for (byte[] chunk : chunks) {
            System.arraycopy(chunk, 0, bytes, at, chunk.length);
            at += chunk.length;
        }
        return bytes;
    }

    private static ClusterException refused(String message) {
        return new ClusterException(ClusterException.Kind.REFUSED, message + "; rebuild the partition by a replay"
                + " from offset 0");
    }

    private static Duration min(Duration a, long nanos) {
        return nanos < a.toNanos() ? Duration.ofNanos(nanos) : a;
    }

    /** A fresh snapshot id for {@code partition}: {@code p<partition>-<millis>-<8 hex digits>}. */
    String newId(int partition) {
        return "p" + partition + "-" + clock.millis() + "-"
                + String.format(Locale.ROOT, "%08x", ThreadLocalRandom.current().nextInt());
    }

    /** The key of chunk {@code i} of {@code n} of snapshot {@code id}. */
    static String key(String id, int i, int n) {
        return id + "/" + i + "/" + n;
    }

    /** The index in a key {@code <id>/<i>/<n>} whose id is known to match, or -1 when it is not one of n. */
    private static int chunkIndex(String key, int n) {
        int last = key.lastIndexOf('/');
        int middle = key.lastIndexOf('/', last - 1);
        try {
            int i = Integer.parseInt(key.substring(middle + 1, last));
            return Integer.parseInt(key.substring(last + 1)) == n && i >= 0 && i < n
                    && key.indexOf('/') == middle ? i : -1;
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            return -1;
        }
    }

    /** {@code bytes} cut in chunks of {@value #CHUNK_BYTES} bytes, the last shorter; one empty chunk for none. */
    static List<byte[]> chunks(byte[] bytes) {
        List<byte[]> chunks = new ArrayList<>();
        for (int from = 0; from < bytes.length || from == 0; from += CHUNK_BYTES) {
            chunks.add(Arrays.copyOfRange(bytes, from, Math.min(bytes.length, from + CHUNK_BYTES)));
        }
        return chunks;
    }

    /** Closes the producer and the consumer, waiting up to the timeout for records not yet acknowledged. */
    @Override
    public void close() {
        try {
            producer.close(timeout);
        } finally {
            consumer.close(CloseOptions.timeout(timeout));
        }
    }

    @Override
    public String toString() {
        return "SieveStateStore[" + topic + "]";
    }
}
