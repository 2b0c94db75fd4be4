package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.kafka.clients.admin.MockAdminClient;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.cluster.ClusterAdmin;
import org.sievecrawler.cluster.CrawlName;
import org.sievecrawler.cluster.FrontierProducer;
import org.sievecrawler.cluster.MockFrontier;
import org.sievecrawler.cluster.PendingUrlSerializer;
import org.sievecrawler.sieve.PendingUrl;

class ClusterSeedCommandTest {
    private static final int PARTITIONS = 4;
    private final MockAdminClient admin = MockAdminClient.create().numBrokers(1).build();
    private final MockProducer<String, PendingUrl> producer = MockFrontier.producer(new CrawlName("docs"),
            PARTITIONS, true);
    private int producersMade;
    private final CrawlerCommand root = new CrawlerCommand(ProfileSource.YAML, onStop -> () -> { },
            new ClusterConnector() {
                @Override
                public ClusterAdmin connect(String bootstrap, Duration timeout) {
                    return ClusterAdmin.using(admin, bootstrap, timeout);
                }

                @Override
                public FrontierProducer frontier(String bootstrap, CrawlName crawl, Duration timeout) {
                    producersMade++;
                    return FrontierProducer.using(producer, crawl);
                }
            });

    @TempDir
    Path dir;

    private void init() {
        CommandRun run = CommandRun.execute(root, "cluster", "init", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs",
                "--partitions", "" + PARTITIONS);
        assertThat(run.exit()).as(run.err()).isZero();
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
        int partitions = (int) producer.history().stream()
                .map(r -> MockFrontier.partition(r.key(), PARTITIONS))
                .distinct().count();
        assertThat(run.out()).isEqualTo("sent 3 seeds to " + partitions + " of 4 partitions of docs.frontier on the"
                + " Kafka cluster at 127.0.0.1:9092" + System.lineSeparator());
        assertThat(producer.closed()).isTrue();
    }

    @Test
    void refusesACrawlWithoutTopicsSayingToRunInitWithExitCodeTwo() {
        CommandRun run = CommandRun.execute(root, "cluster", "seed", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs",
                "https://a.example/");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("cluster seed: no crawl docs on the Kafka cluster at 127.0.0.1:9092: topics"
                + " missing: docs.frontier, docs.fetched, docs.sieve-state, docs.rejected; create them first: crawler"
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
            public FrontierProducer frontier(String bootstrap, CrawlName crawl, Duration timeout) {
                return FrontierProducer.using(slow, crawl);
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
