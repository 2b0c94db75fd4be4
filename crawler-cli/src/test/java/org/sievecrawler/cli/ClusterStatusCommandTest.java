package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.sievecrawler.cluster.CheckpointMark;
import org.sievecrawler.cluster.ClusterAdmin;
import org.sievecrawler.cluster.MockCluster;
import org.sievecrawler.fixtures.FakeClock;

/**
 * {@code cluster status} on {@link MockCluster} (a MockAdminClient with a consumer group and commit metadata); with
 * {@code --wait-done}, polls paced by a {@link FakeClock} whose every sleep advances it and lets the test change the
 * cluster before the next poll.
 */
class ClusterStatusCommandTest {
    private static final String NL = System.lineSeparator();

    private final MockCluster admin = new MockCluster();
    private final FakeClock clock = new FakeClock(Instant.parse("2026-11-23T18:00:00Z"));
    /** What changes in the cluster at each sleep of --wait-done (the sleep's number, from 1); nothing unless set. */
    private java.util.function.IntConsumer onSleep = n -> { };
    private final List<Duration> sleeps = new ArrayList<>();
    private final Ticker ticker = new Ticker() {
        @Override
        public Instant now() {
            return clock.instant();
        }

        @Override
        public void sleep(Duration duration) {
            sleeps.add(duration);
            clock.advance(duration);
            onSleep.accept(sleeps.size());
        }
    };
    private final CrawlerCommand root = new CrawlerCommand(ProfileSource.YAML, onStop -> () -> { },
            (bootstrap, timeout) -> ClusterAdmin.using(admin, bootstrap, timeout, clock), ticker);

    ClusterStatusCommandTest() {
        admin.members(List.of(MockCluster.member("crawler-1", "/10.0.0.1", new TopicPartition("docs.frontier", 1))));
    }

    @Test
    void printsATableOfThePartitionsAndTotals() {
        CommandRun init = CommandRun.execute(root, "cluster", "init", "--bootstrap", "127.0.0.1:9092", "--crawl", "docs",
                "--partitions", "2");
        assertThat(init.exit()).as(init.err()).isZero();
        admin.updateEndOffsets(Map.of(new TopicPartition("docs.frontier", 0), 3L,
                new TopicPartition("docs.frontier", 1), 120L, new TopicPartition("docs.fetched", 0), 0L,
                new TopicPartition("docs.fetched", 1), 97L, new TopicPartition("docs.rejected", 1), 2L));
        admin.updateConsumerGroupOffsets(Map.of(new TopicPartition("docs.frontier", 1), 120L));

        CommandRun run = CommandRun.execute(root, "cluster", "status", "--bootstrap", "127.0.0.1:9092", "--crawl",
                "docs");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualTo("crawl docs on the Kafka cluster at 127.0.0.1:9092: 2 partitions of"
                + " docs.frontier, consumer group docs.crawlers" + NL
                + "partition  owner               sent  committed     consumed  lag  pending  in flight  done  bad"
                + "  member   mark age" + NL
                + "0          -                      3          -  not started    3        -          -     0    0"
                + "  -               -" + NL
                + "1          crawler-1@10.0.0.1   120        120          120    0        -          -    97    2"
                + "  -               -" + NL
                + "total      1 owner              123                     120    3        0          0    97    2"
                + "  0 marks" + NL
                + "bad-records=2 (records of the crawl's topics refused and skipped; copies in docs.rejected)" + NL);
    }

    @Test
    void refusesACrawlWithoutTopicsSayingToRunInitWithExitCodeTwo() {
        CommandRun run = CommandRun.execute(root, "cluster", "status", "--bootstrap", "127.0.0.1:9092", "--crawl",
                "docs");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("cluster status: no crawl docs on the Kafka cluster at 127.0.0.1:9092: topics"
                + " missing: docs.frontier, docs.fetched, docs.sieve-state, docs.rejected, docs.seeds; create them first: crawler"
                + " cluster init --bootstrap 127.0.0.1:9092 --crawl docs" + NL);
    }

    @Test
    void refusesABadBootstrapCrawlNameAndMaxWait() {
        CommandRun bad = CommandRun.execute(root, "cluster", "status", "--bootstrap", "127.0.0.1", "--crawl", "docs");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).startsWith("cluster status: --bootstrap: must be HOST:PORT");

