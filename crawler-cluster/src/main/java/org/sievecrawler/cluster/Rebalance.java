package org.sievecrawler.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a member of the crawl's group takes frontier partitions over and gives them up: the rebalance callbacks, and
 * the hand-back of every partition at the stop.
 *
 * <p><b>Taking partitions over.</b> A partition assigned is loaded by the {@link PartitionStore} from its committed
 * {@link CheckpointMark} (its snapshot, the done-log after it, the records to replay), the consumer sought to its
 * position, and its mark committed at once: the commit proves the membership and shows the new owner in
 * {@code cluster status}.
 *
 * <p><b>Giving partitions up.</b> A partition revoked (a member joined, or this one stops) is quiesced: no new lease,
 * the open ones finish and their links and done markers are acknowledged (up to {@link #QUIESCE}); then it is
 * checkpointed and committed ({@link PartitionCheckpoints}) before the rebalance completes, so its next owner fetches
 * none of its pages again. A partition lost (this member was thrown out of the group) is dropped without a commit:
 * it cannot commit. At the stop ({@link #handBack}) every partition still owned is given up in the same way, the
 * fetchers stopped.
 *
 * <p>Not thread-safe: the callbacks run on the poll thread, inside {@code poll()} or {@code close()}; a failure in
 * them is reported to the {@link RunFailure}, which ends the process. Out of scope: what a partition's state is
 * ({@link PartitionStore}), reading its records ({@link ClusterRun}).
 */
final class Rebalance implements ConsumerRebalanceListener {
    private static final Logger LOG = LoggerFactory.getLogger(Rebalance.class);
    /** How long a partition given up waits for its open leases. */
    static final Duration QUIESCE = Duration.ofSeconds(15);
    /** How often a quiesce looks whether the cluster failed meanwhile. */
    private static final Duration QUIESCE_SLICE = Duration.ofMillis(200);
    /** Commits tried at the stop before the process leaves without one. */
    private static final int HAND_BACK_ATTEMPTS = 50;

    private final GroupMember member;
    private final PartitionStore store;
    private final Assignment assignment;
    private final PartitionCheckpoints checkpoints;
    private final RunFailure failure;

    /**
     * The rebalances of {@code member}'s {@code assignment}: partitions loaded by {@code store}, given up through
     * {@code checkpoints}, a failure reported to {@code failure}.
     */
    Rebalance(GroupMember member, PartitionStore store, Assignment assignment, PartitionCheckpoints checkpoints,
            RunFailure failure) {
        this.member = Objects.requireNonNull(member, "member");
        this.store = Objects.requireNonNull(store, "store");
        this.assignment = Objects.requireNonNull(assignment, "assignment");
        this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
        this.failure = Objects.requireNonNull(failure, "failure");
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> topics) {
        // a KafkaException: a read of the committed marks or end offsets not answered in time
        reporting("taking over", topics, this::assigned);
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> topics) {
        reporting("giving up", topics, this::revoked);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> topics) {
        lost(topics);
    }

    /** A callback's work on some partitions. */
    @FunctionalInterface
    private interface Change {
        void apply(Collection<TopicPartition> topics) throws ClusterException;
    }

    /**
     * Applies {@code change} to {@code topics}; a failure ends the process ({@link RunFailure}), a failure of the Kafka
     * client worded as the cluster's while {@code doing} ("taking over") the partitions: a callback throws nothing.
     */
    private void reporting(String doing, Collection<TopicPartition> topics, Change change) {
        try {
            change.apply(topics);
        } catch (ClusterException e) {
            failure.fail(e);
        } catch (KafkaException e) {
            failure.fail(failure.unavailable(doing + " partitions " + Assignment.numbers(topics.stream()
                    .map(TopicPartition::partition).toList()), e));
        }
    }

    /**
     * The final checkpoint of every partition still owned, the fetchers stopped: each is quiesced (its last pages'
     * links and done markers acknowledged), snapshot and committed. A commit refused because a rebalance is under way
     * is tried again after {@code pollOnce} (a poll whose records are taken in), which completes the rebalance
     * (giving up or taking partitions as it goes).
     *
     * @throws ClusterException when the cluster failed meanwhile, or a snapshot could not be written
     */
    void handBack(Runnable pollOnce) throws ClusterException {
        for (int attempt = 1; !assignment.isEmpty(); attempt++) {
            List<OwnedPartition> owning = new ArrayList<>(assignment.all());
            quiesce(owning);
            failure.throwIfFailed(); // links not acknowledged: a checkpoint would count their pages as done
            if (checkpoints.checkpoint(owning)) {
                owning.forEach(partition -> partition.handedBack = true);
                return;
            }
            if (attempt == HAND_BACK_ATTEMPTS) {
                LOG.warn("partitions {} could not be committed at the stop; their next owner goes on from their last"
                        + " checkpoint, fetching again what they fetched since", owning.stream()
                        .map(p -> p.topic.partition()).toList());
                return;
            }
            pollOnce.run();
            failure.throwIfFailed();
        }
    }

    /** Takes over {@code topics}: each partition's frontier from its committed snapshot and done-log. */
    private void assigned(Collection<TopicPartition> topics) throws ClusterException {
        if (topics.isEmpty()) {
            return;
        }
        KafkaConsumer<byte[], byte[]> consumer = member.consumer();
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(topics),
                member.timeout());
        Map<TopicPartition, Long> ends = consumer.endOffsets(topics, member.timeout());
        List<OwnedPartition> taken = new ArrayList<>();
        for (TopicPartition topic : topics) {
            OwnedPartition partition = store.load(topic, Optional.ofNullable(committed.get(topic)), ends.get(topic));
            consumer.seek(topic, partition.position);
            assignment.add(partition);
            taken.add(partition);
        }
        checkpoints.commit(taken); // proves membership at once, and shows the new owner in status
    }

    /** Gives up {@code topics}: quiesced, checkpointed and committed, then dropped. */
    private void revoked(Collection<TopicPartition> topics) throws ClusterException {
        List<OwnedPartition> leaving = new ArrayList<>();
        for (TopicPartition topic : topics) {
            assignment.get(topic.partition()).ifPresent(leaving::add);
        }
        if (leaving.isEmpty()) {
            return;
        }
        List<OwnedPartition> changed = leaving.stream().filter(p -> !p.handedBack).toList();
        quiesce(changed);
        try {
            if (!checkpoints.checkpoint(changed)) {
                LOG.warn("partitions {} given up without a checkpoint: their next owner goes on from their last one",
                        changed.stream().map(p -> p.topic.partition()).toList());
            }
        } finally {
            for (OwnedPartition partition : leaving) {
                assignment.drop(partition);
            }
        }
        LOG.info("partitions {} given up by {}", leaving.stream().map(p -> p.topic.partition()).toList(),
                member.name());
    }

    /**
     * Hands out no new lease from {@code which} and waits for the open ones (up to {@link #QUIESCE} in all, less if
     * the cluster fails meanwhile: their links would never be acknowledged), then seals them: a lease closed after
     * that changes nothing, so the snapshot holds it and its next owner fetches it.
     */
    private void quiesce(Collection<OwnedPartition> which) {
        long deadline = System.nanoTime() + QUIESCE.toNanos();
        try {
            for (OwnedPartition partition : which) {
                partition.frontier.drain(Duration.ZERO); // no new lease from any of them from now on
            }
            for (OwnedPartition partition : which) {
                boolean closed = partition.frontier.drain(Duration.ZERO);
                while (!closed && !failure.happened() && System.nanoTime() < deadline) {
                    closed = partition.frontier.drain(QUIESCE_SLICE);
                }
                if (!closed) {
                    LOG.warn("partition {}: {} leases still open after {}; its next owner fetches them again",
                            partition.topic.partition(), partition.frontier.openLeases(),
                            !failure.happened() ? QUIESCE : "the cluster's failure");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (OwnedPartition partition : which) {
            partition.frontier.seal();
        }
    }

    /** Drops {@code topics} without a commit: this member lost them, another may own them already. */
    private void lost(Collection<TopicPartition> topics) {
        for (TopicPartition topic : topics) {
            assignment.get(topic.partition()).ifPresent(partition -> {
                partition.frontier.seal();
                assignment.drop(partition);
            });
        }
        LOG.warn("partitions {} lost by {} (not a member any more): dropped without a checkpoint", topics,
                member.name());
    }
}
