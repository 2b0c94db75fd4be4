package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.sieve.BloomFilter;
import org.sievecrawler.sieve.PendingUrl;

/**
 * Bad records on a real one-node Kafka 4 broker ({@link LocalKafka}), as a client with write access sends them. First,
 * every bad frontier record of the table {@code /cluster/poison-records.tsv} (src-test-fixtures: garbage bytes, an
 * empty value, none, 5 MB, a URL that is not one, a {@code file:} URL, a port not the seed's, a depth of 2^31, ...) is
 * mixed into a 151-page crawl of two {@link ClusterRun} processes: every page is crawled once, no process ends, each
 * bad record is counted once (the progress lines' {@code bad-records}, {@code cluster status}) and copied to
 * {@code <crawl>.rejected} with where it came from and why. Then what a new owner reads at a takeover: bad done
 * markers, a snapshot that cannot be read and a snapshot holding bad pending URLs.
 */
class PoisonRecordsOnKafkaTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int PARTITIONS = 3;
    /** Above the 5 MB record of the table, for the topics that are given one. */
    private static final int LARGE_RECORDS = 8 * 1024 * 1024;
    private static final Duration WITHIN = Duration.ofSeconds(90);
    /** The linked pages of the site of the takeover's test, its home page aside. */
    private static final int SMALL_SITE = 10;

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    @TempDir
    Path dir;

    /** A process's profile: the site's seed, so its scope (same-as-seeds) and its one private origin. */
    private CrawlProfile profile(String name, FixtureSite site) {
        return TestProcesses.profile(dir.resolve(name), "seeds=[" + site.url("/") + "]");
    }

    @Test
    void everyKindOfBadFrontierRecordMixedIntoA151PageCrawlIsSkippedCountedOnceAndCopiedAside() throws Exception {
        int pages = 150;
        try (Crawl prepared = Crawl.of("poisoned", ClusterTopics.FRONTIER, pages)) {
            CrawlName crawl = prepared.name();
            ClusterAdmin admin = prepared.admin();
            FixtureSite site = prepared.site();
            List<PoisonRecords.Poison> poison = PoisonRecords.of(ClusterTopics.FRONTIER, site.origin(), PARTITIONS);
            ExecutorService processes = Executors.newFixedThreadPool(2);
            Map<Sent, List<String>> sent;
            try (ClusterRun first = ClusterRun.connect(kafka.bootstrap(), crawl, profile("first", site), "first",
                    TIMEOUT);
                    ClusterRun second = ClusterRun.connect(kafka.bootstrap(), crawl, profile("second", site), "second",
                            TIMEOUT)) {
                Future<String> firstRun = processes.submit(first::run);
                Future<String> secondRun = processes.submit(second::run);
                TestProcesses.await(() -> owners(admin, crawl) == 2, WITHIN, "both processes own partitions");

                // half of the bad records, the seed, the other half: bad records before and after good ones
                sent = new HashMap<>(send(crawl, poison.subList(0, poison.size() / 2)));
                try (FrontierProducer seeds = FrontierProducer.connect(kafka.bootstrap(), crawl, TIMEOUT)) {
                    seeds.send(PendingUrl.seed(site.url("/")));
                    seeds.flush();
                }
                sent.putAll(send(crawl, poison.subList(poison.size() / 2, poison.size())));

                TestProcesses.await(() -> TestProcesses.pages(dir.resolve("first"))
                        + TestProcesses.pages(dir.resolve("second")) >= pages + 1
                        && status(admin, crawl).drained(ClusterStatus.DEFAULT_MARK_STALENESS)
                        && status(admin, crawl).rejected() >= poison.size(), WITHIN,
                        "every page recorded, the crawl drained");
                Thread.sleep(1_500); // a page fetched twice, or a record refused twice, would be seen by now
                assertThat(firstRun).as("the first process still runs").isNotDone();
                assertThat(secondRun).as("the second process still runs").isNotDone();
                ClusterStatus status = admin.status(crawl);
                assertThat(status.rejected()).as("bad records in cluster status").isEqualTo(poison.size());
                assertThat(status.table()).contains("bad-records=" + poison.size() + " (records of the crawl's topics"
                        + " refused and skipped; copies in poisoned.rejected)");
                first.stop();
                second.stop();
                assertThat(firstRun.get()).isEqualTo("stopped");
                assertThat(secondRun.get()).isEqualTo("stopped");
            } finally {
                processes.shutdownNow();
            }

            assertThat(TestProcesses.recorded(dir.resolve("first"), dir.resolve("second"))).hasSize(pages + 1)
                    .allSatisfy((url, times) -> assertThat(times).as(url).isOne());
            assertThat(TestProcesses.requested(site)).as("the site's pages, each once, and no path a bad record names")
                    .hasSize(pages + 1).allSatisfy((path, times) -> assertThat(times).as(path).isOne())
                    .containsOnlyKeys(FixtureSite.linkedPages(pages).keySet());
            assertThat(badRecords("first") + badRecords("second")).as("bad-records of the last progress lines")
                    .isEqualTo(poison.size());
            assertThat(deadLetters(crawl, poison.size())).as("one copy of each bad record, as where it came from and"
                    + " why").isEqualTo(sent);
        }
    }

    @Test
    void badDoneMarkersAndSnapshotsANewOwnerReadsAreSkippedCountedAndCopiedAside() throws Exception {
        try (Crawl prepared = Crawl.of("taken-over", ClusterTopics.FETCHED, SMALL_SITE)) {
            CrawlName crawl = prepared.name();
            FixtureSite site = prepared.site();
            int own = FrontierRecords.partition("127.0.0.1", PARTITIONS);
            int damaged = (own + 1) % PARTITIONS;
            int snapshotted = (own + 2) % PARTITIONS;
            List<PoisonRecords.Poison> markers = PoisonRecords.of(ClusterTopics.FETCHED, site.origin(), PARTITIONS);
            Map<Sent, List<String>> expected = new HashMap<>(send(crawl, markers));
            // partition "damaged": its committed mark names a snapshot whose bytes are not one
            String sieveState = crawl.topic(ClusterTopics.SIEVE_STATE);
            SnapshotRef garbage = new SnapshotRef("p" + damaged + "-1-0000dead", 0, 1);
            long at = sendRaw(new ProducerRecord<>(sieveState, damaged, bytes(SieveStateStore.key(garbage.id(), 0, 1)),
                    bytes("not a snapshot")));
            garbage = new SnapshotRef(garbage.id(), at, 1);
            expected.put(new Sent(sieveState, damaged, at), List.of("unreadable-snapshot"));
            // partition "snapshotted": a snapshot that reads, holding three pending URLs a record could not carry
            List<PendingUrl> bad = List.of(PendingUrl.seed("file:///etc/passwd"),
                    PendingUrl.seed("http://127.0.0.1:" + PoisonRecords.OTHER_PORT + "/"),
                    PendingUrl.seed(site.url("/misrouted-in-a-snapshot")));
            SnapshotRef held;
            try (SieveStateStore states = SieveStateStore.connect(kafka.bootstrap(), crawl, TIMEOUT)) {
                held = states.write(new PartitionSnapshot(snapshotted, 0, List.of(BloomFilter.create(1_000, 0.01)),
                        bad));
            }
            // copied in their order, each as its pending URL, from where the snapshot lies
            expected.put(new Sent(sieveState, snapshotted, held.offset()),
                    List.of("unsupported-scheme", "private-address", "misrouted"));
            commit(crawl, Map.of(damaged, garbage, snapshotted, held));

            try (ClusterRun run = ClusterRun.connect(kafka.bootstrap(), crawl, profile("owner", site), "owner",
                    TIMEOUT)) {
                ExecutorService process = Executors.newSingleThreadExecutor();
                try {
                    Future<String> running = process.submit(run::run);
                    TestProcesses.await(() -> owners(prepared.admin(), crawl) == 1, WITHIN, "the process owns the partitions");
                    try (FrontierProducer seeds = FrontierProducer.connect(kafka.bootstrap(), crawl, TIMEOUT)) {
                        seeds.send(PendingUrl.seed(site.url("/")));
                        seeds.flush();
                    }
                    TestProcesses.await(() -> TestProcesses.pages(dir.resolve("owner")) >= SMALL_SITE + 1
                            && status(prepared.admin(), crawl).drained(ClusterStatus.DEFAULT_MARK_STALENESS), WITHIN,
                            "every page recorded, the crawl drained");
                    Thread.sleep(1_500);
                    assertThat(running).as("the process still runs").isNotDone();
                    run.stop();
                    assertThat(running.get()).isEqualTo("stopped");
                } finally {
                    process.shutdownNow();
                }
            }

            assertThat(TestProcesses.recorded(dir.resolve("owner"))).hasSize(SMALL_SITE + 1)
                    .allSatisfy((url, times) -> assertThat(times).as(url).isOne());
            assertThat(site.requests("/misrouted-in-a-snapshot")).isZero();
            int refused = markers.size() + 1 + bad.size();
            assertThat(badRecords("owner")).isEqualTo(refused);
            assertThat(deadLetters(crawl, refused)).isEqualTo(expected);
        }
    }

    /** Where a record lies, as a dead letter's headers name its source. */
    private record Sent(String topic, int partition, long offset) {
    }

    /** Sends {@code poison} to its partitions of the crawl's topics; returns where each lies and its kind. */
    private static Map<Sent, List<String>> send(CrawlName crawl, List<PoisonRecords.Poison> poison) throws Exception {
        Map<Sent, List<String>> sent = new HashMap<>();
        for (PoisonRecords.Poison p : poison) {
            String topic = crawl.topic(p.topic());
            long offset = sendRaw(new ProducerRecord<>(topic, p.partition(), bytes("127.0.0.1"), p.value()));
            sent.put(new Sent(topic, p.partition(), offset), List.of(p.kind()));
        }
        return sent;
    }

    /** Sends {@code record} as any client may (up to 8 MB) and returns its offset once acknowledged. */
    private static long sendRaw(ProducerRecord<byte[], byte[]> record) throws Exception {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
        properties.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, LARGE_RECORDS);
        try (KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(properties, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            return raw.send(record).get().offset();
        }
    }

    /**
     * A crawl on the broker and the site it crawls: its topics made, its topic {@code suffix} taking records of up to
     * 8 MB (as a cluster configured so would), {@code pages} linked pages on the site.
     */
    private record Crawl(CrawlName name, ClusterAdmin admin, FixtureSite site) implements AutoCloseable {
        static Crawl of(String name, String suffix, int pages) throws Exception {
            CrawlName crawl = new CrawlName(name);
            ClusterAdmin admin = ClusterAdmin.connect(kafka.bootstrap(), TIMEOUT);
            admin.init(new ClusterTopics(crawl, PARTITIONS, (short) 1));
            try (Admin configs = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap()))) {
                ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, crawl.topic(suffix));
                configs.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(
                        new ConfigEntry("max.message.bytes", Integer.toString(LARGE_RECORDS)),
                        AlterConfigOp.OpType.SET)))).all().get();
            }
            FixtureSite site = FixtureSite.start();
            site.pages(FixtureSite.linkedPages(pages));
            return new Crawl(crawl, admin, site);
        }

        @Override
        public void close() {
            try (ClusterAdmin closing = admin; FixtureSite stopping = site) {
                // both closed
            }
        }
    }

    /** Commits offset 0 of the crawl's group for each partition given, with a mark naming its snapshot. */
    private static void commit(CrawlName crawl, Map<Integer, SnapshotRef> snapshots) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, ClusterTopics.group(crawl));
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
        snapshots.forEach((p, ref) -> commits.put(new TopicPartition(crawl.topic(ClusterTopics.FRONTIER), p),
                new OffsetAndMetadata(0, new CheckpointMark(Optional.of(ref), 0, 0, 0, 0, "earlier",
                        System.currentTimeMillis()).encode())));
        try (KafkaConsumer<byte[], byte[]> group = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            group.assign(commits.keySet());
            group.commitSync(commits, TIMEOUT);
        }
    }

    /**
     * The dead letters of the crawl, {@code count} of them (and no more within a second): by source, the kinds of
     * the copies made of it, in order, from their headers.
     */
    private static Map<Sent, List<String>> deadLetters(CrawlName crawl, int count) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<byte[], byte[]>> letters = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> all = IntStream.range(0, PARTITIONS)
                    .mapToObj(p -> new TopicPartition(crawl.topic(ClusterTopics.REJECTED), p)).toList();
            consumer.assign(all);
            consumer.seekToBeginning(all);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (letters.size() < count && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(letters::add);
            }
            consumer.poll(Duration.ofSeconds(1)).forEach(letters::add);
        }
        Map<Sent, List<String>> sources = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> letter : letters) {
            Sent source = new Sent(header(letter, RejectedRecords.TOPIC),
                    Integer.parseInt(header(letter, RejectedRecords.PARTITION)),
                    Long.parseLong(header(letter, RejectedRecords.OFFSET)));
            assertThat(letter.partition()).as("the copy's partition").isEqualTo(source.partition());
            sources.computeIfAbsent(source, s -> new ArrayList<>()).add(header(letter, RejectedRecords.KIND));
        }
        assertThat(letters).as("dead letters").hasSize(count);
        return sources;
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        assertThat(header).as(name + " of the dead letter at offset " + record.offset()).isNotNull();
        return new String(header.value(), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The distinct members owning partitions of the crawl now, 0 when the cluster does not answer. */
    private static int owners(ClusterAdmin admin, CrawlName crawl) {
        ClusterStatus status = status(admin, crawl);
        return status.partitions().stream().allMatch(p -> p.owner().isPresent()) ? status.owners().size() : 0;
    }

    private static ClusterStatus status(ClusterAdmin admin, CrawlName crawl) {
        try {
            return admin.status(crawl);
        } catch (ClusterException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** The {@code badRecords} of the last line of process {@code name}'s progress.jsonl. */
    private long badRecords(String name) throws Exception {
        List<String> lines = Files.readAllLines(dir.resolve(name).resolve("progress.jsonl"));
        JsonNode last = new ObjectMapper().readTree(lines.get(lines.size() - 1));
        assertThat(last.has("badRecords")).as(name + "'s progress line").isTrue();
        return last.get("badRecords").asLong();
    }
}
