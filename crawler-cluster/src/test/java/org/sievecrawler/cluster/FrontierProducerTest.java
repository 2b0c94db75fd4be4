package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.sievecrawler.sieve.PendingUrl;

class FrontierProducerTest {
    private static final int PARTITIONS = 12;
    private static final CrawlName DOCS = new CrawlName("docs");

    /** A producer whose sends complete when told (autoComplete false) or at once, partitioned as Kafka's default. */
    private static MockProducer<String, PendingUrl> kafka(boolean autoComplete) {
        return MockFrontier.producer(DOCS, PARTITIONS, autoComplete);
    }

    @Test
    void sendsEachUrlToTheFrontierKeyedByItsHost() throws Exception {
        MockProducer<String, PendingUrl> kafka = kafka(true);
        try (FrontierProducer frontier = FrontierProducer.using(kafka, DOCS)) {
            assertThat(frontier.topic()).isEqualTo("docs.frontier");
            assertThat(frontier.send(PendingUrl.seed("https://example.org/"))).isTrue();
            assertThat(frontier.send(PendingUrl.seed("http://127.0.0.1:8080/a"))).isTrue();
        }

        assertThat(kafka.history()).extracting(ProducerRecord::topic).containsOnly("docs.frontier");
        assertThat(kafka.history()).extracting(ProducerRecord::key).containsExactly("example.org", "127.0.0.1");
        assertThat(kafka.history()).extracting(ProducerRecord::value).containsExactly(
                PendingUrl.seed("https://example.org/"), PendingUrl.seed("http://127.0.0.1:8080/a"));
    }

    @Test
    void everySchemeAndPortOfAHostGoesToOnePartitionAndHostsSpreadOverThem() throws Exception {
        MockProducer<String, PendingUrl> kafka = kafka(true);
        Map<String, Set<Integer>> partitionsByHost = new java.util.HashMap<>();
        try (FrontierProducer frontier = FrontierProducer.using(kafka, DOCS)) {
            for (int h = 0; h < 200; h++) {
                String host = "host" + h + ".example.org";
                for (String url : List.of("http://" + host + "/", "https://" + host + "/a",
                        "https://" + host + ":8443/b", "http://" + host + ":8080/c?d")) {
                    frontier.send(PendingUrl.seed(url));
                }
            }
            frontier.flush();
            assertThat(frontier.acknowledged().urls()).isEqualTo(800);
            assertThat(frontier.acknowledged().partitions()).hasSize(PARTITIONS);
        }
        for (int i = 0; i < kafka.history().size(); i++) {
            ProducerRecord<String, PendingUrl> record = kafka.history().get(i);
            partitionsByHost.computeIfAbsent(record.key(), k -> new HashSet<>())
                    .add(MockFrontier.partition(record.key(), PARTITIONS));
        }
        assertThat(partitionsByHost).hasSize(200).allSatisfy((host, partitions) -> assertThat(partitions).hasSize(1));
        // 200 hosts over 12 partitions: each gets some, none gets most
        Map<Integer, Long> hostsPerPartition = partitionsByHost.values().stream().map(s -> s.iterator().next())
                .collect(java.util.stream.Collectors.groupingBy(p -> p, java.util.stream.Collectors.counting()));
        assertThat(hostsPerPartition).hasSize(PARTITIONS).allSatisfy((p, hosts) -> assertThat(hosts).isBetween(5L, 35L));
    }

    @Test
    void aUrlSentRecentlyIsNotSentAgain() throws Exception {
        MockProducer<String, PendingUrl> kafka = kafka(true);
        try (FrontierProducer frontier = FrontierProducer.using(kafka, DOCS)) {
            PendingUrl page = PendingUrl.seed("https://example.org/");
            PendingUrl about = PendingUrl.link("https://example.org/about", page);
            assertThat(frontier.send(about)).isTrue();
            assertThat(frontier.send(PendingUrl.link("https://example.org/about",
                    PendingUrl.seed("https://example.org/other")))).isFalse();
            assertThat(frontier.send(about)).isFalse();
            assertThat(frontier.send(page)).isTrue();
            frontier.flush();
            assertThat(frontier.acknowledged()).isEqualTo(new FrontierProducer.Acknowledged(2,
                    frontier.acknowledged().partitions(), 2));
        }
        assertThat(kafka.history()).hasSize(2);
    }

    @Test
    void theRecentTableIsBoundedSoAUrlEvictedLongAgoIsSentAgain() throws Exception {
        MockProducer<String, PendingUrl> kafka = kafka(true);
        try (FrontierProducer frontier = FrontierProducer.using(kafka, DOCS)) {
            frontier.send(PendingUrl.seed("https://example.org/first"));
            int many = FrontierProducer.RECENT_SLOTS * 8;
            for (int i = 0; i < many; i++) {
                frontier.send(PendingUrl.seed("https://example.org/p" + i));
            }
            assertThat(frontier.send(PendingUrl.seed("https://example.org/first"))).isTrue();
        }
    }

    @Test
    void flushWaitsUntilEverySentUrlIsAcknowledged() throws Exception {
        MockProducer<String, PendingUrl> kafka = kafka(false);
        try (FrontierProducer frontier = FrontierProducer.using(kafka, DOCS)) {
            frontier.send(PendingUrl.seed("https://a.example/"));
            frontier.send(PendingUrl.seed("https://b.example/"));
            assertThat(frontier.acknowledged().urls()).isZero();

            frontier.flush();

            assertThat(kafka.flushed()).isTrue();
            assertThat(frontier.acknowledged().urls()).isEqualTo(2);
        }
    }

