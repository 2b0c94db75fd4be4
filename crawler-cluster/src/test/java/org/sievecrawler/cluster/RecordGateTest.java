package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;
import org.sievecrawler.sieve.PendingUrl;

/**
 * {@link RecordGate} and {@link RejectedRecords} on the records a Kafka {@link MockConsumer} polls: each bad record
 * of the table {@code /cluster/poison-records.tsv}, between two good ones, is skipped while the good ones are taken
 * in order; it is counted by its kind, logged once per kind, and copied with where it came from and why to the same
 * partition of {@code docs.rejected} (a {@link MockProducer}). A record an earlier owner read is skipped without a
 * word; a copy that fails changes nothing else.
 */
class RecordGateTest {
    private static final String SITE = RecordCheckTest.SITE;
    private static final int OWN = RecordCheckTest.OWN;

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final MockProducer<byte[], byte[]> copies = new MockProducer<>(true, null, new ByteArraySerializer(),
            new ByteArraySerializer());
    private final RejectedRecords rejected = new RejectedRecords(copies, RecordCheckTest.DOCS, "crawler-1");
    /** The site's seed and the hosts *.example, where the good records of the other partitions are. */
    private final RecordCheck check = new RecordCheck(RecordCheckTest.profile("scope.hosts=[same-as-seeds,"
            + " \"*.example\"]"), RecordCheckTest.PARTITIONS);
    private final RecordGate gate = new RecordGate(check, rejected);
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(RejectedRecords.class);

    @BeforeEach
    void captureLog() {
        log.start();
        logger.addAppender(log);
        logger.setLevel(Level.DEBUG);
    }

    @AfterEach
    void releaseLog() {
        logger.detachAppender(log);
        logger.setLevel(null);
    }

    static List<PoisonRecords.Poison> frontierPoison() throws Exception {
        return RecordCheckTest.frontierPoison();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frontierPoison")
    void aBadRecordBetweenTwoGoodOnesIsSkippedCountedAndCopiedAside(PoisonRecords.Poison poison) {
        TopicPartition tp = new TopicPartition("docs.frontier", poison.partition());
        PendingUrl before = PendingUrl.seed(hostUrl(poison.partition(), "/before"));
        PendingUrl after = PendingUrl.seed(hostUrl(poison.partition(), "/after"));
        serve(tp, good(tp, 0, before), poison.record(RecordCheckTest.DOCS, 1), good(tp, 2, after));

        List<PendingUrl> taken = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ZERO).records(tp)) {
            gate.frontier(record, true).ifPresent(taken::add);
        }

