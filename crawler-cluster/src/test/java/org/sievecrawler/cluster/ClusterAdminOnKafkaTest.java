package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ClusterAdmin} against a real one-node Kafka 4 broker ({@link LocalKafka}), where {@code ClusterAdminTest}
 * uses Kafka's MockAdminClient: the topics {@code crawler cluster init} creates are there with the partitions and
 * cleanup policies asked, a second init creates nothing, and an init asking for other partitions is refused
 * naming the topic, leaving the topics as they were. The crawl's seeds, stored in {@code <crawl>.seeds}, are read back
 * by every process with their hosts' partitions, bad records skipped, and a process whose scope needs seeds is
 * refused on a crawl that has none, naming the {@code cluster seed} to run.
 */
class ClusterAdminOnKafkaTest {
    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    @Test
    void initCreatesTheCrawlsTopicsOnceAndRefusesOtherPartitionsNamingTheTopic() throws Exception {
        CrawlName crawl = new CrawlName("docs");
        try (ClusterAdmin admin = ClusterAdmin.connect(kafka.bootstrap(), Duration.ofSeconds(30))) {
            List<TopicCheck> first = admin.init(new ClusterTopics(crawl, 6, (short) 1));
            assertThat(first).hasSize(5).allMatch(check -> check instanceof TopicCheck.Missing);

            Map<String, Optional<TopicState>> states = admin.describe(crawl);
            assertThat(states.get("docs.frontier")).contains(new TopicState("docs.frontier", 6, 1, "delete"));
            assertThat(states.get("docs.fetched")).contains(new TopicState("docs.fetched", 6, 1, "delete"));
            assertThat(states.get("docs.sieve-state"))
                    .contains(new TopicState("docs.sieve-state", 6, 1, "compact"));
            assertThat(states.get("docs.rejected")).contains(new TopicState("docs.rejected", 6, 1, "delete"));
            assertThat(states.get("docs.seeds")).contains(new TopicState("docs.seeds", 1, 1, "compact"));

            List<TopicCheck> again = admin.init(new ClusterTopics(crawl, 6, (short) 1));
            assertThat(again).hasSize(5).allMatch(check -> check instanceof TopicCheck.Matches);

            assertThatThrownBy(() -> admin.init(new ClusterTopics(crawl, 12, (short) 1)))
                    .isInstanceOf(ClusterException.class).hasMessageContaining("docs.frontier")
                    .hasMessageContaining("12");
            assertThat(admin.describe(crawl).get("docs.frontier"))
                    .contains(new TopicState("docs.frontier", 6, 1, "delete"));
        }
    }

    @Test
    void theSeedsAreStoredOnceAndReadBackByEveryProcessWithTheirHostsPartitionsBadRecordsSkipped() throws Exception {
        CrawlName crawl = new CrawlName("seeded");
        Duration timeout = Duration.ofSeconds(30);
        try (ClusterAdmin admin = ClusterAdmin.connect(kafka.bootstrap(), timeout)) {
            admin.init(new ClusterTopics(crawl, 12, (short) 1));
            assertThat(admin.untouched(crawl, 12)).isTrue();
        }
        HostRoutes routes = HostRoutes.spread(List.of("a.example", "b.example"), 12);
        try (SeedStore seeds = SeedStore.connect(kafka.bootstrap(), crawl, timeout)) {
            assertThat(seeds.read(12).urls()).isEmpty();
            seeds.write(List.of("https://a.example/", "https://b.example/x"), routes);
            seeds.write(List.of("https://a.example/"), routes); // seeded again: the same record
        }
        try (org.apache.kafka.clients.producer.KafkaProducer<String, String> other =
                new org.apache.kafka.clients.producer.KafkaProducer<>(ClusterClients.producer(kafka.bootstrap(),
                        "someone-else", timeout), new org.apache.kafka.common.serialization.StringSerializer(),
                        new org.apache.kafka.common.serialization.StringSerializer())) {
            other.send(new org.apache.kafka.clients.producer.ProducerRecord<>("seeded.seeds", 0, "not a url", "3"));
            other.send(new org.apache.kafka.clients.producer.ProducerRecord<>("seeded.seeds", 0, "https://c.example/",
                    "12"));
            other.send(new org.apache.kafka.clients.producer.ProducerRecord<>("seeded.seeds", 0,
                    "https://a.example/moved", "5"));
            other.flush();
        }
        try (SeedStore seeds = SeedStore.connect(kafka.bootstrap(), crawl, timeout)) {
            SeedStore.Seeds read = seeds.read(12);
            assertThat(read.urls()).containsExactly("https://a.example/", "https://b.example/x",
                    "https://a.example/moved");
            assertThat(read.routes().placed()).as("the first placement of a host wins")
                    .isEqualTo(Map.of("a.example", 0, "b.example", 7));
        }
    }

    @Test
    void aProcessWhoseScopeIsTheSeedsIsRefusedOnACrawlWithoutSeedsNamingTheCommandToRun() throws Exception {
        CrawlName crawl = new CrawlName("unseeded");
        try (ClusterAdmin admin = ClusterAdmin.connect(kafka.bootstrap(), Duration.ofSeconds(30))) {
            admin.init(new ClusterTopics(crawl, 2, (short) 1));
        }
        org.sievecrawler.profile.CrawlProfile profile = org.sievecrawler.profile.CrawlProfile.defaults();

        assertThatThrownBy(() -> ClusterRun.connect(kafka.bootstrap(), crawl, profile, "p1", Duration.ofSeconds(30)))
                .isInstanceOf(ClusterException.class)
                .hasFieldOrPropertyWithValue("kind", ClusterException.Kind.REFUSED)
                .hasMessage("crawl unseeded has no seeds yet, and the profile's scope.hosts is same-as-seeds: the"
                        + " seeds set the scope of every process; send them first (they are stored in the cluster, in"
                        + " unseeded.seeds): crawler cluster seed --bootstrap " + kafka.bootstrap() + " --crawl"
                        + " unseeded --seeds FILE");
    }
}
