package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.MockAdminClient;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;
import org.sievecrawler.cluster.ClusterAdmin;

class ClusterInitCommandTest {
    private final MockAdminClient kafka = MockAdminClient.create().numBrokers(1).build();
    private final List<String> connectedTo = new ArrayList<>();
    private final List<Duration> timeouts = new ArrayList<>();
    private final CrawlerCommand root = new CrawlerCommand(ProfileSource.YAML, onStop -> () -> { },
            (bootstrap, timeout) -> {
                connectedTo.add(bootstrap);
                timeouts.add(timeout);
                return ClusterAdmin.using(kafka, bootstrap, timeout);
            });

    @Test
    void createsTheFiveTopicsAndSaysSo() throws Exception {
        CommandRun run = CommandRun.execute(root, "cluster", "init", "--bootstrap", "127.0.0.1:9092",
                "--crawl", "docs");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out())
                .contains("crawl docs on the Kafka cluster at 127.0.0.1:9092:")
                .containsPattern("created +docs\\.frontier +12 partitions, replication 1, cleanup\\.policy=delete")
                .containsPattern("created +docs\\.fetched +12 partitions, replication 1, cleanup\\.policy=delete")
                .containsPattern("created +docs\\.sieve-state +12 partitions, replication 1, cleanup\\.policy=compact")
                .containsPattern("created +docs\\.rejected +12 partitions, replication 1, cleanup\\.policy=delete"
                        + " +copies of records refused as bad, for inspection")
                .containsPattern("created +docs\\.seeds +1 partition, +replication 1, cleanup\\.policy=compact"
                        + " +the crawl's seeds, by URL, with their hosts' partitions")
                .contains("created 5 topics");
        assertThat(kafka.listTopics().names().get()).containsExactlyInAnyOrder("docs.frontier", "docs.fetched",
                "docs.sieve-state", "docs.rejected", "docs.seeds");
        assertThat(connectedTo).containsExactly("127.0.0.1:9092");
        assertThat(timeouts).containsExactly(Duration.ofSeconds(15));
    }

    @Test
    void aSecondRunFindsThemAndCreatesNothing() {
        String[] args = {"cluster", "init", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs", "--partitions", "4"};
        CommandRun.execute(root, args);

        CommandRun again = CommandRun.execute(root, args);

        assertThat(again.exit()).isZero();
        assertThat(again.out()).containsPattern("exists +docs\\.frontier +4 partitions")
                .contains("all 5 topics were there already, as asked; nothing created");
    }

    @Test
    void aCrawlMadeBeforeDeadLettersAndSeedsGetsOnlyThoseTopics() throws Exception {
        Node broker = kafka.brokers().get(0);
        List<TopicPartitionInfo> three = IntStream.range(0, 3)
                .mapToObj(p -> new TopicPartitionInfo(p, broker, List.of(broker), List.of(broker))).toList();
        kafka.addTopic(false, "docs.frontier", three, Map.of("cleanup.policy", "delete"));
        kafka.addTopic(false, "docs.fetched", three, Map.of("cleanup.policy", "delete"));
        kafka.addTopic(false, "docs.sieve-state", three, Map.of("cleanup.policy", "compact"));

        CommandRun run = CommandRun.execute(root, "cluster", "init", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs",
                "--partitions", "3");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("exists +docs\\.frontier +3 partitions")
                .containsPattern("created +docs\\.rejected +3 partitions, replication 1, cleanup\\.policy=delete")
                .containsPattern("created +docs\\.seeds +1 partition")
                .endsWith("created 2 topics; 3 were there already, as asked" + System.lineSeparator());
    }

    @Test
    void refusesTopicsThatExistOtherwiseWithExitCodeTwoAndNoStackTrace() throws Exception {
        CommandRun.execute(root, "cluster", "init", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs",
                "--partitions", "4");

        CommandRun run = CommandRun.execute(root, "cluster", "init", "--bootstrap", "127.0.0.1:9092",
                "--crawl", "docs", "--partitions", "8");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("cluster init: the crawl docs exists on the Kafka cluster at 127.0.0.1:9092")
                .contains("topic docs.frontier has 4 partitions, expected 8",
                        "topic docs.fetched has 4 partitions, expected 8",
                        "topic docs.sieve-state has 4 partitions, expected 8")
                .doesNotContain("Exception", "\tat ");
    }

    @Test
    void readsPartitionsAndReplication() throws Exception {
        MockAdminClient three = MockAdminClient.create().numBrokers(3).build();
        CrawlerCommand threeBrokers = new CrawlerCommand(ProfileSource.YAML, onStop -> () -> { },
                (bootstrap, timeout) -> ClusterAdmin.using(three, bootstrap, timeout));

        CommandRun run = CommandRun.execute(threeBrokers, "cluster", "init", "--bootstrap", "k1:9092,k2:9092",
                "--crawl", "big", "--partitions", "48", "--replication", "3", "--timeout", "2m");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("at k1:9092,k2:9092:")
                .containsPattern("created +big\\.frontier +48 partitions, replication 3");
        assertThat(three.describeTopics(List.of("big.fetched")).allTopicNames().get().get("big.fetched")
                .partitions()).hasSize(48);
    }

    @Test
    void refusesMoreReplicasThanBrokersWithExitCodeTwo() {
        CommandRun run = CommandRun.execute(root, "cluster", "init", "--bootstrap", "127.0.0.1:9092",
                "--crawl", "docs", "--replication", "3");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--replication 3 needs at least 3 brokers", "has 1");
    }

    @Test
    void refusesABadCrawlNameNamingTheRuleAndTheValueBeforeConnecting() {
        CommandRun run = CommandRun.execute(root, "cluster", "init", "--bootstrap", "127.0.0.1:9092",
                "--crawl", "my/crawl");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("cluster init: --crawl: may hold only ASCII letters, digits, '.', '_' and '-'"
                + " (Kafka's topic name rule); \"my/crawl\" has '/' at position 3" + System.lineSeparator());
        assertThat(connectedTo).isEmpty();
    }

    @Test
    void refusesABadBootstrapAddressNamingIt() {
        CommandRun run = CommandRun.execute(root, "cluster", "init", "--bootstrap", "localhost", "--crawl", "docs");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("cluster init: --bootstrap: must be HOST:PORT", "\"localhost\"");
        assertThat(connectedTo).isEmpty();
    }

    @Test
    void refusesPartitionsOutOfRange() {
        CommandRun run = CommandRun.execute(root, "cluster", "init", "--bootstrap", "127.0.0.1:9092",
                "--crawl", "docs", "--partitions", "0");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("cluster init: --partitions: must be between 1 and 10000: 0");
    }

    @Test
    void needsBootstrapAndCrawl() {
        CommandRun run = CommandRun.execute(root, "cluster", "init", "--crawl", "docs");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("cluster init: missing required option: '--bootstrap=HOST:PORT'");
    }

    @Test
    void anUnreachableClusterIsExitCodeOneWithTheAddressAndNoStackTrace() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        // the jar's connector, a real Admin client, bounded to 1 s so the test does not wait 15 s; nothing
        // listens on the port, so no answer can come
        CommandRun run = CommandRun.execute("cluster", "init", "--bootstrap", "127.0.0.1:" + port,
                "--crawl", "docs", "--timeout", "1s");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("cluster init: no answer from the Kafka cluster at 127.0.0.1:" + port
                + " within 1s").doesNotContain("Exception", "\tat ");
    }

    @Test
    void withoutASubcommandClusterPrintsItsUsage() {
        CommandRun run = CommandRun.execute("cluster");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Usage: crawler cluster", "init");
    }
}
