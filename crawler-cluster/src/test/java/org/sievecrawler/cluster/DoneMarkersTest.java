package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class DoneMarkersTest {
    private static final CrawlName DOCS = new CrawlName("docs");

    private static MockProducer<String, String> kafka(boolean autoComplete) {
        return new MockProducer<>(autoComplete, null, new StringSerializer(), new StringSerializer());
    }

    @Test
    void aMarkerIsKeyedByHostValuedByTheUrlAndSentToTheGivenPartition() throws Exception {
        MockProducer<String, String> kafka = kafka(true);
        List<Optional<ClusterException>> completions = new ArrayList<>();
        try (DoneMarkers markers = DoneMarkers.using(kafka, DOCS)) {
            markers.markDone(5, "https://a.example:8443/x?y=1", completions::add);

            assertThat(markers.acknowledged()).isEqualTo(1);
        }

        assertThat(kafka.history()).containsExactly(
                new ProducerRecord<>("docs.fetched", 5, "a.example", "https://a.example:8443/x?y=1"));
        assertThat(completions).containsExactly(Optional.empty());
    }

    @Test
    void flushWaitsUntilEveryMarkerIsAcknowledged() throws Exception {
        MockProducer<String, String> kafka = kafka(false);
        try (DoneMarkers markers = DoneMarkers.using(kafka, DOCS)) {
            markers.markDone(0, "https://a.example/", DoneMarkers.Completion.NONE);
            markers.markDone(1, "https://b.example/", DoneMarkers.Completion.NONE);
            assertThat(markers.acknowledged()).isZero();

            markers.flush();

            assertThat(markers.acknowledged()).isEqualTo(2);
        }
    }

    @Test
    void aFailedMarkerIsToldToItsCompletionAndThrownByTheNextCallNamingTopicPartitionAndUrl() throws Exception {
        MockProducer<String, String> kafka = kafka(false);
        List<Optional<ClusterException>> completions = new ArrayList<>();
        try (DoneMarkers markers = DoneMarkers.using(kafka, DOCS)) {
            markers.markDone(3, "https://a.example/", completions::add);
            kafka.errorNext(new TimeoutException("Expiring 1 record(s) for docs.fetched-3: 15020 ms has passed"));

            assertThat(completions).singleElement().satisfies(failure -> assertThat(failure).isPresent());
            assertThatThrownBy(() -> markers.markDone(3, "https://b.example/", DoneMarkers.Completion.NONE))
                    .isInstanceOfSatisfying(ClusterException.class,
                            e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.UNAVAILABLE))
                    .hasMessage("sending the done marker of https://a.example/ to topic docs.fetched partition 3"
                            + " failed: Expiring 1 record(s) for docs.fetched-3: 15020 ms has passed");
            assertThat(kafka.history()).hasSize(1);
        }
    }

    @Test
    void aMarkerRefusedByTheClusterIsOfKindRefused() throws Exception {
        MockProducer<String, String> kafka = kafka(false);
        try (DoneMarkers markers = DoneMarkers.using(kafka, DOCS)) {
            markers.markDone(0, "https://a.example/", DoneMarkers.Completion.NONE);
            kafka.errorNext(new RecordTooLargeException("The message is 2000000 bytes"));

            assertThatThrownBy(markers::flush)
                    .isInstanceOfSatisfying(ClusterException.class,
                            e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.REFUSED))
                    .hasMessageContaining("https://a.example/");
        }
    }

    @Test
    void aUrlWithoutHostOrANegativePartitionIsRefusedNamingIt() {
        try (DoneMarkers markers = DoneMarkers.using(kafka(true), DOCS)) {
            assertThatThrownBy(() -> markers.markDone(0, "mailto:a@b.example", DoneMarkers.Completion.NONE))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mailto:a@b.example");
            assertThatThrownBy(() -> markers.markDone(-1, "https://a.example/", DoneMarkers.Completion.NONE))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("a partition is >= 0, was -1 for https://a.example/");
        }
    }

    @Test
    void aMarkerOverTheRecordBoundIsRefusedAndNotSent() {
        MockProducer<String, String> kafka = kafka(true);
        try (DoneMarkers markers = DoneMarkers.using(kafka, DOCS)) {
            String huge = "https://a.example/" + "\u20ac".repeat(6000);
            assertThatThrownBy(() -> markers.markDone(0, huge, DoneMarkers.Completion.NONE))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("would take 18027 bytes, more than the 16384 a record of the frontier or the"
                            + " done-log may have");
        }
        assertThat(kafka.history()).isEmpty();
    }
}
