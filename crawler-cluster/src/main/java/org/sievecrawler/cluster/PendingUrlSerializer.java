package org.sievecrawler.cluster;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.kafka.common.serialization.Serializer;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.PendingUrlCodec;

/**
 * Writes a {@link PendingUrl} as the value of a frontier record: the bytes of {@link PendingUrlCodec#write}, nothing
 * around them (Kafka frames and checksums the record). A null URL is written as null. Stateless and thread-safe.
 */
public final class PendingUrlSerializer implements Serializer<PendingUrl> {
    @Override
    public byte[] serialize(String topic, PendingUrl url) {
        if (url == null) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 2 * url.url().length());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            PendingUrlCodec.write(out, url);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot happen: writing to memory", e);
        }
        return bytes.toByteArray();
    }
}
