package org.sievecrawler.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.sievecrawler.frontier.CompletedUrls;

/**
 * Reads a crawl's done-log, {@code <crawl>.fetched}, as written by {@link DoneMarkers}: {@link #endOffset} of a
 * partition, which a checkpoint records as its {@code fetchedFrom} before it snapshots the partition's Sieve, and
 * {@link #readDone}, with which a new owner collects the URLs marked done from that offset on, to skip them when the
 * snapshot and the frontier's replay hand them out again.
 *
 * <p>Reads assigned partitions without a consumer group, commits nothing, and reads what is acknowledged (below the
 * high watermark: {@code acks=all} markers), with the crawl's consumer settings ({@link ClusterClients}). A marker is
 * untrusted input like any record: each passes the {@link RecordGate} given to the read (no value, too large, not
 * UTF-8, not a URL, a host of another partition: refused, counted, copied aside, and left out).
 *
 * <p>Thread-safe: calls are serialized (they share one Kafka consumer). Close it after the last call. Out of scope:
 * sending markers ({@link DoneMarkers}), the frontier's consumer group.
 */
public final class DoneLog implements AutoCloseable {
    /** How long one poll waits at most before the read checks its deadline again. */
    private static final Duration POLL = Duration.ofMillis(200);
    /** The most URLs a read's set is sized for before it grows: 1M URLs, 16 MiB. */
    private static final int MAX_PRESIZE = 1 << 20;

    /**
     * The URLs marked done in a range of a done-log partition.
     *
     * @param urls the URLs marked done, each once (a URL marked twice is one), as the frontier takes them
     * @param end the offset read up to: the partition's end offset when the read started; read on from there
     * @param markers the markers taken, duplicates included (bad ones refused are not)
     */
    public record Done(CompletedUrls urls, long end, long markers) {
        public Done {
            Objects.requireNonNull(urls, "urls");
        }
    }

    private final Consumer<byte[], byte[]> consumer;
    private final CrawlName crawl;
    private final String topic;
    private final Duration timeout;

    DoneLog(Consumer<byte[], byte[]> consumer, CrawlName crawl, Duration timeout) {
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.crawl = Objects.requireNonNull(crawl, "crawl");
        this.topic = crawl.topic(ClusterTopics.FETCHED);
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * Takes over {@code consumer} (closing this closes it), which must have byte array keys and values and no group:
     * for tests (MockConsumer) and callers that configure their own. {@code timeout} bounds {@link #endOffset}.
     */
    public static DoneLog using(Consumer<byte[], byte[]> consumer, CrawlName crawl, Duration timeout) {
        return new DoneLog(consumer, crawl, timeout);
    }

    /**
     * A reader of the done-log of {@code crawl} on the cluster at {@code bootstrap} ({@code HOST:PORT}, several
     * separated by commas). {@code timeout} bounds {@link #endOffset} and each request of a read. Nothing is sent
     * yet.
     *
     * @throws IllegalArgumentException when {@code bootstrap} is not a list of HOST:PORT, naming the value
     * @throws ClusterException when the client cannot be created (e.g. no address of the hosts resolves)
     */
    public static DoneLog connect(String bootstrap, CrawlName crawl, Duration timeout) throws ClusterException {
        String servers = ClusterClients.bootstrapServers(bootstrap);
        try {
            return new DoneLog(new KafkaConsumer<>(
                    ClusterClients.consumer(servers, "crawler-fetched-reader-" + crawl, timeout),
                    new ByteArrayDeserializer(), new ByteArrayDeserializer()), crawl, timeout);
        } catch (KafkaException e) {
            throw ClusterClients.cannotConnect(servers, e);
        }
    }

    /**
     * The end offset of the done-log's {@code partition}: the offset its next marker will get. Every marker
     * acknowledged before the call is below it.
     *
     * @throws ClusterException naming the topic and partition: UNAVAILABLE when the cluster did not answer within the
     *     timeout, REFUSED when the partition does not exist
     */
    public synchronized long endOffset(int partition) throws ClusterException {
        TopicPartition tp = new TopicPartition(topic, partition);
        String what = "the end offset of topic " + topic + " partition " + partition;
        try {
            return end(tp, "reading " + what);
        } catch (KafkaException e) { // an InterruptException too
            throw ClusterClients.readFailed(what, e);
        }
    }

    /**
     * The URLs marked done in the done-log's {@code partition} from offset {@code from} up to its end offset as the
     * read starts (markers written meanwhile are left for the next read, from {@link Done#end}), each through
     * {@code gate}.
     *
     * @param timeout how long the whole read may take
     * @throws ClusterException naming the crawl, topic, partition and offsets: REFUSED when {@code from} is not in
     *     the partition (beyond its end: another crawl's or a recreated topic's offset; before its start: deleted) or
     *     the partition does not exist; UNAVAILABLE when the markers were not read within {@code timeout} or the
     *     read was interrupted (the interrupt flag is kept)
     * @throws IllegalArgumentException when {@code from} is negative
     */
    synchronized Done readDone(int partition, long from, Duration timeout, RecordGate gate) throws ClusterException {
        if (from < 0) {
            throw new IllegalArgumentException("a done-log offset is >= 0, was " + from);
        }
        TopicPartition tp = new TopicPartition(topic, partition);
        String what = "crawl " + crawl + ": the done markers of topic " + topic + " partition " + partition
                + " from offset " + from;
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            consumer.assign(List.of(tp));
            long end = end(tp, what);
            if (from > end) {
                throw new ClusterException(ClusterException.Kind.REFUSED, what + ": the partition ends at offset "
                        + end + ", before it (another crawl's offset, or the topic was recreated)");
            }
            CompletedUrls urls = new CompletedUrls((int) Math.min(MAX_PRESIZE, end - from));
            long markers = 0;
            if (from == end) {
                return new Done(urls, end, 0);
            }
            consumer.seek(tp, from);
            long next = from;
            while (next < end) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new ClusterException(ClusterException.Kind.UNAVAILABLE, what + ": read " + markers
                            + " of " + (end - from) + " markers within " + timeout.toMillis() + " ms (up to offset "
                            + next + " of " + end + "); the cluster is slow or unavailable");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(left < POLL.toNanos()
                        ? Duration.ofNanos(left) : POLL).records(tp)) {
                    if (record.offset() >= end) {
                        break;
                    }
                    next = record.offset() + 1;
                    Optional<String> url = gate.doneMarker(record);
                    if (url.isPresent()) {
                        urls.add(url.get());
                        markers++;
                    }
                }
                next = Math.max(next, Math.min(end, consumer.position(tp, this.timeout)));
            }
            return new Done(urls, end, markers);
        } catch (InvalidOffsetException e) {
            throw new ClusterException(ClusterException.Kind.REFUSED, what + ": the offset is no longer in the"
                    + " partition (" + ClusterClients.rootMessage(e) + ")");
        } catch (KafkaException e) {
            throw ClusterClients.readFailed(what, e);
        }
    }

    /** The end offset of {@code tp}; REFUSED, {@code what} first, when the cluster has no such partition. */
    private long end(TopicPartition tp, String what) throws ClusterException {
        Long end = consumer.endOffsets(List.of(tp), timeout).get(tp);
        if (end == null) {
            throw new ClusterException(ClusterException.Kind.REFUSED, what + ": the cluster has no such partition");
        }
        return end;
    }

    /** Closes the consumer. */
    @Override
    public synchronized void close() {
        consumer.close(CloseOptions.timeout(timeout));
    }

    @Override
    public String toString() {
        return "DoneLog[" + topic + "]";
    }
}
