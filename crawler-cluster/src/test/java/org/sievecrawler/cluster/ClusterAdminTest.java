package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.MockAdminClient;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sievecrawler.shell.Program;

class ClusterAdminTest {
    private static final CrawlName CRAWL = new CrawlName("docs");

    private final MockAdminClient kafka = MockAdminClient.create().numBrokers(1).build();
    private final ClusterAdmin admin = new ClusterAdmin(kafka, "127.0.0.1:9092", Duration.ofSeconds(5));

    @AfterEach
    void close() {
        admin.close();
    }

    @Test
    void initCreatesTheFiveTopicsWithTheirPartitionsAndConfigs() throws Exception {
        List<TopicCheck> done = admin.init(new ClusterTopics(CRAWL, 12, (short) 1));

        assertThat(done).allMatch(c -> c instanceof TopicCheck.Missing)
                .extracting(c -> c.spec().name())
                .containsExactly("docs.frontier", "docs.fetched", "docs.sieve-state", "docs.rejected", "docs.seeds");
        assertThat(kafka.listTopics().names().get()).containsExactlyInAnyOrder("docs.frontier", "docs.fetched",
                "docs.sieve-state", "docs.rejected", "docs.seeds");
        Map<String, Optional<TopicState>> states = admin.describe(CRAWL);
        assertThat(states.get("docs.frontier")).contains(new TopicState("docs.frontier", 12, 1, "delete"));
        assertThat(states.get("docs.fetched")).contains(new TopicState("docs.fetched", 12, 1, "delete"));
        assertThat(states.get("docs.sieve-state")).contains(new TopicState("docs.sieve-state", 12, 1, "compact"));
        assertThat(states.get("docs.rejected")).contains(new TopicState("docs.rejected", 12, 1, "delete"));
        assertThat(states.get("docs.seeds")).contains(new TopicState("docs.seeds", 1, 1, "compact"));
    }

    @Test
    void aSecondInitFindsTheTopicsAndCreatesNothing() throws Exception {
        ClusterTopics topics = new ClusterTopics(CRAWL, 4, (short) 1);
        admin.init(topics);

        List<TopicCheck> again = admin.init(topics);

        assertThat(again).hasSize(5).allMatch(c -> c instanceof TopicCheck.Matches);
        assertThat(kafka.listTopics().names().get()).hasSize(5);
    }

    @Test
    void initCreatesOnlyTheTopicsMissing() throws Exception {
        addTopic("docs.frontier", 4, Map.of("cleanup.policy", "delete"));

        List<TopicCheck> done = admin.init(new ClusterTopics(CRAWL, 4, (short) 1));

        assertThat(done).extracting(c -> c.getClass().getSimpleName())
                .containsExactly("Matches", "Missing", "Missing", "Missing", "Missing");
        assertThat(kafka.listTopics().names().get()).hasSize(5);
    }

    @Test
    void aCrawlMadeBeforeDeadLettersIsRefusedWithTheInitThatAddsTheirTopicAndInitAddsOnlyIt() throws Exception {
        oldCrawl();
        addTopic("docs.seeds", 1, Map.of("cleanup.policy", "compact"));

        assertThatThrownBy(() -> admin.requireCrawl(CRAWL)).isInstanceOf(ClusterException.class)
                .hasFieldOrPropertyWithValue("kind", ClusterException.Kind.REFUSED)
                .hasMessage("the crawl docs on the Kafka cluster at 127.0.0.1:9092 was made before bad records were"
                        + " copied aside: its topic docs.rejected is missing; create it (its other topics are left as"
                        + " they are): crawler cluster init --bootstrap 127.0.0.1:9092 --crawl docs --partitions 3");

        List<TopicCheck> done = admin.init(new ClusterTopics(CRAWL, 3, (short) 1));

        assertThat(done).extracting(c -> c.getClass().getSimpleName())
                .containsExactly("Matches", "Matches", "Matches", "Missing", "Matches");
        assertThat(admin.requireCrawl(CRAWL)).isEqualTo(3);
    }

