package org.sievecrawler.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.UrlHash;

/**
 * Sends URLs to a crawl's {@code <crawl>.frontier} topic, keyed by host ({@link FrontierRecords}), so that each host
 * goes to one partition: a seed host to the partition {@code cluster seed} placed it on ({@link HostRoutes}), any
 * other where Kafka's default partitioner puts it. Sends are asynchronous and batched ({@code linger.ms=}
 * {@value ClusterClients#LINGER_MS}, {@code batch.size=}{@value ClusterClients#BATCH_BYTES}), with {@code acks=all} and
 * {@code enable.idempotence=true} (the crawl's producer settings, {@link ClusterClients}): an acknowledged URL is on
 * every in-sync replica, and a retried batch is not written twice. {@link #flush} waits until every URL sent so far
 * is acknowledged: a page's done marker goes only after its outlinks are flushed, so a crash between the two
 * re-crawls the page rather than losing its links.
 *
 * <p><b>Recently sent URLs.</b> A page's navigation links repeat on every page of a site; sending each again would
 * only load the topic and the owner's Sieve (which drops it). So {@link #send} skips a URL whose 64-bit fingerprint
 * ({@link UrlHash#fingerprint}) is in a direct-mapped table of {@value #RECENT_SLOTS} slots (64 KB), indexed by the
 * fingerprint's low bits, the same scheme as the Sieve's recent cache. A slot holds the last URL that mapped to it,
 * so a URL is skipped only when it was sent recently and no other URL took its slot since; an eviction only costs a
 * duplicate the owner's Sieve drops. Two distinct URLs are taken for one with probability 2^-64 per lookup, which
 * would lose that URL: negligible. The table lives as long as the producer; a failed producer is replaced by a new
 * one, with an empty table, so a URL whose send failed is sent again.
 *
 * <p><b>Errors.</b> A send that fails (the cluster did not acknowledge within the delivery timeout, the topic is
 * missing, a record is refused) is kept and thrown by the next {@link #send} or {@link #flush} as a
 * {@link ClusterException} naming the topic and the URL; the producer stays failed (its order of sends is no longer
 * known): close it. {@link ClusterException.Kind#UNAVAILABLE} when the cluster did not answer or a retriable error
 * outlasted the timeout, {@link ClusterException.Kind#REFUSED} otherwise.
 *
 * <p>Thread-safe: any number of threads may send and flush (Kafka's producer is thread-safe; the table of recent
 * fingerprints is an atomic array, and a race between two threads costs at most a duplicate send). Out of scope:
 * consuming the frontier, the Sieve, done markers ({@code <crawl>.fetched}), creating topics ({@link ClusterAdmin}).
 */
public final class FrontierProducer implements AutoCloseable {
    /** The slots of the table of recently sent URLs: a power of two. */
    public static final int RECENT_SLOTS = 8192;

    private final Producer<String, PendingUrl> producer;
    private final String topic;
    private final HostRoutes routes;
    private final AtomicLongArray recent = new AtomicLongArray(RECENT_SLOTS);
    private final AtomicReference<ClusterException> failure = new AtomicReference<>();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final Set<Integer> partitions = ConcurrentHashMap.newKeySet();

