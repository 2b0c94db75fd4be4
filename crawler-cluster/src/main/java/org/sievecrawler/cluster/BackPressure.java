package org.sievecrawler.cluster;

import java.util.List;
import java.util.Objects;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * The back-pressure of a cluster process's poll loop, which never waits for fetchers: a partition with more than its
 * share of {@code sieve.max-in-memory-urls} URLs waiting in its frontier is paused, and resumed below half of it; the
 * log holds the rest. A partition's share is the bound divided among the partitions owned, at least 1,000.
 *
 * <p>Not thread-safe: the poll thread alone uses it, as the consumer. Out of scope: what a partition's frontier does
 * with the URLs it is offered (its Sieve and host queues).
 */
final class BackPressure {
    private final Consumer<byte[], byte[]> consumer;
    private final Assignment assignment;
    private final int maxInMemoryUrls;

    /** Pauses and resumes the partitions of {@code assignment} on {@code consumer}, sharing {@code maxInMemoryUrls}. */
    BackPressure(Consumer<byte[], byte[]> consumer, Assignment assignment, int maxInMemoryUrls) {
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.assignment = Objects.requireNonNull(assignment, "assignment");
        this.maxInMemoryUrls = maxInMemoryUrls;
    }

    /** Pauses each partition now over its share, resumes each paused one now under half of it. */
    void adjust() {
        int share = Math.max(1_000, maxInMemoryUrls / Math.max(1, assignment.size()));
        for (OwnedPartition partition : assignment.all()) {
            int waiting = partition.frontier.size();
            if (!partition.paused && waiting > share) {
                consumer.pause(List.of(partition.topic));
                partition.paused = true;
            } else if (partition.paused && waiting < share / 2) {
                consumer.resume(List.of(partition.topic));
                partition.paused = false;
            }
        }
    }
}
