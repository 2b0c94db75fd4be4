package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
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
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterStatus} and {@link ClusterAdmin#status} on Kafka's MockAdminClient, which answers end offsets and
 * committed offsets but not describeConsumerGroups: that one is overridden here with the members a test sets.
 */
class ClusterStatusTest {
    private static final CrawlName CRAWL = new CrawlName("docs");

    /** The group's members as describeConsumerGroups answers; null: the group does not exist. */
    private List<MemberDescription> members;

    private final MockAdminClient kafka = new MockAdminClient(List.of(new Node(0, "127.0.0.1", 9092)),
            new Node(0, "127.0.0.1", 9092)) {
        @Override
        public synchronized DescribeConsumerGroupsResult describeConsumerGroups(Collection<String> groupIds,
                DescribeConsumerGroupsOptions options) {
            Map<String, KafkaFuture<ConsumerGroupDescription>> futures = new HashMap<>();
            for (String group : groupIds) {
                KafkaFutureImpl<ConsumerGroupDescription> future = new KafkaFutureImpl<>();
                if (members == null) {
                    future.completeExceptionally(new GroupIdNotFoundException("Group " + group + " not found."));
                } else {
                    future.complete(new ConsumerGroupDescription(group, false, members, "range", GroupType.CLASSIC,
                            members.isEmpty() ? GroupState.EMPTY : GroupState.STABLE, new Node(0, "127.0.0.1", 9092),
                            Set.of(), Optional.empty(), Optional.empty()));
                }
                futures.put(group, future);
            }
            return new DescribeConsumerGroupsResult(futures);
        }
    };

    private static MemberDescription member(String clientId, String host, TopicPartition... assigned) {
        return new MemberDescription(clientId + "-id", Optional.empty(), clientId, host,
                new MemberAssignment(Set.of(assigned)));
    }

    private ClusterAdmin initialized(int partitions) throws ClusterException {
        ClusterAdmin admin = ClusterAdmin.using(kafka, "127.0.0.1:9092", Duration.ofSeconds(5));
        admin.init(new ClusterTopics(CRAWL, partitions, (short) 1));
        Map<TopicPartition, Long> ends = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            ends.put(new TopicPartition("docs.frontier", p), 0L);
            ends.put(new TopicPartition("docs.fetched", p), 0L);
        }
        kafka.updateEndOffsets(ends);
        return admin;
    }

    @Test
    void theGroupIdIsTheCrawlsNameDotCrawlers() {
        assertThat(ClusterTopics.group(CRAWL)).isEqualTo("docs.crawlers");
    }

    @Test
    void statusReadsSentCommittedOwnersAndDonePerPartition() throws Exception {
        try (ClusterAdmin admin = initialized(3)) {
            kafka.updateEndOffsets(Map.of(new TopicPartition("docs.frontier", 0), 5L,
                    new TopicPartition("docs.frontier", 2), 7L, new TopicPartition("docs.fetched", 0), 2L));
            kafka.updateConsumerGroupOffsets(Map.of(new TopicPartition("docs.frontier", 0), 4L));
            members = List.of(member("crawler-a", "/10.0.0.1", new TopicPartition("docs.frontier", 0),
                    new TopicPartition("docs.frontier", 1)), member("crawler-b", "/10.0.0.2",
                    new TopicPartition("docs.frontier", 2)));

            ClusterStatus status = admin.status(CRAWL);

            assertThat(status.group()).isEqualTo("docs.crawlers");
            assertThat(status.partitions()).containsExactly(
                    new ClusterStatus.Partition(0, Optional.of("crawler-a@10.0.0.1"), 5, OptionalLong.of(4), 2),
                    new ClusterStatus.Partition(1, Optional.of("crawler-a@10.0.0.1"), 0, OptionalLong.empty(), 0),
                    new ClusterStatus.Partition(2, Optional.of("crawler-b@10.0.0.2"), 7, OptionalLong.empty(), 0));
            assertThat(status.sent()).isEqualTo(12);
            assertThat(status.consumed()).isEqualTo(4);
            assertThat(status.lag()).isEqualTo(8);
            assertThat(status.done()).isEqualTo(2);
            assertThat(status.owners()).containsExactly("crawler-a@10.0.0.1", "crawler-b@10.0.0.2");
        }
    }

    @Test
    void aGroupThatDoesNotExistYetMeansNoOwnerAndNothingConsumed() throws Exception {
        try (ClusterAdmin admin = initialized(2)) {
            kafka.updateEndOffsets(Map.of(new TopicPartition("docs.frontier", 1), 3L));
            members = null;

            ClusterStatus status = admin.status(CRAWL);

            assertThat(status.partitions()).allMatch(p -> p.owner().isEmpty() && p.committed().isEmpty());
            assertThat(status.lag()).isEqualTo(3);
            assertThat(status.owners()).isEmpty();
        }
    }

    @Test
    void aCrawlWithoutTopicsIsRefusedNamingThemAndTheInitToRun() {
        try (ClusterAdmin admin = ClusterAdmin.using(kafka, "127.0.0.1:9092", Duration.ofSeconds(5))) {
            assertThatThrownBy(() -> admin.status(CRAWL)).isInstanceOf(ClusterException.class)
                    .hasMessage("no crawl docs on the Kafka cluster at 127.0.0.1:9092: topics missing: docs.frontier,"
                            + " docs.fetched, docs.sieve-state; create them first: crawler cluster init --bootstrap"
                            + " 127.0.0.1:9092 --crawl docs")
                    .extracting(e -> ((ClusterException) e).kind()).isEqualTo(ClusterException.Kind.REFUSED);
        }
    }

    @Test
    void theTableHasARowPerPartitionAndTotalsCountsAlignedRight() {
        ClusterStatus status = ClusterStatus.of(CRAWL, Map.of(0, 3L, 1, 120L), Map.of(1, 120L),
                Map.of(1, "crawler-1@10.0.0.1"), Map.of(1, 97L));

        assertThat(status.table()).containsExactly(
                "partition  owner               sent     consumed  lag  done",
                "0          -                      3  not started    3     0",
                "1          crawler-1@10.0.0.1   120          120    0    97",
                "total      1 owner              123          120    3    97");
    }

    @Test
    void aCommittedOffsetBeyondTheEndIsNoNegativeLag() {
        ClusterStatus.Partition p = new ClusterStatus.Partition(0, Optional.empty(), 2, OptionalLong.of(5), 0);

        assertThat(p.lag()).isZero();
        assertThat(p.consumed()).isEqualTo(5);
    }
}
