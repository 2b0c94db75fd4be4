package org.sievecrawler.cluster;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.PendingUrlCodec;

/**
 * Reads the value of a frontier record written by {@link PendingUrlSerializer}. A value that is not exactly one
 * {@link PendingUrlCodec} record (cut short, trailing bytes, a length or number out of range, or no value at all)
 * is a {@link SerializationException} naming the topic, the size and what is wrong. A crawl's consumer reads bytes
 * and calls it through {@link RecordCheck}, which turns that exception into a refusal of the record ({@code
 * unreadable}), named with its partition and offset; a consumer given this deserializer would have the exception
 * thrown out of its {@code poll}. Stateless and thread-safe.
 */
public final class PendingUrlDeserializer implements Deserializer<PendingUrl> {
    @Override
    public PendingUrl deserialize(String topic, byte[] data) {
        if (data == null) {
            throw new SerializationException("topic " + topic + ": a frontier record has no value; expected a"
                    + " pending URL");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            PendingUrl url = PendingUrlCodec.read(in);
            int left = in.available();
            if (left > 0) {
                throw new SerializationException(corrupt(topic, data, left + " bytes after the pending URL "
                        + url.url()));
            }
            return url;
        } catch (EOFException e) {
            throw new SerializationException(corrupt(topic, data, "cut short"));
        } catch (IOException e) {
            throw new SerializationException(corrupt(topic, data, e.getMessage()));
        }
    }

    private static String corrupt(String topic, byte[] data, String why) {
        return "topic " + topic + ": a frontier record's value of " + data.length + " bytes is not a pending URL: "
                + why;
    }
}
