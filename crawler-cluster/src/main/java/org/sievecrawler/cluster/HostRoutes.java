package org.sievecrawler.cluster;

import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Which partition of {@code <crawl>.frontier} each host belongs to, so which process crawls it: the crawl's seed
 * hosts at the partitions {@code cluster seed} placed them on ({@link SeedPlacement}, stored in {@code <crawl>.seeds}
 * with the seeds), every other host where Kafka's default partitioner puts its key ({@link FrontierRecords#partition}:
 * murmur2 of the host, modulo the partitions). Every process of a crawl reads the same placements when it starts, so
 * every process routes a host to the same partition, and one process owns it.
 *
 * <p>A placement is written once, before the first URL of its host is sent, and never changed: a host that moved
 * would have two owners. {@code cluster seed} places hosts only on a crawl to which nothing was ever sent and no
 * process runs; later seeds of new hosts are placed where the default partitioner puts them.
 *
 * <p>Immutable and thread-safe.
 *
 * @param partitions the partitions of the crawl's topics
 * @param placed the seed hosts' partitions, by canonical host ({@link org.sievecrawler.politeness.HostKey#host})
 */
public record HostRoutes(int partitions, Map<String, Integer> placed) {
    public HostRoutes {
        if (partitions < 1) {
            throw new IllegalArgumentException("a crawl's topics have at least 1 partition, was " + partitions);
        }
        placed = Map.copyOf(placed);
        for (Map.Entry<String, Integer> entry : placed.entrySet()) {
            if (entry.getValue() < 0 || entry.getValue() >= partitions) {
                throw new IllegalArgumentException("host " + entry.getKey() + " is placed on partition "
                        + entry.getValue() + ", not one of the " + partitions + " partitions 0-" + (partitions - 1));
            }
        }
    }

    /** Routes by Kafka's default partitioner alone: no host placed. */
    public static HostRoutes hashed(int partitions) {
        return new HostRoutes(partitions, Map.of());
    }

    /**
     * The routes of a new crawl of {@code partitions} partitions whose seeds have the hosts {@code hosts} (canonical,
     * in the seeds' order): the seed hosts spread out so that the processes share them ({@link SeedPlacement}).
     */
    public static HostRoutes spread(java.util.List<String> hosts, int partitions) {
        return new HostRoutes(partitions, SeedPlacement.spread(hosts, partitions));
    }

    /** The partition of {@code host}: its placement, else Kafka's default partitioner's. */
    public int partition(String host) {
        Objects.requireNonNull(host, "host");
        Integer at = placed.get(host);
        return at != null ? at : FrontierRecords.partition(host, partitions);
    }

    /**
     * The partition a producer must name for {@code host}: its placement; empty for a host not placed, whose
     * record the producer leaves to Kafka's default partitioner (the same partition {@link #partition} says).
     */
    public OptionalInt placement(String host) {
        Integer at = placed.get(host);
        return at == null ? OptionalInt.empty() : OptionalInt.of(at);
    }
}
