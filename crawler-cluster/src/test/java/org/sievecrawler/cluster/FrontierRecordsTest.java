package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.sievecrawler.sieve.PendingUrl;

class FrontierRecordsTest {
    private final PendingUrlSerializer serializer = new PendingUrlSerializer();
    private final PendingUrlDeserializer deserializer = new PendingUrlDeserializer();

    @Test
    void theKeyIsTheHostAloneWhateverTheSchemeAndPort() {
        assertThat(FrontierRecords.key(PendingUrl.seed("http://example.org/a"))).isEqualTo("example.org");
        assertThat(FrontierRecords.key(PendingUrl.seed("https://example.org:8443/b"))).isEqualTo("example.org");
        assertThat(FrontierRecords.key(PendingUrl.seed("http://[::1]:8080/"))).isEqualTo("[::1]");

        ProducerRecord<String, PendingUrl> record = FrontierRecords.record("docs.frontier",
                PendingUrl.seed("https://www.example.org/"));
        assertThat(record.topic()).isEqualTo("docs.frontier");
        assertThat(record.key()).isEqualTo("www.example.org");
        assertThat(record.partition()).isNull();
    }

    @Test
    void aPendingUrlRoundTripsWithEveryField() {
        PendingUrl seed = PendingUrl.seed("https://example.org/");
        PendingUrl link = new PendingUrl("https://example.org/caf%C3%A9?q=1", 3, "https://example.org/a", 2, 1,
                PendingUrl.Purpose.PAGE);
        PendingUrl robots = new PendingUrl("https://example.org/robots.txt", 0, null, 0, 0, PendingUrl.Purpose.ROBOTS);

        for (PendingUrl url : new PendingUrl[] {seed, link, robots}) {
            assertThat(deserializer.deserialize("docs.frontier", serializer.serialize("docs.frontier", url)))
                    .isEqualTo(url);
        }
        assertThat(serializer.serialize("docs.frontier", null)).isNull();
    }

    @Test
    void aValueCutShortIsRefusedNamingTheTopicAndSize() {
        byte[] bytes = serializer.serialize("docs.frontier", PendingUrl.seed("https://example.org/"));
        byte[] cut = Arrays.copyOf(bytes, bytes.length - 3);

        assertThatThrownBy(() -> deserializer.deserialize("docs.frontier", cut))
                .isInstanceOf(SerializationException.class)
                .hasMessage("topic docs.frontier: a frontier record's value of " + cut.length
                        + " bytes is not a pending URL: cut short");
    }

    @Test
    void trailingBytesAGarbageLengthAndNoValueAreRefused() {
        byte[] bytes = serializer.serialize("docs.frontier", PendingUrl.seed("https://example.org/"));
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 2);

        assertThatThrownBy(() -> deserializer.deserialize("docs.frontier", longer))
                .hasMessageEndingWith("is not a pending URL: 2 bytes after the pending URL https://example.org/");
        assertThatThrownBy(() -> deserializer.deserialize("docs.frontier", new byte[] {0x7f, 0, 0, 0, 1, 2}))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("topic docs.frontier: a frontier record's value of 6 bytes is not a pending URL")
                .hasMessageContaining("2130706432 bytes");
        assertThatThrownBy(() -> deserializer.deserialize("docs.frontier", null))
                .isInstanceOf(SerializationException.class)
                .hasMessage("topic docs.frontier: a frontier record has no value; expected a pending URL");
    }

    @Test
    void aRecordTheConsumerCouldNotReadIsDescribedByTopicPartitionAndOffset() {
        SerializationException cause = new SerializationException("topic docs.frontier: a frontier record's value"
                + " of 3 bytes is not a pending URL: cut short");
        RecordDeserializationException e = new RecordDeserializationException(
                RecordDeserializationException.DeserializationExceptionOrigin.VALUE,
                new TopicPartition("docs.frontier", 3), 41, 0, TimestampType.CREATE_TIME, null, null, null,
                "Error deserializing VALUE", cause);

        assertThat(FrontierRecords.describe(e)).isEqualTo("docs.frontier-3 at offset 41: topic docs.frontier:"
                + " a frontier record's value of 3 bytes is not a pending URL: cut short");
    }
}