    FrontierProducer(Producer<String, PendingUrl> producer, CrawlName crawl, HostRoutes routes) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.topic = Objects.requireNonNull(crawl, "crawl").topic(ClusterTopics.FRONTIER);
        this.routes = Objects.requireNonNull(routes, "routes");
    }

    /**
     * Takes over {@code producer} (closing this closes it), which must have a String key serializer and a
     * {@link PendingUrlSerializer}: for tests (MockProducer) and callers that configure their own.
     */
    public static FrontierProducer using(Producer<String, PendingUrl> producer, CrawlName crawl) {
        return new FrontierProducer(producer, crawl, HostRoutes.hashed(1));
    }

    /** As {@link #using(Producer, CrawlName)}, the seed hosts sent to the partitions {@code routes} placed them on. */
    public static FrontierProducer using(Producer<String, PendingUrl> producer, CrawlName crawl, HostRoutes routes) {
        return new FrontierProducer(producer, crawl, routes);
    }

    /**
     * A producer for the frontier of {@code crawl} on the cluster at {@code bootstrap} ({@code HOST:PORT}, several
     * separated by commas). {@code timeout} bounds how long a send waits for the topic's metadata and how long a
     * URL may take to be acknowledged, retries included. Nothing is sent yet.
     *
     * @throws IllegalArgumentException when {@code bootstrap} is not a list of HOST:PORT, naming the value
     * @throws ClusterException when the client cannot be created (e.g. no address of the hosts resolves)
     */
    public static FrontierProducer connect(String bootstrap, CrawlName crawl, Duration timeout)
            throws ClusterException {
        return connect(bootstrap, crawl, timeout, HostRoutes.hashed(1));
    }

    /**
     * As {@link #connect(String, CrawlName, Duration)}, the crawl's seed hosts sent to the partitions {@code routes}
     * placed them on ({@link SeedStore}), every other host where Kafka's default partitioner puts it.
     */
    public static FrontierProducer connect(String bootstrap, CrawlName crawl, Duration timeout, HostRoutes routes)
            throws ClusterException {
        String servers = ClusterClients.bootstrapServers(bootstrap);
        try {
            return new FrontierProducer(new KafkaProducer<>(
                    ClusterClients.producer(servers, "crawler-frontier-" + crawl, timeout), new StringSerializer(),
                    new PendingUrlSerializer()), crawl, routes);
        } catch (KafkaException e) {
            throw ClusterClients.cannotConnect(servers, e);
        }
    }

    /** The topic this producer sends to, {@code <crawl>.frontier}. */
    public String topic() {
        return topic;
    }

    /**
     * Sends {@code url} unless it was sent recently (see the class comment); returns at once, before the URL is
     * acknowledged ({@link #flush} waits for that). May block up to the timeout while the producer's buffer is full
     * or the topic's metadata is not known yet.
     *
     * @return whether the URL was sent, false when it was skipped as recently sent
     * @throws ClusterException when this or an earlier send failed, naming the topic and the URL
     * @throws IllegalArgumentException naming the URL when it has no host, or when its record would be larger than
     *     {@link FrontierRecords#MAX_RECORD_BYTES} (refused: a consumer skips such a record)
     */
    public boolean send(PendingUrl url) throws ClusterException {
        return send(FrontierRecords.record(topic, url, routes), null);
    }

    /**
     * Sends {@code urls} as {@link #send(PendingUrl)} does, and runs {@code acknowledged} once all those sent are
     * acknowledged, on the producer's I/O thread (so it must be quick and must not send on this producer); at once
     * if none was sent (all skipped as recently sent: a URL skipped was sent before, and the page that sent it is
     * done only once it is acknowledged). If a send fails, {@code acknowledged} never runs.
     *
     * @throws ClusterException when this or an earlier send failed, naming the topic and the URL
     * @throws IllegalArgumentException as {@link #send(PendingUrl)}, before any of {@code urls} is sent
     */
    public void sendAll(List<PendingUrl> urls, Runnable acknowledged) throws ClusterException {
        Objects.requireNonNull(acknowledged, "acknowledged");
        List<ProducerRecord<String, PendingUrl>> records = new ArrayList<>(urls.size());
        for (PendingUrl url : urls) {
            records.add(FrontierRecords.record(topic, url, routes)); // all checked before the first is sent
        }
        Batch batch = new Batch(urls.size() + 1, acknowledged);
        for (ProducerRecord<String, PendingUrl> record : records) {
            if (!send(record, batch)) {
                batch.acknowledged();
            }
        }
        batch.acknowledged(); // the +1: no callback runs it before every URL was handed to the producer
    }

    private boolean send(ProducerRecord<String, PendingUrl> record, Batch batch) throws ClusterException {
        throwIfFailed();
        PendingUrl url = record.value();
        long fingerprint = fingerprint(url.url());
        int slot = (int) (fingerprint & (RECENT_SLOTS - 1));
        if (recent.get(slot) == fingerprint) {
            skipped.incrementAndGet();
            return false;
        }
        recent.set(slot, fingerprint);
        try {
            producer.send(record, (metadata, e) -> {
                completed(url, metadata, e);
                if (e == null && batch != null) {
                    batch.acknowledged();
                }
            });
        } catch (InterruptException e) {
            recent.compareAndSet(slot, fingerprint, 0); // not sent: not recently sent either
            Thread.currentThread().interrupt();
            throw new ClusterException(ClusterException.Kind.UNAVAILABLE, "sending " + url.url() + " to topic "
                    + topic + " was interrupted");
        } catch (KafkaException e) {
            completed(url, null, e);
            throwIfFailed();
        }
        return true;
    }

    /** URLs of one {@link #sendAll} not yet acknowledged; runs its action when the count reaches 0. */
    private static final class Batch {
        private final AtomicInteger left;
        private final Runnable action;

        Batch(int count, Runnable action) {
            this.left = new AtomicInteger(count);
            this.action = action;
        }

        void acknowledged() {
            if (left.decrementAndGet() == 0) {
                action.run();
            }
        }
    }

    /**
     * Waits until every URL sent so far is acknowledged by the cluster ({@code acks=all}), or has failed.
     *
     * @throws ClusterException when a send failed, naming the topic and the first URL that failed; of kind
     *     UNAVAILABLE when the wait was interrupted (the interrupt flag is kept)
     */
    public void flush() throws ClusterException {
        ClusterClients.flush(producer, "the URLs sent to topic " + topic);
        throwIfFailed();
    }

    /** What the cluster has acknowledged so far, and what was skipped as recently sent. */
    public Acknowledged acknowledged() {
        return new Acknowledged(acknowledged.get(), new TreeSet<>(partitions), skipped.get());
    }

    /**
     * URLs the cluster acknowledged, the partitions they went to, and URLs not sent because they were sent recently.
     *
     * @param urls URLs acknowledged
     * @param partitions the partitions of the frontier topic they were written to, in order
     * @param skipped URLs skipped as recently sent
     */
    public record Acknowledged(long urls, Set<Integer> partitions, long skipped) {
        public Acknowledged {
            partitions = Collections.unmodifiableSet(new TreeSet<>(partitions));
        }
    }

    private void completed(PendingUrl url, RecordMetadata metadata, Exception e) {
        if (e == null) {
            acknowledged.incrementAndGet();
            partitions.add(metadata.partition());
            return;
        }
        failure.compareAndSet(null, new ClusterException(ClusterClients.kind(e), "sending " + url.url()
                + " to topic " + topic + " failed: " + ClusterClients.rootMessage(e)));
    }

    private void throwIfFailed() throws ClusterException {
        ClusterException e = failure.get();
        if (e != null) {
            throw new ClusterException(e.kind(), e.getMessage());
        }
    }

    /** A URL's fingerprint, never 0 (0 marks an empty slot). */
    private static long fingerprint(String url) {
        long fingerprint = UrlHash.fingerprint(url);
        return fingerprint == 0 ? 1 : fingerprint;
    }

    /** Closes the producer, waiting up to {@code timeout} for URLs not yet acknowledged. */
    public void close(Duration timeout) {
        producer.close(timeout);
    }

    /** Closes the producer, waiting up to 30 seconds for URLs not yet acknowledged. */
    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    @Override
    public String toString() {
        return "FrontierProducer[" + topic + "]";
    }
}
