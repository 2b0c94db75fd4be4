package org.sievecrawler.cluster;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The records of a crawl's topics one cluster process refused ({@link RecordCheck}): each is skipped, counted (in
 * all, {@link #count}, the progress line's {@code bad-records}, and by kind), logged at WARN for the first of its
 * kind only, naming its topic, partition, offset, kind and what is wrong (never its whole value; the later ones of a
 * kind at DEBUG), and copied to the crawl's dead-letter topic {@code <crawl>.rejected} so an operator can inspect it.
 *
 * <p><b>The copy</b> goes to the partition of {@code <crawl>.rejected} with the number of the source's (every topic
 * of a crawl has its P partitions), so {@code cluster status} counts each partition's bad records from the end
 * offsets. Its key and value are the source's, each cut to its first {@link FrontierRecords#MAX_RECORD_BYTES} bytes
 * (a 5 MB record is copied in part: the topic's default record limit is about 1 MB); the source's headers are not
 * copied. Its headers say where it came from and why: {@value #TOPIC}, {@value #PARTITION}, {@value #OFFSET},
 * {@value #KIND}, {@value #DETAIL}, {@value #VALUE_BYTES} (the source value's size, absent for no value) and
 * {@value #MEMBER} (the process that refused it), as UTF-8 text. Copies are sent asynchronously with the crawl's
 * producer settings ({@link ClusterClients}); one that fails is logged once and the crawl goes on: a bad record is
 * skipped and counted whether or not its copy arrives.
 *
 * <p>Thread-safe: the poll thread refuses frontier records and done markers, the counters are read by the progress
 * thread. Out of scope: the rules ({@link RecordCheck}), which records are refused again after a takeover (the
 * caller's: {@link ClusterRun} refuses only records no earlier owner read), creating the topic ({@link ClusterAdmin}).
 */
final class RejectedRecords implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RejectedRecords.class);
    static final String TOPIC = "rejected.topic";
    static final String PARTITION = "rejected.partition";
    static final String OFFSET = "rejected.offset";
    static final String KIND = "rejected.kind";
    static final String DETAIL = "rejected.detail";
    static final String VALUE_BYTES = "rejected.value-bytes";
    static final String MEMBER = "rejected.member";

    private final Producer<byte[], byte[]> producer;
    private final CrawlName crawl;
    private final String topic;
    private final String member;
    private final AtomicLong count = new AtomicLong();
    private final Map<String, LongAdder> byKind = new ConcurrentHashMap<>();
    private final Set<String> logged = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean copyFailed = new AtomicBoolean();

    RejectedRecords(Producer<byte[], byte[]> producer, CrawlName crawl, String member) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.crawl = Objects.requireNonNull(crawl, "crawl");
        this.topic = crawl.topic(ClusterTopics.REJECTED);
        this.member = Objects.requireNonNull(member, "member");
    }

    /**
     * The bad records of process {@code member} of {@code crawl} on the cluster at {@code bootstrap}, copied with a
     * producer of the crawl's settings; {@code timeout} bounds a copy's send. Nothing is sent yet.
     *
     * @throws ClusterException when the client cannot be created (e.g. no address of the hosts resolves)
     */
    static RejectedRecords connect(String bootstrap, CrawlName crawl, String member, Duration timeout)
            throws ClusterException {
        String servers = ClusterClients.bootstrapServers(bootstrap);
        try {
            return new RejectedRecords(new KafkaProducer<>(ClusterClients.producer(servers, "crawler-rejected-" + crawl,
                    timeout), new ByteArraySerializer(), new ByteArraySerializer()), crawl, member);
        } catch (KafkaException e) {
            throw ClusterClients.cannotConnect(servers, e);
        }
    }

    /** Refuses {@code record}, read from one of the crawl's topics, for {@code why}: counted, logged, copied. */
    void refused(ConsumerRecord<byte[], byte[]> record, RecordVerdict.Bad<?> why) {
        refused(record.topic(), record.partition(), record.offset(), record.key(), record.value(), why);
    }

    /**
     * Refuses what lies at {@code offset} of {@code topic}'s {@code partition}, whose key and value are
     * {@code key} and {@code value} (either may be null), for {@code why}: counted, logged, copied.
     */
    void refused(String topic, int partition, long offset, byte[] key, byte[] value, RecordVerdict.Bad<?> why) {
        count.incrementAndGet();
        byKind.computeIfAbsent(why.kind(), k -> new LongAdder()).increment();
        if (logged.add(why.kind())) {
            LOG.warn("cluster crawl {}: skipped a bad record of {} partition {} at offset {} ({}); copied to {}."
                    + " Further {} records are counted (bad-records), not logged", crawl, topic, partition, offset,
                    why, this.topic, why.kind());
        } else {
            LOG.debug("cluster crawl {}: skipped a bad record of {} partition {} at offset {} ({})", crawl, topic,
                    partition, offset, why);
        }
        copy(topic, partition, offset, key, value, why);
    }

    private void copy(String source, int partition, long offset, byte[] key, byte[] value,
            RecordVerdict.Bad<?> why) {
        RecordHeaders headers = new RecordHeaders();
        header(headers, TOPIC, source);
        header(headers, PARTITION, Integer.toString(partition));
        header(headers, OFFSET, Long.toString(offset));
        header(headers, KIND, why.kind());
        header(headers, DETAIL, why.detail());
        if (value != null) {
            header(headers, VALUE_BYTES, Integer.toString(value.length));
        }
        header(headers, MEMBER, member);
        ProducerRecord<byte[], byte[]> copy = new ProducerRecord<>(topic, partition, null, cut(key), cut(value),
                headers);
        try {
            producer.send(copy, (metadata, e) -> {
                if (e != null) {
                    copyFailed(e);
                }
            });
        } catch (InterruptException e) {
            Thread.currentThread().interrupt();
            copyFailed(e);
        } catch (KafkaException e) {
            copyFailed(e);
        }
    }

    private void copyFailed(Exception e) {
        if (copyFailed.compareAndSet(false, true)) {
            LOG.warn("cluster crawl {}: a bad record could not be copied to {} ({}); bad records are still skipped"
                    + " and counted", crawl, topic, ClusterClients.rootMessage(e));
        }
    }

    private static void header(RecordHeaders headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code bytes}, or their first {@link FrontierRecords#MAX_RECORD_BYTES}. */
    private static byte[] cut(byte[] bytes) {
        return bytes == null || bytes.length <= FrontierRecords.MAX_RECORD_BYTES ? bytes
                : Arrays.copyOf(bytes, FrontierRecords.MAX_RECORD_BYTES);
    }

    /** Records refused so far by this process. */
    long count() {
        return count.get();
    }

    /** Records refused so far by this process, by kind, in the kinds' order. */
    Map<String, Long> byKind() {
        Map<String, Long> counts = new TreeMap<>();
        byKind.forEach((kind, n) -> counts.put(kind, n.sum()));
        return counts;
    }

    /** Waits until every copy sent so far is acknowledged or has failed (a failure is logged, not thrown). */
    void flush() {
        try {
            producer.flush();
        } catch (InterruptException e) {
            Thread.currentThread().interrupt();
        } catch (KafkaException e) {
            copyFailed(e);
        }
    }

    /** Closes the producer, waiting up to {@code timeout} for copies not yet acknowledged. */
    void close(Duration timeout) {
        producer.close(timeout);
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    @Override
    public String toString() {
        return "RejectedRecords[" + topic + "]";
    }
}
