package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsResult;
import org.apache.kafka.clients.admin.MemberAssignment;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.MockAdminClient;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.sievecrawler.cluster.ClusterAdmin;

class ClusterStatusCommandTest {
    private static final Node BROKER = new Node(0, "127.0.0.1", 9092);
    private static final String NL = System.lineSeparator();

    /** MockAdminClient does not describe consumer groups: this one has one member owning docs.frontier-1. */
    private final MockAdminClient admin = new MockAdminClient(List.of(BROKER), BROKER) {
        @Override
        public synchronized DescribeConsumerGroupsResult describeConsumerGroups(Collection<String> groupIds,
                DescribeConsumerGroupsOptions options) {
            String group = groupIds.iterator().next();
            MemberDescription member = new MemberDescription("m-1", Optional.empty(), "crawler-1", "/10.0.0.1",
                    new MemberAssignment(Set.of(new TopicPartition("docs.frontier", 1))));
            return new DescribeConsumerGroupsResult(Map.of(group, KafkaFuture.completedFuture(
                    new ConsumerGroupDescription(group, false, List.of(member), "range", GroupType.CLASSIC,
                            GroupState.STABLE, BROKER, Set.of(), Optional.empty(), Optional.empty()))));
        }
    };
    private final CrawlerCommand root = new CrawlerCommand(ProfileSource.YAML, onStop -> () -> { },
            (bootstrap, timeout) -> ClusterAdmin.using(admin, bootstrap, timeout));

    @Test
    void printsATableOfThePartitionsAndTotals() {
        CommandRun init = CommandRun.execute(root, "cluster", "init", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs",
                "--partitions", "2");
        assertThat(init.exit()).as(init.err()).isZero();
        admin.updateEndOffsets(Map.of(new TopicPartition("docs.frontier", 0), 3L,
                new TopicPartition("docs.frontier", 1), 120L, new TopicPartition("docs.fetched", 0), 0L,
                new TopicPartition("docs.fetched", 1), 97L));
        admin.updateConsumerGroupOffsets(Map.of(new TopicPartition("docs.frontier", 1), 120L));

        CommandRun run = CommandRun.execute(root, "cluster", "status", "--bootstrap", "127.0.0.1:9092", "--crawl",
                "docs");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualTo("crawl docs on the Kafka cluster at 127.0.0.1:9092: 2 partitions of"
                + " docs.frontier, consumer group docs.crawlers" + NL
                + "partition  owner               sent     consumed  lag  done" + NL
                + "0          -                      3  not started    3     0" + NL
                + "1          crawler-1@10.0.0.1   120          120    0    97" + NL
                + "total      1 owner              123          120    3    97" + NL);
    }

    @Test
    void refusesACrawlWithoutTopicsSayingToRunInitWithExitCodeTwo() {
        CommandRun run = CommandRun.execute(root, "cluster", "status", "--bootstrap", "127.0.0.1:9092", "--crawl",
                "docs");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("cluster status: no crawl docs on the Kafka cluster at 127.0.0.1:9092: topics"
                + " missing: docs.frontier, docs.fetched, docs.sieve-state; create them first: crawler cluster init"
                + " --bootstrap 127.0.0.1:9092 --crawl docs" + NL);
    }

    @Test
    void refusesABadBootstrapAndCrawlNameAndHasNoWaitDoneYet() {
        CommandRun bad = CommandRun.execute(root, "cluster", "status", "--bootstrap", "127.0.0.1", "--crawl", "docs");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).startsWith("cluster status: --bootstrap: must be HOST:PORT");

        CommandRun name = CommandRun.execute(root, "cluster", "status", "--bootstrap", "127.0.0.1:9092", "--crawl",
                "my crawl");
        assertThat(name.exit()).isEqualTo(2);
        assertThat(name.err()).startsWith("cluster status: --crawl: may hold only ASCII letters");

        CommandRun waitDone = CommandRun.execute(root, "cluster", "status", "--bootstrap", "127.0.0.1:9092", "--crawl",
                "docs", "--wait-done");
        assertThat(waitDone.exit()).isEqualTo(2);
        assertThat(waitDone.err()).contains("Unknown option: '--wait-done'");
    }
}
