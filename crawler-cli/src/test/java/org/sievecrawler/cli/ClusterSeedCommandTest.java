package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.cluster.ClusterAdmin;
import org.sievecrawler.cluster.CrawlName;
import org.sievecrawler.cluster.FrontierProducer;
import org.sievecrawler.cluster.HostRoutes;
import org.sievecrawler.cluster.MockCluster;
import org.sievecrawler.cluster.MockFrontier;
import org.sievecrawler.cluster.PendingUrlSerializer;
import org.sievecrawler.cluster.SeedStore;
import org.sievecrawler.sieve.PendingUrl;

class ClusterSeedCommandTest {
    private static final int PARTITIONS = 4;
    private final MockCluster admin = new MockCluster();
    private final MockProducer<String, PendingUrl> producer = MockFrontier.producer(new CrawlName("docs"),
            PARTITIONS, true);
    private final MockProducer<String, String> stored = new MockProducer<>(true, null, new StringSerializer(),
            new StringSerializer());
    private int producersMade;
    private final CrawlerCommand root = new CrawlerCommand(ProfileSource.YAML, onStop -> () -> { },
            new ClusterConnector() {
                @Override
                public ClusterAdmin connect(String bootstrap, Duration timeout) {
                    return ClusterAdmin.using(admin, bootstrap, timeout);
                }

                @Override
                public FrontierProducer frontier(String bootstrap, CrawlName crawl, Duration timeout,
                        HostRoutes routes) {
                    producersMade++;
                    return FrontierProducer.using(producer, crawl, routes);
                }

                @Override
                public SeedStore seeds(String bootstrap, CrawlName crawl, Duration timeout) {
                    return seedStore(stored, crawl, timeout);
                }
            });

    /** Seeds stored before, as URL and partition. */
    private final Map<String, Integer> storedBefore = new java.util.LinkedHashMap<>();

    /** A store of seeds on {@code producer}, with {@link #storedBefore} stored before. */
    private SeedStore seedStore(MockProducer<String, String> producer, CrawlName crawl, Duration timeout) {
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
        TopicPartition seeds = new TopicPartition(crawl + ".seeds", 0);
        consumer.updateBeginningOffsets(Map.of(seeds, 0L));
        consumer.updateEndOffsets(Map.of(seeds, (long) storedBefore.size()));
        consumer.assign(List.of(seeds));
        long offset = 0;
        for (Map.Entry<String, Integer> seed : storedBefore.entrySet()) {
            consumer.addRecord(new org.apache.kafka.clients.consumer.ConsumerRecord<>(seeds.topic(), 0, offset++,
                    seed.getKey().getBytes(StandardCharsets.UTF_8),
                    seed.getValue().toString().getBytes(StandardCharsets.UTF_8)));
        }
        return SeedStore.using(producer, consumer, crawl, timeout);
    }

    @TempDir
    Path dir;

