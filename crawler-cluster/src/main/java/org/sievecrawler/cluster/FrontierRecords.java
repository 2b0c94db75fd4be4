package org.sievecrawler.cluster;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.sievecrawler.politeness.HostKey;
import org.sievecrawler.sieve.PendingUrl;

/**
 * The record format of a crawl's {@code <crawl>.frontier} topic: the key is the URL's canonical host
 * ({@link HostKey#host}: lower-case host name or IP literal, no scheme, no port) as UTF-8, so Kafka's default
 * partitioner (murmur2 of the key bytes, modulo the partitions) puts every URL of a host, http or https, any port,
 * in one partition and so with one owner, and politeness stays exact; the value is the {@link PendingUrl}
 * (url, depth, referrer, attempt, redirects, purpose) in the Sieve's own binary form
 * ({@link PendingUrlSerializer}, {@link PendingUrlDeserializer}).
 *
 * <p>Pure functions. Out of scope: sending ({@link FrontierProducer}) and consuming.
 */
public final class FrontierRecords {
    private FrontierRecords() {
    }

    /**
     * The key of {@code url}: its canonical host. The URL must be normalized ({@code link.UrlNormalizer}).
     *
     * @throws IllegalArgumentException naming the URL when it has no host
     */
    public static String key(PendingUrl url) {
        return HostKey.host(url.url());
    }

    /** The record that puts {@code url} in {@code topic}, keyed by its host; Kafka's partitioner picks the partition. */
    public static ProducerRecord<String, PendingUrl> record(String topic, PendingUrl url) {
        return new ProducerRecord<>(topic, key(url), url);
    }

    /**
     * The message of a record a consumer could not read, naming the topic, partition and offset (which the
     * consumer knows and the deserializer does not) and the deserializer's reason:
     * {@code docs.frontier-3 at offset 41: ...}.
     */
    public static String describe(RecordDeserializationException e) {
        Throwable cause = e.getCause();
        return e.topicPartition() + " at offset " + e.offset() + ": "
                + (cause != null && cause.getMessage() != null ? cause.getMessage() : e.getMessage());
    }
}
