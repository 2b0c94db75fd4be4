package org.sievecrawler.cluster;

/**
 * A topic as it exists on the cluster: what {@link ClusterAdmin#describe} reads and {@link TopicCheck} compares
 * with a {@link TopicSpec}. Immutable and thread-safe.
 *
 * @param name the topic's name
 * @param partitions its number of partitions
 * @param replication the replicas of its first partition
 * @param cleanupPolicy its {@code cleanup.policy} ("delete" when the cluster reports none, Kafka's default)
 */
public record TopicState(String name, int partitions, int replication, String cleanupPolicy) {
    /** Whether the topic keeps only the last record per key. */
    public boolean compacted() {
        return TopicSpec.isCompacted(cleanupPolicy);
    }
}
