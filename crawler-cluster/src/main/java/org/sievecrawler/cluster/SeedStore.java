package org.sievecrawler.cluster;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.sievecrawler.link.LinkDecision;
import org.sievecrawler.link.UrlNormalizer;
import org.sievecrawler.politeness.HostKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The seeds of a cluster crawl, stored in the cluster ({@code <crawl>.seeds}, one compacted partition) by
 * {@code cluster seed} and read by every {@code cluster run} when it starts: so the seeds are written once, on the
 * command line of {@code cluster seed}, and every process takes from them its scope's seed hosts
 * ({@code scope.hosts: same-as-seeds}) and the partitions of the seed hosts ({@link HostRoutes}).
 *
 * <p>A record per seed: the key is the seed's normalized URL, the value the partition of its host as decimal text
 * (UTF-8). Seeding a URL again writes the same record again; compaction keeps one. The records are written, and
 * acknowledged, before the seeds go to the frontier, so a process that reads a seed's frontier record started after
 * the seed was stored, or before {@code cluster seed} ran at all.
 *
 * <p><b>Untrusted input.</b> A record read that is not a seed as written here (no key or value, more than
 * {@link FrontierRecords#MAX_RECORD_BYTES}, a key that is not a URL the normalizer takes, a value that is not a
 * partition of the crawl, a host already placed on another partition by an earlier record) is skipped and logged
 * with its offset; the first placement of a host wins, as it was the one its URLs were routed by.
 *
 * <p>Thread-safe: calls are serialized. Out of scope: where the seeds are sent ({@link FrontierProducer}), where
 * hosts are placed ({@link SeedPlacement}).
 */
public final class SeedStore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SeedStore.class);
    /** How long one poll waits at most before the read checks its deadline again. */
    private static final Duration POLL = Duration.ofMillis(200);

    private final Producer<String, String> producer;
    private final Consumer<byte[], byte[]> consumer;
    private final CrawlName crawl;
    private final TopicPartition topic;
    private final Duration timeout;

    /**
     * The crawl's seeds as stored: the URLs in the order they were first stored, and their hosts' partitions.
     *
     * @param urls the seed URLs, normalized, each once
     * @param routes the routing of the crawl's hosts, the seed hosts at their stored partitions
     */
    public record Seeds(List<String> urls, HostRoutes routes) {
        public Seeds {
            urls = List.copyOf(urls);
            Objects.requireNonNull(routes, "routes");
        }
    }

    SeedStore(Producer<String, String> producer, Consumer<byte[], byte[]> consumer, CrawlName crawl,
            Duration timeout) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.crawl = Objects.requireNonNull(crawl, "crawl");
        this.topic = new TopicPartition(crawl.topic(ClusterTopics.SEEDS), 0);
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * Takes over {@code producer} (String keys and values) and {@code consumer} (byte arrays, no group): for tests
     * (MockProducer, MockConsumer). Closing this closes both.
     */
    public static SeedStore using(Producer<String, String> producer, Consumer<byte[], byte[]> consumer,
            CrawlName crawl, Duration timeout) {
        return new SeedStore(producer, consumer, crawl, timeout);
    }

    /**
     * The seed store of {@code crawl} on the cluster at {@code bootstrap}; {@code timeout} bounds each read and write.
     *
     * @throws ClusterException when the clients cannot be created
     */
    public static SeedStore connect(String bootstrap, CrawlName crawl, Duration timeout) throws ClusterException {
        String servers = ClusterClients.bootstrapServers(bootstrap);
        Producer<String, String> producer = null;
        try {
            producer = new KafkaProducer<>(ClusterClients.producer(servers, "crawler-seeds-" + crawl, timeout),
                    new StringSerializer(), new StringSerializer());
            return new SeedStore(producer, new KafkaConsumer<>(ClusterClients.consumer(servers,
                    "crawler-seeds-reader-" + crawl, timeout), new ByteArrayDeserializer(),
                    new ByteArrayDeserializer()), crawl, timeout);
        } catch (KafkaException e) {
            if (producer != null) {
                producer.close(Duration.ZERO);
            }
            throw ClusterClients.cannotConnect(servers, e);
        }
    }

    /**
     * Every seed stored so far, read from the start of {@code <crawl>.seeds} to its end when the read starts; bad
     * records skipped (see the class comment).
     *
     * @param partitions the partitions of the crawl's frontier
     * @throws ClusterException UNAVAILABLE when the seeds were not read within the timeout
     */
    public synchronized Seeds read(int partitions) throws ClusterException {
        String what = "the seeds of crawl " + crawl + " in topic " + topic.topic();
        Set<String> urls = new LinkedHashSet<>();
        Map<String, Integer> placed = new LinkedHashMap<>();
        UrlNormalizer normalizer = new UrlNormalizer();
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            consumer.assign(List.of(topic));
            consumer.seekToBeginning(List.of(topic));
            long end = consumer.endOffsets(List.of(topic), timeout).getOrDefault(topic, 0L);
            while (consumer.position(topic, timeout) < end) {
                if (System.nanoTime() > deadline) {
                    throw new ClusterException(ClusterException.Kind.UNAVAILABLE, "reading " + what + " took more"
                            + " than " + timeout.toMillis() + " ms (up to offset " + consumer.position(topic, timeout)
                            + " of " + end + "); the cluster is slow or unavailable");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL).records(topic)) {
                    if (record.offset() < end) {
                        take(record, partitions, normalizer, urls, placed);
                    }
                }
            }
        } catch (KafkaException e) {
            throw ClusterClients.readFailed(what, e);
        }
        return new Seeds(new ArrayList<>(urls), new HostRoutes(partitions, placed));
    }

    private void take(ConsumerRecord<byte[], byte[]> record, int partitions, UrlNormalizer normalizer,
            Set<String> urls, Map<String, Integer> placed) {
        String where = topic.topic() + " offset " + record.offset();
        if (record.key() == null || record.value() == null
                || record.key().length + record.value().length > FrontierRecords.MAX_RECORD_BYTES) {
            LOG.warn("{}: skipped: a seed record has a URL as key and a partition as value, of at most {} bytes",
                    where, FrontierRecords.MAX_RECORD_BYTES);
            return;
        }
        String key = new String(record.key(), StandardCharsets.UTF_8);
        String value = new String(record.value(), StandardCharsets.UTF_8);
        LinkDecision normalized = normalizer.normalize(key);
        if (!(normalized instanceof LinkDecision.Accept accept) || !value.matches("[0-9]{1,9}")
                || Integer.parseInt(value) >= partitions) {
            LOG.warn("{}: skipped: seed {} at partition \"{}\" is not a URL at one of the {} partitions", where,
                    FrontierRecords.quote(key), FrontierRecords.quote(value), partitions);
            return;
        }
        String host = HostKey.host(accept.url());
        int partition = Integer.parseInt(value);
        Integer before = placed.putIfAbsent(host, partition);
        if (before != null && before != partition) {
            LOG.warn("{}: seed {} places host {} on partition {}, but an earlier seed placed it on {}: kept there",
                    where, FrontierRecords.quote(key), host, partition, before);
        }
        urls.add(accept.url());
    }

    /**
     * Stores {@code urls} (normalized seed URLs) with their hosts' partitions by {@code routes}, and waits until the
     * cluster acknowledged every one.
     *
     * @throws ClusterException when a seed was not acknowledged within the timeout, naming the topic
     */
    public synchronized void write(List<String> urls, HostRoutes routes) throws ClusterException {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        try {
            for (String url : urls) {
                sent.add(producer.send(new ProducerRecord<>(topic.topic(), 0, url,
                        Integer.toString(routes.partition(HostKey.host(url))))));
            }
            producer.flush();
            for (Future<RecordMetadata> future : sent) {
                future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException(ClusterException.Kind.UNAVAILABLE, "storing the seeds of crawl " + crawl
                    + " in topic " + topic.topic() + " was interrupted");
        } catch (ExecutionException | java.util.concurrent.TimeoutException | KafkaException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new ClusterException(cause instanceof java.util.concurrent.TimeoutException
                    ? ClusterException.Kind.UNAVAILABLE : ClusterClients.kind(cause), "storing the seeds of crawl " + crawl
                    + " in topic " + topic.topic() + " failed: " + ClusterClients.rootMessage(cause));
        }
    }

    /** Closes the clients, waiting at most the timeout. */
    @Override
    public synchronized void close() {
        producer.close(timeout);
        consumer.close(CloseOptions.timeout(timeout));
    }
}
