package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterStatus} and {@link ClusterAdmin#status} on {@link MockCluster} (Kafka's MockAdminClient with consumer
 * groups and commit metadata), the status dated by a fixed clock; {@link ClusterStatus#drained} on statuses made by
 * hand, one rule at a time.
 */
class ClusterStatusTest {
    private static final CrawlName CRAWL = new CrawlName("docs");
    private static final Instant NOW = Instant.parse("2026-11-23T18:00:00Z");
    private static final Duration STALE = Duration.ofSeconds(15);

    private final MockCluster kafka = new MockCluster();

    private static MemberDescription member(String clientId, String host, TopicPartition... assigned) {
        return MockCluster.member(clientId, host, assigned);
    }

    private ClusterAdmin initialized(int partitions) throws ClusterException {
        ClusterAdmin admin = ClusterAdmin.using(kafka, "127.0.0.1:9092", Duration.ofSeconds(5),
                Clock.fixed(NOW, ZoneOffset.UTC));
        admin.init(new ClusterTopics(CRAWL, partitions, (short) 1));
        Map<TopicPartition, Long> ends = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            ends.put(new TopicPartition("docs.frontier", p), 0L);
            ends.put(new TopicPartition("docs.fetched", p), 0L);
            ends.put(new TopicPartition("docs.rejected", p), 0L);
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
            kafka.members(List.of(member("crawler-a", "/10.0.0.1", new TopicPartition("docs.frontier", 0),
                    new TopicPartition("docs.frontier", 1)), member("crawler-b", "/10.0.0.2",
                    new TopicPartition("docs.frontier", 2))));

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
            kafka.noGroup();

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
                            + " docs.fetched, docs.sieve-state, docs.rejected, docs.seeds; create them first: crawler cluster init"
                            + " --bootstrap 127.0.0.1:9092 --crawl docs")
                    .extracting(e -> ((ClusterException) e).kind()).isEqualTo(ClusterException.Kind.REFUSED);
        }
    }

    @Test
    void statusReadsEachPartitionsCheckpointMarkFromTheCommitsMetadata() throws Exception {
        try (ClusterAdmin admin = initialized(4)) {
            CheckpointMark mark = new CheckpointMark(Optional.of(new SnapshotRef("s-1", 40, 2)), 7, 9, 3, 1,
                    "crawler-a", NOW.minusMillis(1500).toEpochMilli());
            kafka.updateEndOffsets(Map.of(new TopicPartition("docs.frontier", 0), 9L,
                    new TopicPartition("docs.frontier", 1), 2L, new TopicPartition("docs.frontier", 2), 4L,
                    new TopicPartition("docs.frontier", 3), 5L));
            kafka.commit(new TopicPartition("docs.frontier", 0), 6, mark.encode());
            kafka.commit(new TopicPartition("docs.frontier", 1), 2, "");
            kafka.commit(new TopicPartition("docs.frontier", 2), 4, "v1;snapshot=-;fetched=0;consumed=four");
            kafka.updateConsumerGroupOffsets(Map.of(new TopicPartition("docs.frontier", 3), 5L));
            kafka.members(List.of());

            ClusterStatus status = admin.status(CRAWL);

            assertThat(status.readAt()).isEqualTo(NOW);
            ClusterStatus.Partition marked = status.partitions().get(0);
            assertThat(marked.mark()).contains(mark);
            assertThat(marked.committed()).hasValue(6);
            assertThat(marked.consumed()).as("the owner's position, not the committed offset").isEqualTo(9);
            assertThat(marked.pending()).isEqualTo(3);
            assertThat(marked.inFlight()).isEqualTo(1);
            assertThat(marked.markAge(status.readAt())).contains(Duration.ofMillis(1500));
            assertThat(status.partitions().get(1).mark()).as("empty metadata is no mark").isEmpty();
            assertThat(status.partitions().get(1).unreadable()).isEmpty();
            ClusterStatus.Partition broken = status.partitions().get(2);
            assertThat(broken.mark()).isEmpty();
            assertThat(broken.unreadable()).contains("partition 2 of docs.frontier: unreadable checkpoint mark:"
                    + " checkpoint metadata \"v1;snapshot=-;fetched=0;consumed=four\": a number is wrong:"
                    + " For input string: \"four\"");
            assertThat(status.partitions().get(3).mark()).as("an offset committed without metadata").isEmpty();
            assertThat(status.pending()).isEqualTo(3);
            assertThat(status.inFlight()).isEqualTo(1);
        }
    }

    @Test
    void theTableHasARowPerPartitionAndTotalsCountsAlignedRight() {
        CheckpointMark mark = new CheckpointMark(Optional.empty(), 0, 118, 5, 2, "crawler-1",
                NOW.minusMillis(1200).toEpochMilli());
        ClusterStatus status = ClusterStatus.of(CRAWL, NOW, Map.of(0, 3L, 1, 120L, 2, 4L),
                Map.of(1, 100L, 2, 4L), Map.of(1, mark.encode(), 2, "v1;garbage"),
                Map.of(1, "crawler-1@10.0.0.1"), Map.of(1, 97L), Map.of(1, 3L));

        assertThat(status.table()).containsExactly(
                "partition  owner               sent  committed     consumed  lag  pending  in flight  done  bad"
                        + "  member       mark age",
                "0          -                      3          -  not started    3        -          -     0    0"
                        + "  -                   -",
                "1          crawler-1@10.0.0.1   120        100          118    2        5          2    97    3"
                        + "  crawler-1        1.2s",
                "2          -                      4          4            4    0        -          -     0    0"
                        + "  -          unreadable",
                "total      1 owner              127                     122    5        5          2    97    3"
                        + "  1 mark",
                "bad-records=3 (records of the crawl's topics refused and skipped; copies in docs.rejected)",
                "partition 2 of docs.frontier: unreadable checkpoint mark: checkpoint metadata \"v1;garbage\":"
                        + " \"garbage\" is not name=value");
        assertThat(status.rejected()).isEqualTo(3);
        assertThat(status.progress()).isEqualTo("sent 127, consumed 122, pending 5, in flight 2, done 97");
    }

    @Test
    void agesAreTenthsOfSecondsUnderAMinuteThenMinutesThenHours() {
        assertThat(ClusterStatus.age(Duration.ofMillis(1249))).isEqualTo("1.2s");
        assertThat(ClusterStatus.age(Duration.ofMillis(-300))).as("a committer's clock ahead").isEqualTo("0.0s");
        assertThat(ClusterStatus.age(Duration.ofSeconds(185))).isEqualTo("3m05s");
        assertThat(ClusterStatus.age(Duration.ofMinutes(127))).isEqualTo("2h07m");
    }

    // drained(): statuses made by hand, one rule at a time; a partition is (sent, mark or none)

    private static CheckpointMark mark(long consumed, long pending, int leases, Duration age) {
        return new CheckpointMark(Optional.empty(), 0, consumed, pending, leases, "crawler-1",
                NOW.minus(age).toEpochMilli());
    }

    private static ClusterStatus.Partition partition(int number, long sent, Optional<CheckpointMark> mark) {
        return new ClusterStatus.Partition(number, Optional.empty(), sent, OptionalLong.of(sent), 0, 0, mark,
                Optional.empty());
    }

    private static ClusterStatus status(ClusterStatus.Partition... partitions) {
        return new ClusterStatus(CRAWL, "docs.crawlers", NOW, List.of(partitions));
    }

    @Test
    void drainedWhenEveryPartitionWithRecordsHasARecentMarkWithNothingPendingInFlightOrUnconsumed() {
        ClusterStatus status = status(partition(0, 12, Optional.of(mark(12, 0, 0, Duration.ofSeconds(2)))),
                partition(1, 3, Optional.of(mark(3, 0, 0, Duration.ofMillis(14_999)))));

        assertThat(status.notDrained(STALE)).isEmpty();
        assertThat(status.drained(STALE)).isTrue();
    }

    @Test
    void anEmptyPartitionWithoutAMarkIsDrainedButAFrontierWithNoRecordAtAllIsNot() {
        ClusterStatus oneEmpty = status(partition(0, 5, Optional.of(mark(5, 0, 0, Duration.ofSeconds(1)))),
                partition(1, 0, Optional.empty()));
        ClusterStatus allEmpty = status(partition(0, 0, Optional.empty()), partition(1, 0, Optional.empty()));

        assertThat(oneEmpty.drained(STALE)).isTrue();
        assertThat(allEmpty.drained(STALE)).isFalse();
        assertThat(allEmpty.notDrained(STALE))
                .containsExactly("nothing was ever sent to docs.frontier (seed the crawl)");
    }

    @Test
    void aPartitionWithRecordsAndNoMarkOrAnUnreadableOneIsNotDrained() {
        ClusterStatus status = status(partition(0, 5, Optional.empty()),
                new ClusterStatus.Partition(1, Optional.empty(), 2, OptionalLong.of(2), 0, 0, Optional.empty(),
                        Optional.of("partition 1 of docs.frontier: unreadable checkpoint mark: ...")));

        assertThat(status.notDrained(STALE)).containsExactly(
                "partition 0: 5 records sent, no checkpoint mark (no owner has reported)",
                "partition 1: its checkpoint mark is unreadable");
    }

    @Test
    void pendingUrlsOrOpenLeasesAreNotDrained() {
        ClusterStatus status = status(partition(0, 5, Optional.of(mark(5, 2, 0, Duration.ofSeconds(1)))),
                partition(1, 5, Optional.of(mark(5, 0, 1, Duration.ofSeconds(1)))));

        assertThat(status.notDrained(STALE)).containsExactly("partition 0: 2 pending", "partition 1: 1 in flight");
    }

    @Test
    void aMarkThatHasNotConsumedUpToTheEndOffsetIsNotDrained() {
        // The end offset is read AFTER the marks (ClusterAdmin#status). A page of partition 1 linking to a URL of
        // partition 0 keeps its lease open until the link is acknowledged, so partition 1's mark showing 0 leases
        // was committed after the link was in partition 0's log, and partition 0's end offset (read later still)
        // counts it: 6, while partition 0's older mark consumed 5. Read in the other order, the end offset could
        // be the old 5, and both partitions would look drained with the link never fetched.
        ClusterStatus status = status(partition(0, 6, Optional.of(mark(5, 0, 0, Duration.ofSeconds(1)))),
                partition(1, 4, Optional.of(mark(4, 0, 0, Duration.ofMillis(200)))));

        assertThat(status.notDrained(STALE)).containsExactly("partition 0: consumed 5 of 6 records");
    }

    @Test
    void aStaleMarkDoesNotCountEvenWithNothingLeft() {
        // a dead owner's last mark says 0 pending, 0 in flight; its partition's new owner has not reported yet
        ClusterStatus status = status(partition(0, 5, Optional.of(mark(5, 0, 0, Duration.ofSeconds(15)))),
                partition(1, 5, Optional.of(mark(5, 0, 0, Duration.ofMinutes(4)))));

        assertThat(status.notDrained(STALE)).containsExactly(
                "partition 0: its mark is 15.0s old (stale after 15.0s)",
                "partition 1: its mark is 4m00s old (stale after 15.0s)");
        assertThat(status.drained(Duration.ofMinutes(5))).isTrue();
    }

    @Test
    void everyReasonOfAPartitionIsNamedTogether() {
        ClusterStatus status = status(partition(3, 9, Optional.of(mark(7, 1, 2, Duration.ofSeconds(20)))));

        assertThat(status.notDrained(STALE)).containsExactly(
                "partition 3: its mark is 20.0s old (stale after 15.0s), consumed 7 of 9 records, 1 pending,"
                        + " 2 in flight");
    }

    @Test
    void aPartitionCannotHaveAMarkAndAnUnreadableOne() {
        assertThatThrownBy(() -> new ClusterStatus.Partition(0, Optional.empty(), 1, OptionalLong.empty(), 0, 0,
                Optional.of(mark(1, 0, 0, Duration.ZERO)), Optional.of("bad")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("partition 0 has a mark and");
    }

    @Test
    void aCommittedOffsetBeyondTheEndIsNoNegativeLag() {
        ClusterStatus.Partition p = new ClusterStatus.Partition(0, Optional.empty(), 2, OptionalLong.of(5), 0);

        assertThat(p.lag()).isZero();
        assertThat(p.consumed()).isEqualTo(5);
    }
}