    @Test
    void aCrawlMadeBeforeSeedsWereStoredIsRefusedWithTheInitThatAddsBothMissingTopics() throws Exception {
        oldCrawl();

        assertThatThrownBy(() -> admin.requireCrawl(CRAWL)).hasMessage("the crawl docs on the Kafka cluster at"
                + " 127.0.0.1:9092 was made before bad records were copied aside and seeds were stored: its topics"
                + " docs.rejected and docs.seeds are missing; create them (its other topics are left as they are):"
                + " crawler cluster init --bootstrap 127.0.0.1:9092 --crawl docs --partitions 3");
        assertThat(admin.init(new ClusterTopics(CRAWL, 3, (short) 1))).extracting(c -> c.getClass().getSimpleName())
                .containsExactly("Matches", "Matches", "Matches", "Missing", "Missing");
        assertThat(admin.describe(CRAWL).get("docs.seeds")).contains(new TopicState("docs.seeds", 1, 1, "compact"));
    }

    /** The topics of a crawl of 3 partitions made before dead letters and stored seeds. */
    private void oldCrawl() {
        for (String topic : List.of("docs.frontier", "docs.fetched")) {
            addTopic(topic, 3, Map.of("cleanup.policy", "delete"));
        }
        addTopic("docs.sieve-state", 3, Map.of("cleanup.policy", "compact"));
    }

    @Test
    void theInitARefusalSuggestsIsStartedByTheProgramAsTheUserStartedIt() {
        Program program = Program.of("crawler-cli/target/crawler");

        assertThatThrownBy(() -> admin.requireCrawl(CRAWL, program)).isInstanceOf(ClusterException.class)
                .hasMessageEndingWith("; create them first: crawler-cli/target/crawler cluster init --bootstrap"
                        + " 127.0.0.1:9092 --crawl docs");
        assertThatThrownBy(() -> admin.status(CRAWL, program)).isInstanceOf(ClusterException.class)
                .hasMessageEndingWith("; create them first: crawler-cli/target/crawler cluster init --bootstrap"
                        + " 127.0.0.1:9092 --crawl docs");
    }

    @Test
    void refusesATopicWithOtherPartitionsNamingItWhatItHasAndWhatIsExpectedAndCreatesNothing() {
        addTopic("docs.frontier", 6, Map.of("cleanup.policy", "delete"));

        assertThatThrownBy(() -> admin.init(new ClusterTopics(CRAWL, 12, (short) 1)))
                .isInstanceOf(ClusterException.class)
                .hasFieldOrPropertyWithValue("kind", ClusterException.Kind.REFUSED)
                .hasMessageContaining("topic docs.frontier has 6 partitions, expected 12")
                .hasMessageContaining("127.0.0.1:9092")
                .hasMessageContaining("nothing was created");
        assertThat(topicNames()).containsExactly("docs.frontier");
    }

    @Test
    void refusesASieveStateThatIsNotCompacted() {
        addTopic("docs.sieve-state", 12, Map.of("cleanup.policy", "delete"));

        assertThatThrownBy(() -> admin.init(new ClusterTopics(CRAWL, 12, (short) 1)))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("topic docs.sieve-state has cleanup.policy=delete, expected compact");
    }

    @Test
    void refusesACompactedFrontier() {
        addTopic("docs.frontier", 12, Map.of("cleanup.policy", "compact"));

        assertThatThrownBy(() -> admin.init(new ClusterTopics(CRAWL, 12, (short) 1)))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("topic docs.frontier has cleanup.policy=compact, expected delete");
    }

    @Test
    void reportsEveryDifferenceAtOnce() {
        addTopic("docs.fetched", 3, Map.of("cleanup.policy", "delete"));
        addTopic("docs.sieve-state", 3, Map.of("cleanup.policy", "delete"));

        assertThatThrownBy(() -> admin.init(new ClusterTopics(CRAWL, 12, (short) 1)))
                .hasMessageContaining("topic docs.fetched has 3 partitions, expected 12")
                .hasMessageContaining("topic docs.sieve-state has 3 partitions, expected 12")
                .hasMessageContaining("topic docs.sieve-state has cleanup.policy=delete, expected compact");
    }

