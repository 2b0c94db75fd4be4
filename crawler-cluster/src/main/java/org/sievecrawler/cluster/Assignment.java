package org.sievecrawler.cluster;

import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The frontier partitions this member of the crawl's group owns now, each as its poll thread knows it
 * ({@link OwnedPartition}): the one table the poll loop, the rebalance callbacks, the checkpoints and the
 * back-pressure read. A partition added is handed to the fetchers ({@link OwnedPartitions}); one dropped is taken
 * from them and its frontier discarded.
 *
 * <p>Not thread-safe: the poll thread alone uses it (the rebalance callbacks run on that thread). Out of scope:
 * making a partition's frontier ({@link PartitionStore#load}), leases ({@link OwnedPartitions}), commits
 * ({@link PartitionCheckpoints}).
 */
final class Assignment {
    private static final Logger LOG = LoggerFactory.getLogger(Assignment.class);

    private final Map<Integer, OwnedPartition> partitions = new HashMap<>();
    private final OwnedPartitions owned;

    /** An assignment of no partition whose partitions' frontiers the fetchers take leases from through {@code owned}. */
    Assignment(OwnedPartitions owned) {
        this.owned = Objects.requireNonNull(owned, "owned");
    }

    /** Owns {@code partition} from now on, and hands its frontier to the fetchers. */
    void add(OwnedPartition partition) {
        partitions.put(partition.topic.partition(), partition);
        owned.add(partition.topic.partition(), partition.frontier);
    }

    /** Partition {@code number} of the frontier topic; empty when this member does not own it. */
    Optional<OwnedPartition> get(int number) {
        return Optional.ofNullable(partitions.get(number));
    }

    /** Every partition owned, as a view that follows the assignment (copy it to drop partitions while going through). */
    Collection<OwnedPartition> all() {
        return partitions.values();
    }

    boolean isEmpty() {
        return partitions.isEmpty();
    }

    int size() {
        return partitions.size();
    }

    /**
     * A commit succeeded now: this member still owns what it owns, and its fetchers may take new leases
     * ({@link OwnedPartitions#proven}).
     */
    void proven() {
        owned.proven();
    }

    /** Owns {@code partition} no more: taken from the fetchers, its frontier discarded (a failure to is logged). */
    void drop(OwnedPartition partition) {
        partitions.remove(partition.topic.partition());
        owned.remove(partition.topic.partition());
        try {
            partition.frontier.discard();
        } catch (IOException e) {
            LOG.warn("partition {}: {}", partition.topic.partition(), e.getMessage());
        }
    }

    /** {@code partitions}' numbers in order, as messages list them: {@code [0, 2]}. */
    static String numbers(Collection<Integer> partitions) {
        return partitions.stream().sorted().toList().toString();
    }
}
