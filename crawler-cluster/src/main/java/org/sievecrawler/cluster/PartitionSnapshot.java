package org.sievecrawler.cluster;

import java.util.List;
import java.util.Objects;
import org.sievecrawler.sieve.FilterLayer;
import org.sievecrawler.sieve.PendingUrl;

/**
 * The Sieve of one frontier partition at one offset, as a checkpoint writes it to {@code <crawl>.sieve-state}
 * ({@link SieveStateStore}) and a new owner reads it back: its Bloom filter layers and the URLs it had admitted
 * and not fetched. With the done-log read from the checkpoint's {@code fetchedFrom} and the frontier replayed from
 * {@link #frontierOffset}, it rebuilds the partition's Sieve as it would have been. Bytes: {@link
 * PartitionSnapshotCodec}.
 *
 * <p>Immutable as a record (the lists are copied); the filters are the caller's: copies taken for the snapshot
 * (filter copies), not the live ones. {@link #equals} compares the filters by identity (a
 * {@code FilterLayer} has no value equality): compare two snapshots by their encoding.
 *
 * @param partition the frontier partition, and the sieve-state partition the snapshot is written to
 * @param frontierOffset the frontier offset the snapshot was taken at: the first record of the partition not in it,
 *     the offset its checkpoint commits
 * @param filters the Sieve's Bloom filter layers, oldest first
 * @param pending the URLs admitted and not fetched yet (leased ones first, to be fetched again), in order
 */
public record PartitionSnapshot(int partition, long frontierOffset, List<FilterLayer> filters,
        List<PendingUrl> pending) {
    public PartitionSnapshot {
        if (partition < 0) {
            throw new IllegalArgumentException("a snapshot's partition must be >= 0, was " + partition);
        }
        if (frontierOffset < 0) {
            throw new IllegalArgumentException("a snapshot's frontier offset must be >= 0, was " + frontierOffset);
        }
        filters = List.copyOf(Objects.requireNonNull(filters, "filters"));
        pending = List.copyOf(Objects.requireNonNull(pending, "pending"));
    }

    /** Bytes held by the filters' bit arrays. */
    public long filterBytes() {
        return filters.stream().mapToLong(FilterLayer::byteSize).sum();
    }

    /** The partition, offset and sizes, not the contents (a snapshot may hold 100,000 URLs). */
    @Override
    public String toString() {
        return "PartitionSnapshot[partition=" + partition + ", frontierOffset=" + frontierOffset + ", filters="
                + filters.size() + " (" + filterBytes() + " bytes), pending=" + pending.size() + "]";
    }
}