    @Test
    void aFailedSendIsThrownByFlushNamingTheTopicAndUrlAndNextSendsFailToo() throws Exception {
        MockProducer<String, PendingUrl> kafka = kafka(false);
        try (FrontierProducer frontier = FrontierProducer.using(kafka, DOCS)) {
            frontier.send(PendingUrl.seed("https://a.example/"));
            frontier.send(PendingUrl.seed("https://b.example/"));
            kafka.errorNext(new TimeoutException("Expiring 1 record(s) for docs.frontier-3: 15020 ms has passed"));

            assertThatThrownBy(frontier::flush).isInstanceOf(ClusterException.class)
                    .hasMessage("sending https://a.example/ to topic docs.frontier failed: Expiring 1 record(s)"
                            + " for docs.frontier-3: 15020 ms has passed")
                    .satisfies(e -> assertThat(((ClusterException) e).kind())
                            .isEqualTo(ClusterException.Kind.UNAVAILABLE));
            assertThat(frontier.acknowledged().urls()).isEqualTo(1);
            assertThatThrownBy(() -> frontier.send(PendingUrl.seed("https://c.example/")))
                    .isInstanceOf(ClusterException.class).hasMessageContaining("https://a.example/");
        }
    }

    @Test
    void aRecordRefusedByTheClusterIsOfKindRefused() throws Exception {
        MockProducer<String, PendingUrl> kafka = kafka(false);
        try (FrontierProducer frontier = FrontierProducer.using(kafka, DOCS)) {
            frontier.send(PendingUrl.seed("https://a.example/"));
            kafka.errorNext(new RecordTooLargeException("The message is 2000000 bytes"));

            assertThatThrownBy(frontier::flush).isInstanceOf(ClusterException.class)
                    .hasMessage("sending https://a.example/ to topic docs.frontier failed: The message is 2000000 bytes")
                    .satisfies(e -> assertThat(((ClusterException) e).kind())
                            .isEqualTo(ClusterException.Kind.REFUSED));
        }
    }

    @Test
    void aSendThatThrowsAtOnceIsAClusterExceptionNamingTheTopic() throws Exception {
        MockProducer<String, PendingUrl> kafka = kafka(true);
        kafka.sendException = new org.apache.kafka.common.KafkaException("Producer closed while send in progress");
        try (FrontierProducer frontier = FrontierProducer.using(kafka, DOCS)) {
            assertThatThrownBy(() -> frontier.send(PendingUrl.seed("https://a.example/")))
                    .isInstanceOf(ClusterException.class)
                    .hasMessage("sending https://a.example/ to topic docs.frontier failed: Producer closed while send"
                            + " in progress");
        }
    }

    @Test
    void sendAllRunsItsActionOnceEveryUrlIsAcknowledgedAndNeverAfterAFailure() throws Exception {
        MockProducer<String, PendingUrl> kafka = kafka(false);
        try (FrontierProducer frontier = FrontierProducer.using(kafka, DOCS)) {
            java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
            frontier.sendAll(java.util.List.of(PendingUrl.seed("https://a.example/1"),
                    PendingUrl.seed("https://b.example/2")), done::incrementAndGet);
            assertThat(done).hasValue(0);
            assertThat(kafka.completeNext()).isTrue();
            assertThat(done).as("one of two acknowledged").hasValue(0);
            assertThat(kafka.completeNext()).isTrue();
            assertThat(done).hasValue(1);

            frontier.sendAll(java.util.List.of(PendingUrl.seed("https://a.example/1")), done::incrementAndGet);
            assertThat(done).as("skipped as recently sent: done at once").hasValue(2);
            frontier.sendAll(java.util.List.of(), done::incrementAndGet);
            assertThat(done).as("no links").hasValue(3);

            frontier.sendAll(java.util.List.of(PendingUrl.seed("https://c.example/3")), done::incrementAndGet);
            assertThat(kafka.errorNext(new org.apache.kafka.common.errors.TimeoutException("no answer"))).isTrue();
            assertThat(done).as("a failed send never counts as acknowledged").hasValue(3);
        }
    }

    @Test
    void aUrlOverTheRecordBoundIsRefusedAndSendAllSendsNoneOfItsUrls() throws Exception {
        MockProducer<String, PendingUrl> kafka = kafka(true);
        PendingUrl huge = PendingUrl.seed("https://example.org/" + "\u00e9".repeat(9000));
        try (FrontierProducer frontier = FrontierProducer.using(kafka, DOCS)) {
            assertThatThrownBy(() -> frontier.send(huge)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("would take 18052 bytes, more than the 16384");
            assertThatThrownBy(() -> frontier.sendAll(List.of(PendingUrl.seed("https://example.org/a"), huge),
                    () -> { })).isInstanceOf(IllegalArgumentException.class);
            assertThat(frontier.send(PendingUrl.seed("https://example.org/b"))).as("the producer goes on").isTrue();
        }
        assertThat(kafka.history()).extracting(r -> r.value().url()).containsExactly("https://example.org/b");
    }
}
