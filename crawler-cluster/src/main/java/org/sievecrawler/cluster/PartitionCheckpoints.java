package org.sievecrawler.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.sievecrawler.frontier.Frontier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint and commit protocol of the frontier partitions a cluster process owns, and its cadence.
 *
 * <p><b>A checkpoint.</b> For each partition: the done-log's end F is read, then the frontier's state copied (under
 * its lock) at the consumer's position O, then the links sent so far are flushed (so every page the snapshot counts
 * as done has its links in the log), then the snapshot written ({@link PartitionStore#write}) and the offset O
 * committed with a {@link CheckpointMark} naming it and F; the snapshots the commit replaced are deleted once it
 * succeeded, the new ones if it failed. A partition still replaying what its last owner read is not snapshot (the
 * done markers before F it dropped would be lost to the next owner); its last mark is committed again instead.
 *
 * <p><b>The cadence</b> ({@link #keepUp}, after each poll): every {@code checkpoint.interval} a checkpoint of every
 * partition. A partition that settled (drained: read past its committed offset, nothing waiting or leased) is
 * checkpointed at the next commit rather than at the next interval (at most every
 * {@link #SETTLED_CHECKPOINT_EVERY}), so the committed offset follows a crawl that drains (before, it stayed at 0
 * until the first checkpoint, 60 s by default). Between checkpoints the marks are committed again every
 * {@link #COMMIT_EVERY} with fresh counters: a successful commit is the member's proof it still owns its partitions
 * ({@link OwnedPartitions}), and what {@code cluster status} reads.
 *
 * <p><b>A commit</b> refused because a rebalance is under way, or by a member no longer in the group, changes
 * nothing (logged); one not answered within the timeout is the process's failure ({@link RunFailure}).
 *
 * <p>Not thread-safe: the poll thread alone uses it (inside the rebalance callbacks too). Out of scope: the
 * snapshots' records ({@link PartitionStore}), when a partition is taken or given up ({@link Rebalance}).
 */
final class PartitionCheckpoints {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionCheckpoints.class);
    /** How often the marks are committed again between checkpoints: the membership proof. */
    static final Duration COMMIT_EVERY = Duration.ofSeconds(2);
    /**
     * How often at most a partition that settled (drained since its last checkpoint) is checkpointed between the
     * periodic checkpoints: so that the committed offset follows a crawl that drains, at a bounded cost (a partition
     * that drains and fills again and again is snapshot at most this often).
     */
    static final Duration SETTLED_CHECKPOINT_EVERY = Duration.ofSeconds(10);

    private final GroupMember member;
    private final PartitionStore store;
    private final Assignment assignment;
    private final RunFailure failure;
    /** Nanoseconds between periodic checkpoints; never with {@code checkpoint.interval: 0}. */
    private final long checkpointEvery;
    private long lastCheckpoint;
    private long lastCommit;

    /**
     * The checkpoints of {@code member}'s {@code assignment}, written by {@code store}, every {@code interval} (none
     * when zero); a commit not answered is reported to {@code failure}.
     */
    PartitionCheckpoints(GroupMember member, PartitionStore store, Assignment assignment, RunFailure failure,
            Duration interval) {
        this.member = Objects.requireNonNull(member, "member");
        this.store = Objects.requireNonNull(store, "store");
        this.assignment = Objects.requireNonNull(assignment, "assignment");
        this.failure = Objects.requireNonNull(failure, "failure");
        this.checkpointEvery = interval.isZero() ? Long.MAX_VALUE : interval.toNanos();
    }

    /** Starts the cadence at {@code now} (System.nanoTime): the first checkpoint and commit are due from it. */
    void start(long now) {
        lastCheckpoint = now;
        lastCommit = now;
    }

    /**
     * What is due at {@code now} (System.nanoTime; see the class comment): a checkpoint of every partition, or the
     * settled partitions' checkpoint committed with the others' marks, or the marks alone, or nothing.
     *
     * @throws ClusterException when the done-log's end cannot be read or a snapshot cannot be written
     */
    void keepUp(long now) throws ClusterException {
        if (now - lastCheckpoint >= checkpointEvery) {
            checkpoint(assignment.all(), assignment.all());
            lastCheckpoint = now;
            lastCommit = now;
        } else if (now - lastCommit >= COMMIT_EVERY.toNanos()) {
            List<OwnedPartition> settled = settled(now);
            if (settled.isEmpty()) {
                commitMarks();
            } else {
                checkpoint(settled, assignment.all());
            }
            lastCommit = now;
        }
    }

    /**
     * The partitions that have settled since their last checkpoint: read beyond the offset last committed, and
     * drained (nothing waiting, nothing leased, no lease open). Checkpointed early, so that the committed offset
     * follows the crawl ({@code cluster status}'s "committed") and a new owner replays nothing, rather than staying
     * at the last periodic checkpoint (or at 0 before the first) while the process waits for work.
     */
    private List<OwnedPartition> settled(long now) {
        List<OwnedPartition> settled = new ArrayList<>();
        for (OwnedPartition partition : assignment.all()) {
            Frontier frontier = partition.frontier;
            boolean due = partition.checkpointedAt.isEmpty()
                    || now - partition.checkpointedAt.getAsLong() >= SETTLED_CHECKPOINT_EVERY.toNanos();
            if (due && partition.position > partition.committedOffset && partition.position >= partition.replayUntil
                    && frontier.size() == 0 && frontier.leasedPages() == 0 && frontier.openLeases() == 0) {
                settled.add(partition);
            }
        }
        return settled;
    }

    /**
     * Checkpoints {@code which} (see the class comment) and commits them in one request; returns whether the commit
     * succeeded. Snapshots replaced are deleted once it did.
     *
     * @throws ClusterException when the done-log's end cannot be read or a snapshot cannot be written
     */
    boolean checkpoint(Collection<OwnedPartition> which) throws ClusterException {
        return checkpoint(which, which);
    }

    /** Checkpoints {@code which} and commits {@code committing} (the others' marks again, with fresh counters). */
    private boolean checkpoint(Collection<OwnedPartition> which, Collection<OwnedPartition> committing)
            throws ClusterException {
        PartitionStore.Written written = store.write(which);
        Map<OwnedPartition, CheckpointMark> marks = written.marks();
        Map<OwnedPartition, Long> offsets = written.offsets();
        Map<OwnedPartition, Optional<SnapshotRef>> replaced = new HashMap<>();
        marks.forEach((partition, mark) -> replaced.put(partition, partition.mark.snapshot()));
        if (!commit(committing, marks, offsets)) {
            marks.forEach((partition, mark) -> mark.snapshot().ifPresent(ref -> store.delete(partition, ref)));
            return false;
        }
        replaced.forEach((partition, old) -> old.ifPresent(ref -> store.delete(partition, ref)));
        long now = System.nanoTime();
        marks.keySet().forEach(partition -> partition.checkpointedAt = OptionalLong.of(now));
        return true;
    }

    /**
     * Commits every owned partition's mark again with fresh counters; a member that owns none asks the group's
     * coordinator for a committed offset instead, so that it too learns within the timeout that the cluster is gone.
     */
    private void commitMarks() {
        if (!assignment.isEmpty()) {
            commit(assignment.all());
            return;
        }
        try {
            member.consumer().committed(Set.of(new TopicPartition(member.frontier(), 0)), member.timeout());
            assignment.proven();
        } catch (WakeupException e) {
            // a stop, or the failure: the loop ends
        } catch (TimeoutException e) {
            failure.fail(failure.noAnswer("member " + member.name() + " of " + ClusterTopics.group(member.crawl())));
        } catch (KafkaException e) {
            LOG.warn("cluster crawl {}: member {} could not read a committed offset ({})", member.crawl(),
                    member.name(), ClusterClients.rootMessage(e));
        }
    }

    /**
     * Commits the last marks of {@code which} again, with fresh counters; returns whether the commit succeeded (and
     * proved the membership). A new owner's first commit proves it at once, and shows it in {@code cluster status}.
     */
    boolean commit(Collection<OwnedPartition> which) {
        return commit(which, Map.of(), Map.of());
    }

    /**
     * Commits {@code which}: the new marks and offsets given, the others' last ones with fresh counters. Returns
     * whether the commit succeeded (and proved the membership); a commit refused (a rebalance under way, the member
     * no longer in the group) is logged, and changes nothing.
     */
    private boolean commit(Collection<OwnedPartition> which, Map<OwnedPartition, CheckpointMark> marks,
            Map<OwnedPartition, Long> offsets) {
        if (which.isEmpty()) {
            assignment.proven();
            return true;
        }
        Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
        Map<OwnedPartition, CheckpointMark> fresh = new HashMap<>();
        for (OwnedPartition partition : which) {
            CheckpointMark mark = marks.getOrDefault(partition, partition.mark(partition.mark.snapshot(),
                    partition.mark.fetchedFrom(), member.name(), member.clock()));
            long offset = offsets.getOrDefault(partition, partition.committedOffset);
            commits.put(partition.topic, new OffsetAndMetadata(offset, mark.encode()));
            fresh.put(partition, mark);
        }
        try {
            try {
                member.consumer().commitSync(commits, member.timeout());
            } catch (WakeupException e) {
                if (failure.happened()) {
                    return false; // woken by the failure: the cluster does not answer, or this process is stopping
                }
                member.consumer().commitSync(commits, member.timeout()); // a stop asked during the commit: finish it
            }
        } catch (RebalanceInProgressException e) {
            LOG.debug("member {}: commit of {} deferred, a rebalance is under way", member.name(), commits.keySet());
            return false;
        } catch (TimeoutException e) {
            // its message lists every offset and mark: too long to read, and says no more than this
            failure.fail(failure.noAnswer("the commit of partitions " + Assignment.numbers(which.stream()
                    .map(p -> p.topic.partition()).toList()) + " of " + member.frontier()));
            return false;
        } catch (KafkaException e) {
            LOG.warn("cluster crawl {}: member {} could not commit its partitions {} ({}); it fetches nothing new"
                    + " until a commit succeeds", member.crawl(), member.name(), Assignment.numbers(which.stream()
                    .map(p -> p.topic.partition()).toList()), ClusterClients.rootMessage(e));
            return false;
        }
        assignment.proven();
        fresh.forEach((partition, mark) -> {
            partition.mark = mark;
            partition.committedOffset = offsets.getOrDefault(partition, partition.committedOffset);
        });
        return true;
    }
}
