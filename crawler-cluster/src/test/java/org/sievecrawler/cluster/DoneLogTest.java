package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link DoneLog} on Kafka's MockConsumer, every marker through a {@link RecordGate} (bad ones, from the table
 * {@code /cluster/poison-records.tsv}, are left out and copied aside); {@code TakeoverStateOnKafkaTest} reads a real
 * broker's done-log.
 */
class DoneLogTest {
    private static final CrawlName DOCS = new CrawlName("docs");
    private static final TopicPartition P2 = new TopicPartition("docs.fetched", 2);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("none");
    private final MockProducer<byte[], byte[]> copies = new MockProducer<>(true, null, new ByteArraySerializer(),
            new ByteArraySerializer());
    private final RejectedRecords rejected = new RejectedRecords(copies, DOCS, "crawler-1");
    /** The seed 127.0.0.1:8080 and the hosts *.example, 3 partitions (a.example and b.example are of partition 2). */
    private final RecordGate gate = new RecordGate(new RecordCheck(RecordCheckTest.profile(
            "scope.hosts=[same-as-seeds, \"*.example\"]"), 3), rejected);

    @Test
    void readsFromTheOffsetToTheEndTakenAtTheStartAUrlMarkedTwiceOnce() throws Exception {
        List<String> urls = List.of("https://a.example/0", "https://a.example/1", "https://b.example/2",
                "https://a.example/1", "https://a.example/4", "https://a.example/5");
        consumer.updateBeginningOffsets(Map.of(P2, 0L));
        consumer.updateEndOffsets(Map.of(P2, 5L)); // the 6th is written while the read runs
        consumer.schedulePollTask(() -> {
            for (int offset = 0; offset < urls.size(); offset++) {
                String url = urls.get(offset);
                consumer.addRecord(new ConsumerRecord<>(P2.topic(), 2, offset, bytes(url.substring(8, 17)),
                        bytes(url)));
            }
        });

        try (DoneLog log = DoneLog.using(consumer, DOCS, TIMEOUT)) {
            assertThat(log.endOffset(2)).isEqualTo(5);
            DoneLog.Done done = log.readDone(2, 1, TIMEOUT, gate);

            assertThat(done.end()).isEqualTo(5);
            assertThat(done.markers()).isEqualTo(4);
            assertThat(done.urls().size()).isEqualTo(3);
            assertThat(done.urls().remove("https://a.example/0")).isFalse();
            assertThat(done.urls().remove("https://a.example/5")).isFalse();
            assertThat(done.urls().remove("https://a.example/1")).isTrue();
            assertThat(done.urls().remove("https://b.example/2")).isTrue();
            assertThat(done.urls().remove("https://a.example/4")).isTrue();
        }
    }

    @Test
    void markersNotReadWithinTheTimeoutAreUnavailableNamingHowFarItGot() {
        consumer.updateEndOffsets(Map.of(P2, 10L));

        try (DoneLog log = DoneLog.using(consumer, DOCS, TIMEOUT)) {
            assertThatThrownBy(() -> log.readDone(2, 4, Duration.ofMillis(300), gate))
                    .isInstanceOfSatisfying(ClusterException.class,
                            e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.UNAVAILABLE))
                    .hasMessage("crawl docs: the done markers of topic docs.fetched partition 2 from offset 4: read 0"
                            + " of 6 markers within 300 ms (up to offset 4 of 10); the cluster is slow or"
                            + " unavailable");
        }
    }

    @Test
    void aNegativeOffsetIsRefused() {
        try (DoneLog log = DoneLog.using(consumer, DOCS, TIMEOUT)) {
            assertThatThrownBy(() -> log.readDone(2, -1, TIMEOUT, gate)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("a done-log offset is >= 0, was -1");
        }
    }

    static List<PoisonRecords.Poison> fetchedPoison() throws Exception {
        return RecordCheckTest.fetchedPoison();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fetchedPoison")
    void aBadMarkerBetweenTwoGoodOnesIsLeftOutCountedAndCopiedAside(PoisonRecords.Poison poison) throws Exception {
        int p = poison.partition();
        TopicPartition tp = new TopicPartition("docs.fetched", p);
        String site = RecordCheckTest.SITE;
        String before = good(p, site + "/before");
        String after = good(p, site + "/after");
        consumer.updateBeginningOffsets(Map.of(tp, 0L));
        consumer.updateEndOffsets(Map.of(tp, 3L));
        consumer.schedulePollTask(() -> {
            consumer.addRecord(new ConsumerRecord<>(tp.topic(), p, 0, null, bytes(before)));
            consumer.addRecord(poison.record(DOCS, 1));
            consumer.addRecord(new ConsumerRecord<>(tp.topic(), p, 2, null, bytes(after)));
        });

        try (DoneLog log = DoneLog.using(consumer, DOCS, TIMEOUT)) {
            DoneLog.Done done = log.readDone(p, 0, TIMEOUT, gate);

            assertThat(done.end()).isEqualTo(3);
            assertThat(done.markers()).isEqualTo(2);
            assertThat(done.urls().size()).isEqualTo(2);
            assertThat(done.urls().remove(before)).isTrue();
            assertThat(done.urls().remove(after)).isTrue();
        }
        assertThat(rejected.byKind()).isEqualTo(Map.of(poison.kind(), 1L));
        assertThat(copies.history()).singleElement().satisfies(copy -> {
            assertThat(copy.partition()).isEqualTo(p);
            assertThat(new String(copy.headers().lastHeader(RejectedRecords.TOPIC).value(), StandardCharsets.UTF_8))
                    .isEqualTo("docs.fetched");
        });
    }

    /** {@code url} if its host is of partition {@code p} of 3, else a URL of a host *.example of {@code p}. */
    private static String good(int p, String url) {
        if (FrontierRecords.partition("127.0.0.1", 3) == p) {
            return url;
        }
        for (int i = 0; ; i++) {
            if (FrontierRecords.partition("h" + i + ".example", 3) == p) {
                return "http://h" + i + ".example" + url.substring(url.indexOf('/', 8));
            }
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
