package org.sievecrawler.cluster;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.Utils;
import org.sievecrawler.link.UrlNormalizer;
import org.sievecrawler.politeness.HostKey;
import org.sievecrawler.sieve.PendingUrl;

/**
 * The record format of a crawl's {@code <crawl>.frontier} topic: the key is the URL's canonical host
 * ({@link HostKey#host}: lower-case host name or IP literal, no scheme, no port) as UTF-8, so Kafka's default
 * partitioner (murmur2 of the key bytes, modulo the partitions: {@link #partition}) puts every URL of a host, http or
 * https, any port, in one partition and so with one owner, and politeness stays exact; the value is the
 * {@link PendingUrl} (url, depth, referrer, attempt, redirects, purpose) in the Sieve's own binary form
 * ({@link PendingUrlSerializer}, {@link PendingUrlDeserializer}).
 *
 * <p><b>Size.</b> No record of the crawl's frontier or done-log is larger than {@value #MAX_RECORD_BYTES} bytes, key
 * and value together: a URL and its referrer are normalized URLs of at most {@link UrlNormalizer#MAX_LENGTH}
 * characters, ASCII, so a value takes at most 2 x (4 + 2048) + 13 = 4,117 bytes, and a host key at most 255 (a DNS
 * name; an IPv6 literal is shorter). The bound leaves room for every character taking 3 bytes (13,074 bytes with the
 * longest key), so a producer checks it from the lengths alone. A larger record was not written by a crawler: the
 * producer refuses to send one ({@link FrontierProducer}, {@link DoneMarkers}) and a consumer skips one unread
 * ({@link RecordCheck}).
 *
 * <p>Pure functions. Out of scope: sending ({@link FrontierProducer}) and consuming ({@link RecordCheck}).
 */
public final class FrontierRecords {
    /** The largest record of the frontier or the done-log, key and value bytes together: see the class comment. */
    public static final int MAX_RECORD_BYTES = 16 * 1024;
    /** The most bytes one character of a String takes in UTF-8 (a surrogate pair takes 4 for 2 chars). */
    private static final int MAX_UTF8_BYTES_PER_CHAR = 3;
    /** The fixed part of an encoded pending URL: two lengths, three ints and the purpose. */
    private static final int FIXED_VALUE_BYTES = 4 + 4 + 3 * 4 + 1;

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

    /**
     * The record that puts {@code url} in {@code topic}, keyed by its host; Kafka's partitioner picks the partition.
     *
     * @throws IllegalArgumentException naming the URL when it has no host, or when its record would be larger than
     *     {@value #MAX_RECORD_BYTES} bytes (naming its size)
     */
    public static ProducerRecord<String, PendingUrl> record(String topic, PendingUrl url) {
        return record(topic, url, HostRoutes.hashed(1));
    }

    /**
     * The record that puts {@code url} in {@code topic}, keyed by its host, in the partition {@code routes} placed
     * the host on; Kafka's partitioner picks the partition of a host not placed.
     *
     * @throws IllegalArgumentException as {@link #record(String, PendingUrl)}
     */
    public static ProducerRecord<String, PendingUrl> record(String topic, PendingUrl url, HostRoutes routes) {
        String key = key(url);
        requireWithinBound(url.url(), FIXED_VALUE_BYTES, key, url.url(), url.referrer());
        java.util.OptionalInt placed = routes.placement(key);
        return new ProducerRecord<>(topic, placed.isPresent() ? placed.getAsInt() : null, key, url);
    }

    /**
     * The partition of {@code host} among {@code partitions}, as Kafka's default partitioner picks it for the key
     * {@code host} (murmur2 of its UTF-8 bytes, made positive, modulo the partitions): the one partition whose owner
     * crawls the host.
     */
    public static int partition(String host, int partitions) {
        return Utils.toPositive(Utils.murmur2(host.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /**
     * Refuses the record of {@code url} whose key and value are {@code fixedBytes} plus the UTF-8 of {@code texts}
     * when it is larger than {@value #MAX_RECORD_BYTES} bytes: checked from the lengths (every character at its
     * largest), and only when that passes the bound by the exact UTF-8 sizes.
     *
     * @throws IllegalArgumentException naming the URL (cut to a readable length), the record's size and the bound
     */
    static void requireWithinBound(String url, int fixedBytes, String... texts) {
        long chars = 0;
        for (String text : texts) {
            chars += text == null ? 0 : text.length();
        }
        if (fixedBytes + MAX_UTF8_BYTES_PER_CHAR * chars <= MAX_RECORD_BYTES) {
            return;
        }
        long bytes = fixedBytes;
        for (String text : texts) {
            bytes += text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
        }
        if (bytes > MAX_RECORD_BYTES) {
            throw new IllegalArgumentException("the record of " + quote(url) + " would take " + bytes + " bytes, more"
                    + " than the " + MAX_RECORD_BYTES + " a record of the frontier or the done-log may have (a URL and"
                    + " its referrer are at most " + UrlNormalizer.MAX_LENGTH + " characters each, normalized)");
        }
    }

    /** {@code text} in double quotes, cut to 120 characters (with its length) when longer: for messages and logs. */
    static String quote(String text) {
        return text.length() <= 120 ? '"' + text + '"'
                : '"' + text.substring(0, 120) + "\u2026\" (" + text.length() + " characters)";
    }
}