        CommandRun name = CommandRun.execute(root, "cluster", "status", "--bootstrap", "127.0.0.1:9092", "--crawl",
                "my crawl");
        assertThat(name.exit()).isEqualTo(2);
        assertThat(name.err()).startsWith("cluster status: --crawl: may hold only ASCII letters");

        CommandRun maxWait = CommandRun.execute(root, "cluster", "status", "--bootstrap", "127.0.0.1:9092", "--crawl",
                "docs", "--max-wait", "30s");
        assertThat(maxWait.exit()).isEqualTo(2);
        assertThat(maxWait.err()).isEqualTo("cluster status: --max-wait 30s: only with --wait-done" + NL);

        CommandRun badWait = CommandRun.execute(root, "cluster", "status", "--bootstrap", "127.0.0.1:9092", "--crawl",
                "docs", "--wait-done", "--max-wait", "0s");
        assertThat(badWait.exit()).isEqualTo(2);
        assertThat(badWait.err()).contains("--max-wait", "\"0s\"", "more than 0");
    }

    // --wait-done

    private void init(int partitions) {
        CommandRun init = CommandRun.execute(root, "cluster", "init", "--bootstrap", "127.0.0.1:9092", "--crawl",
                "docs", "--partitions", Integer.toString(partitions));
        assertThat(init.exit()).as(init.err()).isZero();
        Map<TopicPartition, Long> empty = new java.util.HashMap<>();
        for (int p = 0; p < partitions; p++) {
            empty.put(new TopicPartition("docs.frontier", p), 0L);
            empty.put(new TopicPartition("docs.fetched", p), 0L);
        }
        admin.updateEndOffsets(empty);
    }

    /** Partition {@code p} of docs.frontier has {@code sent} records and its owner commits the mark given. */
    private void partition(int p, long sent, long consumed, long pending, int leases) {
        admin.updateEndOffsets(Map.of(new TopicPartition("docs.frontier", p), sent,
                new TopicPartition("docs.fetched", p), consumed - pending));
        admin.commit(new TopicPartition("docs.frontier", p), consumed, new CheckpointMark(Optional.empty(), 0,
                consumed, pending, leases, "crawler-1", clock.millis()).encode());
    }

    private CommandRun waitDone(String... more) {
        List<String> args = new ArrayList<>(List.of("cluster", "status", "--bootstrap", "127.0.0.1:9092", "--crawl",
                "docs", "--wait-done"));
        args.addAll(List.of(more));
        return CommandRun.execute(root, args.toArray(String[]::new));
    }

    @Test
    void waitDoneEndsWithZeroAndTheTableOnceTwoPollsInARowFindTheCrawlDrained() {
        init(2);
        admin.updateEndOffsets(Map.of(new TopicPartition("docs.frontier", 0), 0L));
        partition(1, 5, 5, 2, 1);
        onSleep = n -> {
            switch (n) {
                case 1 -> partition(1, 5, 5, 0, 0);       // poll 2: drained
                case 2 -> partition(1, 6, 5, 0, 0);       // poll 3: a link arrived, not consumed yet
                case 3 -> partition(1, 6, 6, 0, 0);       // poll 4: drained
                default -> { }                            // poll 5: the same mark, 1 s old, drained again: done
            }
        };

        CommandRun run = waitDone();

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(sleeps).hasSize(4).containsOnly(Duration.ofSeconds(1));
        assertThat(run.out()).isEqualTo("waiting for crawl docs to drain (0s): sent 5, consumed 5, pending 2,"
                + " in flight 1, done 3" + NL
                + "crawl docs on the Kafka cluster at 127.0.0.1:9092: 2 partitions of docs.frontier, consumer group"
                + " docs.crawlers" + NL
                + "partition  owner               sent  committed     consumed  lag  pending  in flight  done  bad"
                + "  member     mark age" + NL
                + "0          -                      0          -  not started    0        -          -     0    0"
                + "  -                 -" + NL
                + "1          crawler-1@10.0.0.1     6          6            6    0        0          0     6    0"
                + "  crawler-1      1.0s" + NL
                + "total      1 owner                6                       6    0        0          0     6    0"
                + "  1 mark" + NL
                + "bad-records=0 (records of the crawl's topics refused and skipped; copies in docs.rejected)" + NL
                + "crawl docs has drained (waited 4s)" + NL);
    }

    @Test
    void waitDonePrintsProgressEveryTenSecondsAndExitsFourWithTheReasonsWhenMaxWaitPasses() {
        init(2);
        admin.updateEndOffsets(Map.of(new TopicPartition("docs.frontier", 0), 4L));
        partition(1, 9, 9, 3, 2);
        onSleep = n -> partition(1, 9 + n, 9 + n, 3, 2);   // the owner keeps reporting, never drains

        CommandRun run = waitDone("--max-wait", "25s");

        assertThat(run.exit()).isEqualTo(4);
        assertThat(sleeps).hasSize(25);
        assertThat(run.out().lines().filter(l -> l.startsWith("waiting"))).containsExactly(
                "waiting for crawl docs to drain (0s): sent 13, consumed 9, pending 3, in flight 2, done 6",
                "waiting for crawl docs to drain (10s): sent 23, consumed 19, pending 3, in flight 2, done 16",
                "waiting for crawl docs to drain (20s): sent 33, consumed 29, pending 3, in flight 2, done 26");
        assertThat(run.out()).contains("partition  owner", "total      1 owner");
        assertThat(run.err()).isEqualTo("cluster status: crawl docs has not drained within --max-wait 25s:" + NL
                + "  partition 0: 4 records sent, no checkpoint mark (no owner has reported)" + NL
                + "  partition 1: 3 pending, 2 in flight" + NL);
    }

    @Test
    void waitDoneSaysOnceThatNoProcessRunsTheCrawlAndExitsFiveWhenNoneStartsWithinThirtySeconds() {
        init(2);
        partition(1, 9, 9, 2, 0);
        admin.members(List.of());
        clock.advance(Duration.ofSeconds(20)); // the last process stopped 20 s ago: its mark is stale

        CommandRun run = waitDone();

        assertThat(run.exit()).isEqualTo(5);
        assertThat(sleeps).hasSize(30);
        assertThat(run.out().lines().filter(l -> l.startsWith("no process"))).containsExactly(
                "no process is running crawl docs (consumer group docs.crawlers has no member): waiting up to 30s"
                        + " for one to start");
        assertThat(run.out()).contains("partition  owner", "total      0 owners");
        assertThat(run.err()).isEqualTo("cluster status: no process has run crawl docs for 30s, and it cannot drain"
                + " without one (sent 9, consumed 9, pending 2, in flight 0, done 7); start one: crawler cluster run"
                + " --bootstrap 127.0.0.1:9092 --crawl docs --profile FILE" + NL);
    }

    @Test
    void withNoProcessACrawlWhoseLastMarksSayDrainedHasDrainedHoweverOldTheMarks() {
        init(2);
        partition(1, 9, 9, 0, 0);
        admin.members(List.of());
        clock.advance(Duration.ofMinutes(5)); // the processes handed their partitions back and stopped

        CommandRun run = waitDone();

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).endsWith("crawl docs has drained (waited 1s; no process is running: the last marks of"
                + " those that ran say so)" + NL);
    }

    @Test
    void waitDoneWaitsOnWhenAProcessStartsWithinThirtySeconds() {
        init(1);
        admin.members(List.of());
        onSleep = n -> {
            if (n == 25) { // a process joined and drained the crawl
                admin.members(List.of(MockCluster.member("crawler-1", "/10.0.0.1",
                        new TopicPartition("docs.frontier", 0))));
                partition(0, 3, 3, 0, 0);
            }
        };

        CommandRun run = waitDone();

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("no process is running crawl docs", "crawl docs has drained (waited 26s)");
    }

    @Test
    void waitDoneExitsOneWhenTheClusterStopsAnswering() {
        init(1);
        partition(0, 3, 3, 1, 0);
        onSleep = n -> admin.timeoutNextRequest(1);

        CommandRun run = waitDone("--max-wait", "1m");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(sleeps).hasSize(1);
        assertThat(run.err())
                .startsWith("cluster status: no answer from the Kafka cluster at 127.0.0.1:9092 within");
    }

    @Test
    void theHelpListsExitCodeFourForWaitDone() {
        CommandRun help = CommandRun.execute(root, "cluster", "status", "--help");

        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("--wait-done", "--max-wait=DURATION",
                " 4   --wait-done: the crawl had not drained when --max-wait passed");
    }
}
