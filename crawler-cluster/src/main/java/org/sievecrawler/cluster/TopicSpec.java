package org.sievecrawler.cluster;

import java.util.Map;
import java.util.Objects;

/**
 * One topic of a cluster crawl as {@link ClusterTopics} designs it: its name, what it is for, its partitions,
 * replication factor and the topic configs it is created with. {@link #cleanupPolicy()} is the config an existing
 * topic must match too (with the partitions); the others are set at creation only.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name the topic's name, {@code <crawl>.<role>}
 * @param purpose what the crawl keeps in it, one line
 * @param partitions the number of partitions
 * @param replication the replication factor
 * @param configs the topic configs it is created with ({@code cleanup.policy} among them)
 */
public record TopicSpec(String name, String purpose, int partitions, short replication, Map<String, String> configs) {
    /** The topic config that says whether a topic is compacted ("compact") or deletes old segments ("delete"). */
    public static final String CLEANUP_POLICY = "cleanup.policy";

    public TopicSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(purpose, "purpose");
        configs = Map.copyOf(configs);
        if (!configs.containsKey(CLEANUP_POLICY)) {
            throw new IllegalArgumentException("topic " + name + " needs a " + CLEANUP_POLICY);
        }
    }

    /** "compact" or "delete". */
    public String cleanupPolicy() {
        return configs.get(CLEANUP_POLICY);
    }

    /** Whether the topic keeps only the last record per key. */
    public boolean compacted() {
        return isCompacted(cleanupPolicy());
    }

    /** Whether a {@code cleanup.policy} value ("compact", "delete" or "compact,delete") compacts. */
    static boolean isCompacted(String cleanupPolicy) {
        for (String policy : cleanupPolicy.split(",")) {
            if (policy.trim().equals("compact")) {
                return true;
            }
        }
        return false;
    }
}
