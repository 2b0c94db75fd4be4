package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalKafkaTest {

    private static final String TOPIC = "local-kafka-test";

    /** Bounds the wait for the record, so that a broken broker fails the test instead of hanging it; not a timing. */
    private static final Duration GIVE_UP_AFTER = Duration.ofSeconds(60);

    @Test
    void servesATopicAConsumerGroupReadsFromAndStopsWhenClosed(@TempDir Path dir) throws Exception {
        ProcessHandle broker;
        int port;
        try (LocalKafka kafka = LocalKafka.start(dir.resolve("kafka"))) {
            assertThat(kafka.bootstrap()).matches("127\\.0\\.0\\.1:\\d+");
            port = Integer.parseInt(kafka.bootstrap().substring("127.0.0.1:".length()));
            broker = brokerOf(kafka);

            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap()))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1))).all().get();
                // the broker acknowledges the creation before its metadata lists the topic (KRaft): an empty list
                // right after it was seen in CI, as cluster init once saw "no such topic" (it waits the same way)
                Set<String> topics = admin.listTopics().names().get();
                long giveUpAt = System.nanoTime() + GIVE_UP_AFTER.toNanos();
                while (!topics.contains(TOPIC) && System.nanoTime() < giveUpAt) {
                    Thread.sleep(100);
                    topics = admin.listTopics().names().get();
                }
                assertThat(topics).contains(TOPIC);
            }

            RecordMetadata sent;
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap(),
                    ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer())) {
                sent = producer.send(new ProducerRecord<>(TOPIC, "docs.example.org", "https://docs.example.org/")).get();
            }

            // a consumer group, as the crawler's processes will be: it needs the broker's __consumer_offsets
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap(),
                    ConsumerConfig.GROUP_ID_CONFIG, "local-kafka-test",
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(Set.of(TOPIC));
                List<ConsumerRecord<String, String>> received = new ArrayList<>();
                long giveUpAt = System.nanoTime() + GIVE_UP_AFTER.toNanos();
                while (received.isEmpty() && System.nanoTime() < giveUpAt) {
                    consumer.poll(Duration.ofMillis(500)).forEach(received::add);
                }
                assertThat(received).singleElement().satisfies(record -> {
                    assertThat(record.key()).isEqualTo("docs.example.org");
                    assertThat(record.value()).isEqualTo("https://docs.example.org/");
                    assertThat(record.partition()).isEqualTo(sent.partition());
                    assertThat(record.offset()).isEqualTo(sent.offset());
                });
                consumer.commitSync();
            }
        }

        assertThat(broker.isAlive()).as("the broker's JVM after close()").isFalse();
        assertThat(answers(port)).as("127.0.0.1:%d after close()", port).isFalse();
    }

    @Test
    void aBrokerThatDoesNotStartIsReportedWithTheLinesOfItsLog(@TempDir Path dir) throws Exception {
        // a log formatted for another node: the broker refuses it at once
        Path kafka = dir.resolve("kafka");
        Files.createDirectories(kafka.resolve("data"));
        Files.writeString(kafka.resolve("data").resolve("meta.properties"),
                "version=1\nnode.id=7\ncluster.id=AAAAAAAAAAAAAAAAAAAAAA\ndirectory.id=AAAAAAAAAAAAAAAAAAAAAA\n");

        assertThatThrownBy(() -> LocalKafka.start(kafka))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("kafka-local.sh start --dir " + kafka)
                .hasMessageContaining("the broker ended before it served on 127.0.0.1:")
                .hasMessageContaining("Stored node id 7 doesn't match previous node id 1");
        assertThat(kafka.resolve("broker.pid")).doesNotExist();
    }

    private static ProcessHandle brokerOf(LocalKafka kafka) throws IOException {
        long pid = Long.parseLong(Files.readString(kafka.dir().resolve("broker.pid")).strip());
        return ProcessHandle.of(pid).orElseThrow();
    }

    private static boolean answers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }
}
