package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** {@link DoneLog} on Kafka's MockConsumer; {@code TakeoverStateOnKafkaTest} reads a real broker's done-log. */
class DoneLogTest {
    private static final CrawlName DOCS = new CrawlName("docs");
    private static final TopicPartition P2 = new TopicPartition("docs.fetched", 2);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final MockConsumer<String, String> consumer = new MockConsumer<>("none");

    @Test
    void readsFromTheOffsetToTheEndTakenAtTheStartAUrlMarkedTwiceOnce() throws Exception {
        List<String> urls = List.of("https://a.example/0", "https://a.example/1", "https://b.example/2",
                "https://a.example/1", "https://a.example/4", "https://a.example/5");
        consumer.updateBeginningOffsets(Map.of(P2, 0L));
        consumer.updateEndOffsets(Map.of(P2, 5L)); // the 6th is written while the read runs
        consumer.schedulePollTask(() -> {
            for (int offset = 0; offset < urls.size(); offset++) {
                String url = urls.get(offset);
                consumer.addRecord(new ConsumerRecord<>(P2.topic(), 2, offset, url.substring(8, 17), url));
            }
        });

        try (DoneLog log = DoneLog.using(consumer, DOCS, TIMEOUT)) {
            assertThat(log.endOffset(2)).isEqualTo(5);
            DoneLog.Done done = log.readDone(2, 1, TIMEOUT);

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
            assertThatThrownBy(() -> log.readDone(2, 4, Duration.ofMillis(300)))
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
            assertThatThrownBy(() -> log.readDone(2, -1, TIMEOUT)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("a done-log offset is >= 0, was -1");
        }
    }
}
