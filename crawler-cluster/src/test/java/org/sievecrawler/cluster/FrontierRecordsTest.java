package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.sievecrawler.fixtures.UrlCorpus;
import org.sievecrawler.politeness.HostKey;
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
    void aHostsPartitionIsTheOneKafkasDefaultPartitionerPicksForItsKey() {
        UrlCorpus corpus = new UrlCorpus(24);
        for (int i = 0; i < 10_000; i++) {
            String host = HostKey.host(corpus.url(i));
            for (int partitions : new int[] {1, 3, 12, 500}) {
                assertThat(FrontierRecords.partition(host, partitions)).as(host + " of " + partitions)
                        .isEqualTo(MockFrontier.partition(host, partitions));
            }
        }
    }

    @Test
    void aRecordOverTheBoundIsRefusedNamingTheUrlAndItsSize() {
        String longest = "https://example.org/" + "a".repeat(2048 - 20);
        PendingUrl link = PendingUrl.link(longest, PendingUrl.seed(longest));
        assertThat(FrontierRecords.record("docs.frontier", link).value()).isEqualTo(link);

        PendingUrl huge = PendingUrl.seed("https://example.org/" + "\u00e9".repeat(9000));
        assertThatThrownBy(() -> FrontierRecords.record("docs.frontier", huge))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the record of \"https://example.org/\u00e9")
                .hasMessageContaining("(9020 characters) would take 18052 bytes, more than the 16384 a record of the"
                        + " frontier or the done-log may have");
    }
}
