package org.sievecrawler.cluster;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.sievecrawler.politeness.HostKey;

/**
 * Sends done markers to a crawl's done-log, {@code <crawl>.fetched}: one record per URL fetched (or given up),
 * keyed by the URL's canonical host ({@link HostKey#host}, as {@link FrontierRecords} keys the frontier), its value
 * the URL as UTF-8, sent to an explicit partition, the frontier partition the URL came from (the one Kafka's default
 * partitioner would pick for the key too; explicit, so a marker can never land elsewhere). A new owner of the
 * partition reads them back ({@link DoneLog}) to drop what was fetched after the snapshot it starts from.
 *
 * <p>Sends are asynchronous and batched, with {@code acks=all} and idempotence ({@link ClusterClients}); a marker
 * is sent only after the page's outlinks are acknowledged ({@link FrontierProducer#flush}), and its
 * {@link Completion} tells when the marker itself is, so that the page's lease can close then.
 *
 * <p><b>Errors.</b> As {@link FrontierProducer}: a send that fails is kept and thrown by the next {@link #markDone}
 * or {@link #flush} as a {@link ClusterException} naming the topic, the partition and the URL, UNAVAILABLE or
 * REFUSED by the same rule; the producer stays failed: close it. The marker's completion is called with the
 * failure too.
 *
 * <p>Thread-safe: any number of fetch threads may mark and flush. Out of scope: reading the done-log
 * ({@link DoneLog}), deciding what counts as done (the frontier), the frontier topic.
 */
public final class DoneMarkers implements AutoCloseable {
    /** What to do when a marker is acknowledged or has failed. */
    @FunctionalInterface
    public interface Completion {
        /** Nothing: for a caller that only flushes. */
        Completion NONE = failure -> {
        };

        /**
         * Called once per marker, on the producer's I/O thread: {@code failure} is empty when the cluster
         * acknowledged the marker. Must be quick and must not block or send.
         */
        void completed(Optional<ClusterException> failure);
    }

    private final Producer<String, String> producer;
    private final String topic;
    private final AtomicReference<ClusterException> failure = new AtomicReference<>();
    private final AtomicLong acknowledged = new AtomicLong();

    DoneMarkers(Producer<String, String> producer, CrawlName crawl) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.topic = Objects.requireNonNull(crawl, "crawl").topic(ClusterTopics.FETCHED);
    }

    /**
     * Takes over {@code producer} (closing this closes it), which must have String keys and values: for tests
     * (MockProducer) and callers that configure their own.
     */
    public static DoneMarkers using(Producer<String, String> producer, CrawlName crawl) {
        return new DoneMarkers(producer, crawl);
    }

    /**
     * A producer of done markers for {@code crawl} on the cluster at {@code bootstrap} ({@code HOST:PORT}, several
     * separated by commas). {@code timeout} bounds how long a send waits for the topic's metadata and how long a
     * marker may take to be acknowledged, retries included. Nothing is sent yet.
     *
     * @throws IllegalArgumentException when {@code bootstrap} is not a list of HOST:PORT, naming the value
     * @throws ClusterException when the client cannot be created (e.g. no address of the hosts resolves)
     */
    public static DoneMarkers connect(String bootstrap, CrawlName crawl, Duration timeout) throws ClusterException {
        String servers = ClusterClients.bootstrapServers(bootstrap);
        try {
            return new DoneMarkers(new KafkaProducer<>(ClusterClients.producer(servers, "crawler-fetched-" + crawl,
                    timeout), new StringSerializer(), new StringSerializer()), crawl);
        } catch (KafkaException e) {
            throw ClusterClients.cannotConnect(servers, e);
        }
    }

    /**
     * The done marker of {@code url} in {@code topic}'s {@code partition}: keyed by its host, valued by the URL; one
     * larger than {@link FrontierRecords#MAX_RECORD_BYTES} is refused.
     */
    private static ProducerRecord<String, String> record(String topic, int partition, String url) {
        String host = HostKey.host(url);
        FrontierRecords.requireWithinBound(url, 0, host, url);
        return new ProducerRecord<>(topic, partition, host, url);
    }

    /**
     * Sends the done marker of {@code url} to the done-log's {@code partition} (the frontier partition the URL came
     * from); returns at once, before it is acknowledged ({@code completion} is told then; {@link #flush} waits for
     * it). May block up to the timeout while the producer's buffer is full or the topic's metadata is not known yet.
     *
     * @throws ClusterException when this or an earlier send failed, naming the topic, the partition and the URL
     * @throws IllegalArgumentException naming the URL when it has no host or its marker would be larger than
     *     {@link FrontierRecords#MAX_RECORD_BYTES}, or when the partition is negative
     */
    public void markDone(int partition, String url, Completion completion) throws ClusterException {
        Objects.requireNonNull(completion, "completion");
        if (partition < 0) {
            throw new IllegalArgumentException("a partition is >= 0, was " + partition + " for " + url);
        }
        throwIfFailed();
        ProducerRecord<String, String> record = record(topic, partition, url);
        try {
            producer.send(record, (metadata, e) -> completed(partition, url, e, completion));
        } catch (InterruptException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException(ClusterException.Kind.UNAVAILABLE, "sending the done marker of " + url
                    + " to topic " + topic + " partition " + partition + " was interrupted");
        } catch (KafkaException e) {
            completed(partition, url, e, completion);
            throwIfFailed();
        }
    }

    /**
     * Waits until every marker sent so far is acknowledged by the cluster ({@code acks=all}), or has failed.
     *
     * @throws ClusterException when a send failed, naming the topic, partition and the first URL that failed; of kind
     *     UNAVAILABLE when the wait was interrupted (the interrupt flag is kept)
     */
    public void flush() throws ClusterException {
        ClusterClients.flush(producer, "the done markers sent to topic " + topic);
        throwIfFailed();
    }

    /** The markers the cluster has acknowledged so far. */
    public long acknowledged() {
        return acknowledged.get();
    }

    private void completed(int partition, String url, Exception e, Completion completion) {
        if (e == null) {
            acknowledged.incrementAndGet();
            completion.completed(Optional.empty());
            return;
        }
        ClusterException failed = new ClusterException(ClusterClients.kind(e), "sending the done marker of " + url
                + " to topic " + topic + " partition " + partition + " failed: " + ClusterClients.rootMessage(e));
        failure.compareAndSet(null, failed);
        completion.completed(Optional.of(failed));
    }

    private void throwIfFailed() throws ClusterException {
        ClusterException e = failure.get();
        if (e != null) {
            throw new ClusterException(e.kind(), e.getMessage());
        }
    }

    /** Closes the producer, waiting up to {@code timeout} for markers not yet acknowledged. */
    public void close(Duration timeout) {
        producer.close(timeout);
    }

    /** Closes the producer, waiting up to 30 seconds for markers not yet acknowledged. */
    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    @Override
    public String toString() {
        return "DoneMarkers[" + topic + "]";
    }
}