    private void init() {
        CommandRun run = CommandRun.execute(root, "cluster", "init", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs",
                "--partitions", "" + PARTITIONS);
        assertThat(run.exit()).as(run.err()).isZero();
        Map<TopicPartition, Long> empty = new java.util.HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            empty.put(new TopicPartition("docs.frontier", p), 0L);
        }
        admin.updateEndOffsets(empty);
    }

    @Test
    void sendsTheNormalizedSeedsAtDepthZeroKeyedByHostAndSaysWhere() throws Exception {
        init();
        Path file = Files.writeString(dir.resolve("seeds.txt"), "# docs\nhttps://B.example/x\n\nhttp://b.example:8080/\n",
                StandardCharsets.UTF_8);

        CommandRun run = CommandRun.execute(root, "cluster", "seed", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs",
                "HTTPS://a.example", "https://a.example/", "--seeds", file.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(producer.history()).extracting(ProducerRecord::value).containsExactly(
                PendingUrl.seed("https://a.example/"), PendingUrl.seed("https://b.example/x"),
                PendingUrl.seed("http://b.example:8080/"));
        assertThat(producer.history()).extracting(ProducerRecord::key)
                .containsExactly("a.example", "b.example", "b.example");
        assertThat(producer.history()).extracting(ProducerRecord::topic).containsOnly("docs.frontier");
        assertThat(producer.history()).as("a new crawl: its seed hosts placed apart (cluster/seed-placement.tsv)")
                .extracting(ProducerRecord::partition).containsExactly(0, 3, 3);
        assertThat(stored.history()).as("stored before they are sent, with their hosts' partitions")
                .extracting(r -> r.topic() + " " + r.key() + " " + r.value()).containsExactly(
                        "docs.seeds https://a.example/ 0", "docs.seeds https://b.example/x 3",
                        "docs.seeds http://b.example:8080/ 3");
        assertThat(run.out()).isEqualTo("sent 3 seeds to 2 of 4 partitions of docs.frontier on the Kafka cluster at"
                + " 127.0.0.1:9092" + System.lineSeparator()
                + "stored in docs.seeds: every cluster run takes its scope from the crawl's seeds; seed hosts placed to"
                + " share them out among the processes: a.example on 0, b.example on 3" + System.lineSeparator());
        assertThat(producer.closed()).isTrue();
        assertThat(stored.closed()).isTrue();
    }

    @Test
    void seedsOfANewHostWhileProcessesRunAreSentAtTheirStoredRoutesWithANoteOnWhatTheRunningProcessesDo() {
        init();
        storedBefore.put("https://a.example/", 2);
        admin.members(List.of(MockCluster.member("crawler-1", "/10.0.0.1", new TopicPartition("docs.frontier", 2))));

        CommandRun run = CommandRun.execute(root, "cluster", "seed", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs",
                "https://a.example/more", "https://c.example/");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(producer.history()).as("a.example where it was placed; c.example where Kafka's partitioner puts it")
                .extracting(ProducerRecord::partition)
                .containsExactly(2, null);
        assertThat(run.out()).as("placed by the first seed, not this one").endsWith("stored in docs.seeds: every"
                + " cluster run takes its scope from the crawl's seeds" + System.lineSeparator());
        assertThat(run.err()).isEqualTo("cluster seed: note: c.example is new to crawl docs, and processes of it are"
                + " running: they took the crawl's seeds (their scope) when they started, so those whose profile says"
                + " scope.hosts: same-as-seeds refuse these seeds (out-of-scope-host); stop them (Ctrl-C), start them"
                + " again, then send these seeds again" + System.lineSeparator());
    }

    @Test
    void refusesACrawlWithoutTopicsSayingToRunInitWithExitCodeTwo() {
        CommandRun run = CommandRun.execute(root, "cluster", "seed", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs",
                "https://a.example/");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("cluster seed: no crawl docs on the Kafka cluster at 127.0.0.1:9092: topics"
                + " missing: docs.frontier, docs.fetched, docs.sieve-state, docs.rejected, docs.seeds; create them first: crawler"
                + " cluster init --bootstrap 127.0.0.1:9092 --crawl docs" + System.lineSeparator());
        assertThat(producersMade).isZero();
    }

    @Test
    void badSeedsAreNamedAndSkippedAndNoUsableSeedIsExitCodeTwo() {
        init();
        CommandRun some = CommandRun.execute(root, "cluster", "seed", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs",
                "ftp://a.example/", "https://a.example/");
        assertThat(some.exit()).isZero();
        assertThat(some.err()).startsWith("argument 1: not a usable seed: scheme \"ftp\" is not http or https"
                + " (\"ftp://a.example/\"); skipped");
        assertThat(some.out()).startsWith("sent 1 seed to 1 of 4 partitions");

        CommandRun none = CommandRun.execute(root, "cluster", "seed", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs",
                "ftp://a.example/");
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.err()).contains("cluster seed: no usable seed: give URLs as arguments or a seed file with"
                + " --seeds FILE");
        assertThat(producersMade).isEqualTo(1);
    }

    @Test
    void anUnreadableSeedFileIsAUsageErrorNamingIt() {
        CommandRun run = CommandRun.execute(root, "cluster", "seed", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs",
                "--seeds", dir.resolve("missing.txt").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("cluster seed: --seeds " + dir.resolve("missing.txt")
                + ": no such file" + System.lineSeparator());
    }

    @Test
    void aSeedTheClusterDoesNotAcknowledgeIsExitCodeOneNamingTheTopicWithoutAStackTrace() {
        init();
        MockProducer<String, PendingUrl> slow = new MockProducer<>(false, null, new StringSerializer(),
                new PendingUrlSerializer()) {
            @Override
            public synchronized void flush() {
                errorNext(new TimeoutException("Expiring 1 record(s) for docs.frontier-0: 15020 ms has passed"));
            }
        };
        CrawlerCommand failing = new CrawlerCommand(ProfileSource.YAML, onStop -> () -> { }, new ClusterConnector() {
            @Override
            public ClusterAdmin connect(String bootstrap, Duration timeout) {
                return ClusterAdmin.using(admin, bootstrap, timeout);
            }

            @Override
            public FrontierProducer frontier(String bootstrap, CrawlName crawl, Duration timeout,
                    HostRoutes routes) {
                return FrontierProducer.using(slow, crawl, routes);
            }

            @Override
            public SeedStore seeds(String bootstrap, CrawlName crawl, Duration timeout) {
                return seedStore(stored, crawl, timeout);
            }
        });

        CommandRun run = CommandRun.execute(failing, "cluster", "seed", "--bootstrap", "127.0.0.1:9092", "--crawl",
                "docs", "https://a.example/");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("cluster seed: sending https://a.example/ to topic docs.frontier failed:"
                + " Expiring 1 record(s) for docs.frontier-0: 15020 ms has passed" + System.lineSeparator());
    }

    @Test
    void refusesABadCrawlNameAndNeedsBootstrap() {
        CommandRun bad = CommandRun.execute(root, "cluster", "seed", "--bootstrap", "127.0.0.1:9092", "--crawl",
                "my/crawl", "https://a.example/");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).startsWith("cluster seed: --crawl: may hold only ASCII letters");

        CommandRun missing = CommandRun.execute(root, "cluster", "seed", "--crawl", "docs", "https://a.example/");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("cluster seed: missing required option: '--bootstrap=HOST:PORT'");
    }
}
