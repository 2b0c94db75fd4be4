package org.sievecrawler.cluster;

import java.time.Clock;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.sievecrawler.frontier.Frontier;

/**
 * One frontier partition a cluster process owns, as its poll thread knows it: the partition's {@link Frontier}, the
 * next offset the frontier's Sieve takes in, the offset up to which it replays what its last owner read, and the
 * {@link CheckpointMark} last committed for it with its offset. Made by {@link PartitionStore#load} when the process
 * takes the partition over.
 *
 * <p>Not thread-safe: the poll thread alone reads and changes it (the {@link Frontier} itself is thread-safe, shared
 * with the fetchers). Out of scope: reading the log into the frontier ({@link ClusterRun}), commits
 * ({@link PartitionCheckpoints}) and rebalances ({@link Rebalance}), the partitions owned ({@link Assignment}),
 * snapshots ({@link PartitionStore}), leases ({@link OwnedPartitions}).
 */
final class OwnedPartition {
    final TopicPartition topic;
    final Frontier frontier;
    /** The next frontier offset its Sieve takes in. */
    long position;
    /** The end offset when it was taken over: until the position reaches it, it replays its last owner's. */
    final long replayUntil;
    /**
     * The offset up to which an earlier owner read the partition (its last committed mark's position): a bad record
     * below it was refused and copied aside by that owner, and is skipped without a word.
     */
    final long readBefore;
    /** The offset committed with {@link #mark}: the snapshot's, or 0 without one. */
    long committedOffset;
    CheckpointMark mark;
    boolean paused;
    /** When (System.nanoTime) this owner last checkpointed it; empty before its first checkpoint. */
    java.util.OptionalLong checkpointedAt = java.util.OptionalLong.empty();
    /** Checkpointed after the fetchers stopped: nothing changes it any more. */
    boolean handedBack;

    OwnedPartition(TopicPartition topic, Frontier frontier, long position, long replayUntil, long readBefore,
            CheckpointMark mark) {
        this.topic = topic;
        this.frontier = frontier;
        this.position = position;
        this.replayUntil = replayUntil;
        this.readBefore = readBefore;
        this.committedOffset = position;
        this.mark = mark;
    }

    /**
     * The partition's mark now, by {@code member}: {@code snapshot} and {@code fetchedFrom} as given, the position,
     * the frontier's counters and {@code clock}'s time.
     */
    CheckpointMark mark(Optional<SnapshotRef> snapshot, long fetchedFrom, String member, Clock clock) {
        return new CheckpointMark(snapshot, fetchedFrom, position, frontier.size() + frontier.leasedPages(),
                frontier.openLeases(), member, clock.millis());
    }
}
