package org.sievecrawler.cluster;

import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.frontier.FrontierState;
import org.sievecrawler.frontier.LinkOutbox;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.SieveConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A frontier partition's state in the cluster: its snapshots in {@code <crawl>.sieve-state} ({@link SieveStateStore})
 * and its done markers in {@code <crawl>.fetched} ({@link DoneLog}). {@link #load} makes a partition's
 * {@link Frontier} for its new owner, {@link #write} writes the snapshots of a checkpoint, {@link #delete} the ones
 * a commit replaced.
 *
 * <p><b>Load.</b> The committed {@link CheckpointMark} names a snapshot and the done-log offset F read before it was
 * taken: the frontier is restored from the snapshot, skips the URLs marked done from F on, and is read from the
 * snapshot's offset. A mark that cannot be read, or a snapshot that cannot, rebuilds the frontier from offset 0
 * (the same state, only slower). Its hosts wait one politeness delay before their first request. What it reads is
 * untrusted input and passes the {@link RecordGate}: a snapshot that cannot be read is counted and copied aside as
 * {@code unreadable-snapshot} (and replaced by the replay), a snapshot's pending URL that fails the rules of a
 * frontier record is dropped (a replay would have refused its record), a bad done marker is left out.
 *
 * <p><b>Write.</b> For each partition: the done-log's end F, then the frontier's state (under its lock) at the
 * position O, then the links sent so far flushed (every page the snapshot counts as done has its links in the log),
 * then the snapshot written; the mark naming it and F, and O, are the caller's to commit. A partition still
 * replaying what its last owner read is not snapshot (the done markers before F it dropped would be lost to the
 * next owner).
 *
 * <p>Not thread-safe: the poll thread calls it (inside the rebalance callbacks too). Out of scope: the consumer
 * (its seeks, {@link Rebalance}; its commits, {@link PartitionCheckpoints}), when to checkpoint, the snapshot's bytes
 * and records ({@link SieveStateStore}).
 */
final class PartitionStore {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionStore.class);

    /**
     * How this process makes a partition's {@link Frontier}: from the crawl's {@code profile}, the partition's share
     * of {@code partitionCount}, the process's {@code clock}, with the {@code recorder} of completed pages, in the
     * frontier group of the {@code owned} partitions (one lease cap, one wait), and the partition's {@code outboxes}
     * for its links.
     */
    record Frontiers(CrawlProfile profile, int partitionCount, Clock clock, Frontier.Recorder recorder,
            OwnedPartitions owned, IntFunction<LinkOutbox> outboxes) {
        Frontiers {
            Objects.requireNonNull(profile, "profile");
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(recorder, "recorder");
            Objects.requireNonNull(owned, "owned");
            Objects.requireNonNull(outboxes, "outboxes");
        }
    }

    /**
     * The snapshots one checkpoint wrote: for each partition snapshot, the mark that names it and the offset it was
     * taken at, to be committed together.
     */
    record Written(Map<OwnedPartition, CheckpointMark> marks, Map<OwnedPartition, Long> offsets) {
    }

    private final DoneLog done;
    private final SieveStateStore states;
    private final FrontierProducer links;
    private final Frontiers frontiers;
    private final RecordGate gate;
    private final String member;
    private final Duration timeout;

    /**
     * A store reading and writing through {@code done}, {@code states} and {@code links} (flushed before a snapshot
     * is written), loading partitions for {@code member} as {@code frontiers} makes them, what it reads through
     * {@code gate}; reads of the done-log wait up to {@code timeout}.
     */
    PartitionStore(DoneLog done, SieveStateStore states, FrontierProducer links, Frontiers frontiers, RecordGate gate,
            String member, Duration timeout) {
        this.done = Objects.requireNonNull(done, "done");
        this.states = Objects.requireNonNull(states, "states");
        this.links = Objects.requireNonNull(links, "links");
        this.frontiers = Objects.requireNonNull(frontiers, "frontiers");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.member = Objects.requireNonNull(member, "member");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * Partition {@code topic} for its new owner, from its {@code committed} offset and mark; {@code end} is its end
     * offset now (what it replays of its last owner's). The caller seeks the consumer to the partition's position.
     *
     * @throws ClusterException when the done-log cannot be read, or the frontier cannot be made (REFUSED)
     */
    OwnedPartition load(TopicPartition topic, Optional<OffsetAndMetadata> committed, long end)
            throws ClusterException {
        int p = topic.partition();
        Optional<CheckpointMark> mark = Optional.empty();
        try {
            mark = committed.flatMap(c -> CheckpointMark.decode(c.metadata()));
        } catch (IllegalArgumentException e) {
            LOG.warn("partition {}: the committed mark cannot be read ({}); replaying the partition from offset 0", p,
                    e.getMessage());
        }
        Optional<FrontierState> state = Optional.empty();
        long start = 0;
        long fetchedFrom = 0;
        Optional<SnapshotRef> ref = mark.flatMap(CheckpointMark::snapshot);
        if (ref.isPresent()) {
            try {
                PartitionSnapshot snapshot = states.read(p, ref.get());
                state = Optional.of(FrontierState.of(snapshot.filters(), gate.pending(states.topic(), p, ref.get(),
                        snapshot.pending())));
                start = snapshot.frontierOffset();
                fetchedFrom = mark.get().fetchedFrom();
            } catch (ClusterException e) {
                if (e.kind() == ClusterException.Kind.REFUSED) {
                    gate.unreadableSnapshot(states.topic(), p, ref.get(), e.getMessage());
                }
                LOG.warn("partition {}: {}; replaying the partition from offset 0", p, e.getMessage());
                ref = Optional.empty();
            }
        }
        DoneLog.Done fetched = done.readDone(p, fetchedFrom, timeout, gate);
        Clock clock = frontiers.clock();
        Instant quietUntil = clock.instant().plus(frontiers.profile().politeness().delay());
        Frontier frontier;
        try {
            frontier = frontiers.owned().group().open(settings(p), clock, frontiers.recorder(),
                    frontiers.outboxes().apply(p), quietUntil, state, fetched.urls());
        } catch (IOException e) {
            throw new ClusterException(ClusterException.Kind.REFUSED, "partition " + p + ": " + e.getMessage());
        }
        LOG.info("partition {} taken over by {}: {} at offset {}, {} URLs pending, {} marked done since, {} records"
                + " to replay", p, member, ref.map(r -> "snapshot " + r).orElse("no snapshot"), start,
                frontier.size(), fetched.urls().size(), Math.max(0, end - start));
        CheckpointMark initial = new CheckpointMark(ref, fetchedFrom, start, frontier.size(), 0, member,
                clock.millis());
        // what the last owner had read, the bad records among it refused and copied already: from its last mark
        long readBefore = mark.map(CheckpointMark::consumed).orElse(0L);
        return new OwnedPartition(topic, frontier, start, end, readBefore, initial);
    }

    /**
     * A partition's frontier settings: its share of the crawl's expected URLs, never spilled, no folder used; the
     * budget of URLs per host is the crawl's (a host lives in one partition), counted per owner.
     */
    private Frontier.Settings settings(int partition) {
        CrawlProfile profile = frontiers.profile();
        SieveConfig share = profile.with(SIEVE_EXPECTED_URLS,
                Math.max(1_000, profile.sieve().expectedUrls() / frontiers.partitionCount())).sieve();
        Path dir = profile.output().dir().resolve("frontier").resolve("p" + partition);
        return new Frontier.Settings(share, profile.politeness(), profile.fetch().threads(), dir,
                profile.limits().maxPagesPerHost());
    }

    /**
     * Writes the snapshots of a checkpoint of {@code which} (see the class comment), none of a partition still
     * replaying. Nothing is committed.
     *
     * @throws ClusterException when the done-log's end cannot be read or a snapshot cannot be written
     */
    Written write(Collection<OwnedPartition> which) throws ClusterException {
        Map<OwnedPartition, CheckpointMark> marks = new HashMap<>();
        Map<OwnedPartition, Long> offsets = new HashMap<>();
        for (OwnedPartition partition : which) {
            int p = partition.topic.partition();
            if (partition.position < partition.replayUntil) {
                continue; // still replaying its last owner's records: its last mark is committed again instead
            }
            long fetchedFrom = done.endOffset(p);
            FrontierState state = partition.frontier.snapshot(s -> s);
            long offset = partition.position;
            links.flush(); // every page the snapshot counts as done has its links in the log
            SnapshotRef ref = states.write(new PartitionSnapshot(p, offset, state.filters(), state.pending()));
            marks.put(partition, partition.mark(Optional.of(ref), fetchedFrom, member, frontiers.clock()));
            offsets.put(partition, offset);
        }
        return new Written(marks, offsets);
    }

    /** Deletes {@code partition}'s snapshot {@code ref} (best effort: one not deleted is logged). */
    void delete(OwnedPartition partition, SnapshotRef ref) {
        try {
            states.delete(partition.topic.partition(), ref);
        } catch (ClusterException e) {
            LOG.warn("the snapshot {} of partition {} was not deleted ({}); compaction keeps it", ref,
                    partition.topic.partition(), e.getMessage());
        }
    }
}