        assertThat(taken).containsExactly(before, after);
        assertThat(consumer.position(tp)).isEqualTo(3);
        assertThat(rejected.count()).isOne();
        assertThat(rejected.byKind()).isEqualTo(Map.of(poison.kind(), 1L));
        assertThat(copies.history()).hasSize(1);
        ProducerRecord<byte[], byte[]> copy = copies.history().get(0);
        assertThat(copy.topic()).isEqualTo("docs.rejected");
        assertThat(copy.partition()).isEqualTo(poison.partition());
        assertThat(header(copy, RejectedRecords.TOPIC)).isEqualTo("docs.frontier");
        assertThat(header(copy, RejectedRecords.PARTITION)).isEqualTo(Integer.toString(poison.partition()));
        assertThat(header(copy, RejectedRecords.OFFSET)).isEqualTo("1");
        assertThat(header(copy, RejectedRecords.KIND)).isEqualTo(poison.kind());
        assertThat(header(copy, RejectedRecords.DETAIL)).isNotEmpty();
        assertThat(header(copy, RejectedRecords.MEMBER)).isEqualTo("crawler-1");
        assertThat(copy.key()).isEqualTo("127.0.0.1".getBytes(StandardCharsets.UTF_8));
        if (poison.value() == null) {
            assertThat(copy.value()).isNull();
            assertThat(copy.headers().lastHeader(RejectedRecords.VALUE_BYTES)).isNull();
        } else {
            assertThat(header(copy, RejectedRecords.VALUE_BYTES)).isEqualTo(Integer.toString(poison.value().length));
            assertThat(copy.value()).isEqualTo(Arrays.copyOf(poison.value(),
                    Math.min(poison.value().length, FrontierRecords.MAX_RECORD_BYTES)));
        }
        assertThat(log.list).singleElement().satisfies(event -> {
            assertThat(event.getLevel()).isEqualTo(Level.WARN);
            assertThat(event.getFormattedMessage()).startsWith("cluster crawl docs: skipped a bad record of"
                    + " docs.frontier partition " + poison.partition() + " at offset 1 (" + poison.kind() + ": ")
                    .endsWith("); copied to docs.rejected. Further " + poison.kind() + " records are counted"
                            + " (bad-records), not logged")
                    .hasSizeLessThan(600);
        });
    }

    @Test
    void theFirstOfAKindIsLoggedAtWarnTheOthersAtDebug() {
        TopicPartition tp = new TopicPartition("docs.frontier", OWN);
        ConsumerRecord<byte[], byte[]> garbage = new ConsumerRecord<>(tp.topic(), OWN, 0, null, new byte[] {1, 2});
        ConsumerRecord<byte[], byte[]> more = new ConsumerRecord<>(tp.topic(), OWN, 1, null, new byte[] {3});
        ConsumerRecord<byte[], byte[]> none = new ConsumerRecord<>(tp.topic(), OWN, 2, null, null);

        for (ConsumerRecord<byte[], byte[]> record : List.of(garbage, more, none)) {
            assertThat(gate.frontier(record, true)).isEmpty();
        }

        assertThat(log.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN, Level.DEBUG, Level.WARN);
        assertThat(rejected.byKind()).isEqualTo(Map.of("unreadable", 2L, "no-value", 1L));
        assertThat(gate.refused()).isEqualTo(3);
        assertThat(copies.history()).hasSize(3);
    }

    @Test
    void aBadRecordAnEarlierOwnerReadIsSkippedWithoutBeingCountedOrCopiedAgain() {
        ConsumerRecord<byte[], byte[]> garbage = new ConsumerRecord<>("docs.frontier", OWN, 7, null, new byte[] {1});

        assertThat(gate.frontier(garbage, false)).isEmpty();

        assertThat(rejected.count()).isZero();
        assertThat(copies.history()).isEmpty();
        assertThat(log.list).isEmpty();
    }

    @Test
    void aCopyThatFailsIsLoggedOnceAndTheRecordIsStillSkippedAndCounted() {
        MockProducer<byte[], byte[]> failing = new MockProducer<>(false, null, new ByteArraySerializer(),
                new ByteArraySerializer());
        RejectedRecords refusing = new RejectedRecords(failing, RecordCheckTest.DOCS, "crawler-1");
        RecordGate failingGate = new RecordGate(check, refusing);

        for (int offset = 0; offset < 3; offset++) {
            assertThat(failingGate.frontier(new ConsumerRecord<>("docs.frontier", OWN, offset, null, null), true))
                    .isEmpty();
            failing.errorNext(new KafkaException("topic docs.rejected is gone"));
        }

        assertThat(refusing.count()).isEqualTo(3);
        assertThat(log.list).filteredOn(e -> e.getFormattedMessage().contains("could not be copied"))
                .singleElement().satisfies(e -> assertThat(e.getFormattedMessage()).isEqualTo("cluster crawl docs:"
                        + " a bad record could not be copied to docs.rejected (topic docs.rejected is gone); bad"
                        + " records are still skipped and counted"));
    }

    @Test
    void aSnapshotsBadPendingUrlsAreDroppedAndCopiedAsFrontierValuesAtTheSnapshotsOffset() {
        SnapshotRef ref = new SnapshotRef("p" + OWN + "-1-abc", 12, 2);
        PendingUrl good = PendingUrl.seed(SITE + "/a");
        PendingUrl bad = PendingUrl.seed("file:///etc/passwd");

        assertThat(gate.pending("docs.sieve-state", OWN, ref, List.of(bad, good))).containsExactly(good);

        ProducerRecord<byte[], byte[]> copy = copies.history().get(0);
        assertThat(copy.partition()).isEqualTo(OWN);
        assertThat(header(copy, RejectedRecords.TOPIC)).isEqualTo("docs.sieve-state");
        assertThat(header(copy, RejectedRecords.OFFSET)).isEqualTo("12");
        assertThat(header(copy, RejectedRecords.KIND)).isEqualTo("unsupported-scheme");
        assertThat(new String(copy.key(), StandardCharsets.UTF_8)).isEqualTo("p" + OWN + "-1-abc/0/2");
        assertThat(new PendingUrlDeserializer().deserialize("docs.frontier", copy.value())).isEqualTo(bad);
    }

    @Test
    void aSnapshotThatCannotBeReadIsCountedAndNamedInItsCopy() {
        SnapshotRef ref = new SnapshotRef("p" + OWN + "-1-abc", 12, 2);

        gate.unreadableSnapshot("docs.sieve-state", OWN, ref, "snapshot p1-1-abc: checksum mismatch");

        assertThat(rejected.byKind()).isEqualTo(Map.of("unreadable-snapshot", 1L));
        ProducerRecord<byte[], byte[]> copy = copies.history().get(0);
        assertThat(copy.value()).isNull();
        assertThat(header(copy, RejectedRecords.DETAIL)).isEqualTo("snapshot p1-1-abc: checksum mismatch");
    }

    /** A URL of the site's host when {@code partition} is its own, else of a host of {@code partition}. */
    private static String hostUrl(int partition, String path) {
        if (partition == OWN) {
            return SITE + path;
        }
        for (int i = 0; ; i++) {
            String host = "h" + i + ".example";
            if (FrontierRecords.partition(host, RecordCheckTest.PARTITIONS) == partition) {
                return "http://" + host + path;
            }
        }
    }

    private ConsumerRecord<byte[], byte[]> good(TopicPartition tp, long offset, PendingUrl url) {
        return new ConsumerRecord<>(tp.topic(), tp.partition(), offset, null,
                new PendingUrlSerializer().serialize(tp.topic(), url));
    }

    @SafeVarargs
    private void serve(TopicPartition tp, ConsumerRecord<byte[], byte[]>... records) {
        consumer.assign(List.of(tp));
        consumer.updateBeginningOffsets(Map.of(tp, 0L));
        for (ConsumerRecord<byte[], byte[]> record : records) {
            consumer.addRecord(record);
        }
    }

    private static String header(ProducerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        assertThat(header).as(name).isNotNull();
        return new String(header.value(), StandardCharsets.UTF_8);
    }
}
