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
 * naming the topic, leaving the topics as they were.
 */
class ClusterAdminOnKafkaTest {
    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    @Test
    void initCreatesTheCrawlsTopicsOnceAndRefusesOtherPartitionsNamingTheTopic() throws Exception {
        CrawlName crawl = new CrawlName("docs");
        try (ClusterAdmin admin = ClusterAdmin.connect(kafka.bootstrap(), Duration.ofSeconds(30))) {
            List<TopicCheck> first = admin.init(new ClusterTopics(crawl, 6, (short) 1));
            assertThat(first).hasSize(4).allMatch(check -> check instanceof TopicCheck.Missing);

            Map<String, Optional<TopicState>> states = admin.describe(crawl);
            assertThat(states.get("docs.frontier")).contains(new TopicState("docs.frontier", 6, 1, "delete"));
            assertThat(states.get("docs.fetched")).contains(new TopicState("docs.fetched", 6, 1, "delete"));
            assertThat(states.get("docs.sieve-state"))
                    .contains(new TopicState("docs.sieve-state", 6, 1, "compact"));
            assertThat(states.get("docs.rejected")).contains(new TopicState("docs.rejected", 6, 1, "delete"));

            List<TopicCheck> again = admin.init(new ClusterTopics(crawl, 6, (short) 1));
            assertThat(again).hasSize(4).allMatch(check -> check instanceof TopicCheck.Matches);

            assertThatThrownBy(() -> admin.init(new ClusterTopics(crawl, 12, (short) 1)))
                    .isInstanceOf(ClusterException.class).hasMessageContaining("docs.frontier")
                    .hasMessageContaining("12");
            assertThat(admin.describe(crawl).get("docs.frontier"))
                    .contains(new TopicState("docs.frontier", 6, 1, "delete"));
        }
    }
}