    @Test
    void aTopicAnotherInitCreatedMeanwhileIsCheckedAgainAndFoundAsAsked() throws Exception {
        Node broker = new Node(0, "127.0.0.1", 9092);
        MockAdminClient racing = new MockAdminClient(List.of(broker), broker) {
            @Override
            public synchronized org.apache.kafka.clients.admin.CreateTopicsResult createTopics(
                    java.util.Collection<org.apache.kafka.clients.admin.NewTopic> newTopics,
                    org.apache.kafka.clients.admin.CreateTopicsOptions options) {
                List<TopicPartitionInfo> infos = IntStream.range(0, 4)
                        .mapToObj(p -> new TopicPartitionInfo(p, broker, List.of(broker), List.of(broker))).toList();
                addTopic(false, "docs.fetched", infos, Map.of("cleanup.policy", "delete"));
                return super.createTopics(newTopics, options);
            }
        };
        try (ClusterAdmin raced = new ClusterAdmin(racing, "127.0.0.1:9092", Duration.ofSeconds(5))) {
            List<TopicCheck> done = raced.init(new ClusterTopics(CRAWL, 4, (short) 1));

            assertThat(done).extracting(c -> c.getClass().getSimpleName())
                    .containsExactly("Missing", "Matches", "Missing", "Missing", "Missing");
        }
    }

    @Test
    void refusesAReplicationFactorAboveTheBrokersNamingBoth() {
        assertThatThrownBy(() -> admin.init(new ClusterTopics(CRAWL, 12, (short) 3)))
                .isInstanceOf(ClusterException.class)
                .hasFieldOrPropertyWithValue("kind", ClusterException.Kind.REFUSED)
                .hasMessageContaining("--replication 3 needs at least 3 brokers")
                .hasMessageContaining("has 1");
        assertThat(topicNames()).isEmpty();
    }

    @Test
    void createsProductionTopicsWithReplicationThreeAndTwoInSyncReplicas() throws Exception {
        MockAdminClient three = MockAdminClient.create().numBrokers(3).build();
        try (ClusterAdmin threeBrokers = new ClusterAdmin(three, "kafka-1:9092", Duration.ofSeconds(5))) {
            threeBrokers.init(new ClusterTopics(CRAWL, 12, (short) 3));

            assertThat(threeBrokers.describe(CRAWL).get("docs.frontier")).get()
                    .extracting(TopicState::replication).isEqualTo(3);
            org.apache.kafka.common.config.ConfigResource frontier = new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.TOPIC, "docs.frontier");
            assertThat(three.describeConfigs(List.of(frontier)).all().get().get(frontier)
                    .get("min.insync.replicas").value()).isEqualTo("2");
        }
    }

    @Test
    void describeSaysWhichTopicsAreMissing() throws Exception {
        addTopic("docs.fetched", 2, Map.of());

        Map<String, Optional<TopicState>> states = admin.describe(CRAWL);

        assertThat(states).containsOnlyKeys("docs.frontier", "docs.fetched", "docs.sieve-state", "docs.rejected",
                "docs.seeds");
        assertThat(states.get("docs.frontier")).isEmpty();
        assertThat(states.get("docs.fetched")).contains(new TopicState("docs.fetched", 2, 1, "delete"));
        assertThat(states.get("docs.sieve-state")).isEmpty();
    }

    @Test
    void anUnreachableClusterIsUnavailableNamingTheAddress() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String address = "127.0.0.1:" + port;
        // a short bound so the test does not wait the default 15 s; nothing listens there, so it cannot succeed
        try (ClusterAdmin nowhere = ClusterAdmin.connect(address, Duration.ofSeconds(1))) {
            assertThatThrownBy(() -> nowhere.init(ClusterTopics.of(CRAWL)))
                    .isInstanceOf(ClusterException.class)
                    .hasFieldOrPropertyWithValue("kind", ClusterException.Kind.UNAVAILABLE)
                    .hasMessageStartingWith("no answer from the Kafka cluster at " + address + " within 1s");
        }
    }

    private void addTopic(String name, int partitions, Map<String, String> configs) {
        Node broker = kafka.brokers().get(0);
        List<TopicPartitionInfo> infos = IntStream.range(0, partitions)
                .mapToObj(p -> new TopicPartitionInfo(p, broker, List.of(broker), List.of(broker))).toList();
        kafka.addTopic(false, name, infos, configs);
    }

    private java.util.Set<String> topicNames() {
        try {
            return kafka.listTopics().names().get();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
