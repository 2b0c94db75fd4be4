package org.sievecrawler.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The Kafka topics of one cluster crawl, as {@code crawler cluster init} creates them (never auto-created):
 * <ul>
 *   <li>{@code <crawl>.frontier}: URLs to crawl, keyed by canonical host, so Kafka's default partitioner puts every
 *       URL of a host in one partition and one process owns the host (politeness stays exact). Its P partitions
 *       are fixed for the crawl's life: another P would move hosts between partitions.</li>
 *   <li>{@code <crawl>.fetched}: the done-log, co-partitioned with the frontier (same P, same key), so the owner
 *       of frontier partition i finds what is done in fetched partition i.</li>
 *   <li>{@code <crawl>.sieve-state}: snapshots of each partition's Sieve, in sieve-state partition i for frontier
 *       partition i, in chunks of at most 512 KiB (under Kafka's default largest record, about 1 MB, so the topic
 *       needs no {@code max.message.bytes} of its own) keyed {@code <snapshot id>/<chunk>/<chunks>}
 *       ({@link SieveStateStore}); compacted ({@code cleanup.policy=compact}), so a snapshot stays until its
 *       tombstones, written once a newer one is committed, remove it.</li>
 *   <li>{@code <crawl>.rejected}: the dead letters, a copy of each record of the other topics a process refused as
 *       bad ({@link RejectedRecords}), in the partition of the source's number, for an operator to inspect; kept for
 *       the broker's retention (7 days by default): evidence, not the crawl's state.</li>
 *   <li>{@code <crawl>.seeds}: the crawl's seeds as {@code cluster seed} sent them, one record per seed keyed by its
 *       URL, whose value is the partition of its host ({@link SeedStore}): every {@code cluster run} reads them when
 *       it starts, for the scope ({@code scope.hosts: same-as-seeds}) and the routing of the seed hosts
 *       ({@link HostRoutes}). One partition, compacted, so it is small and read whole.</li>
 * </ul>
 * The frontier and the done-log are the crawl's state (a takeover replays them), so they are kept for as long as
 * the crawl ({@code retention.ms=-1}), not Kafka's default 7 days, after which a paused crawl would lose URLs.
 * Every topic gets {@code min.insync.replicas} from {@link #minInSyncReplicas}: 2 at replication 3 (production),
 * 1 below it.
 *
 * The crawl's processes consume the frontier as one Kafka consumer group, {@link #group}: {@code <crawl>.crawlers}.
 *
 * <p>Immutable and thread-safe. Creating and checking the topics on a cluster is {@link ClusterAdmin}'s.
 *
 * @param crawl the crawl's name, the topics' prefix
 * @param partitions P, the partitions of every topic but {@code <crawl>.seeds} (1)
 * @param replication R, the replication factor of every topic
 */
public record ClusterTopics(CrawlName crawl, int partitions, short replication) {
    /** The partitions of a crawl's topics unless told otherwise. */
    public static final int DEFAULT_PARTITIONS = 12;
    /** The replication factor unless told otherwise: 1, for one local broker; 3 in production. */
    public static final short DEFAULT_REPLICATION = 1;
    /** The most partitions a crawl may ask for: far beyond the processes one crawl runs, a guard against typos. */
    public static final int MAX_PARTITIONS = 10_000;

    public static final String FRONTIER = ".frontier";
    public static final String FETCHED = ".fetched";
    public static final String SIEVE_STATE = ".sieve-state";
    public static final String REJECTED = ".rejected";
    public static final String SEEDS = ".seeds";
    static final int LONGEST_SUFFIX = SIEVE_STATE.length();
    /** The suffix of the crawl's consumer group id. */
    public static final String CRAWLERS = ".crawlers";

    /** Refuses a partition count or replication factor out of range, naming the option and the value. */
    public ClusterTopics {
        Objects.requireNonNull(crawl, "crawl");
        if (partitions < 1 || partitions > MAX_PARTITIONS) {
            throw new IllegalArgumentException("partitions must be between 1 and " + MAX_PARTITIONS + ": "
                    + partitions);
        }
        if (replication < 1) {
            throw new IllegalArgumentException("replication must be at least 1: " + replication);
        }
    }

    /** The topics of {@code crawl} with the default partitions and replication. */
    public static ClusterTopics of(CrawlName crawl) {
        return new ClusterTopics(crawl, DEFAULT_PARTITIONS, DEFAULT_REPLICATION);
    }

    /**
     * The replicas that must have a write before it is acknowledged (producers send with {@code acks=all}):
     * 2 from replication 3 on, so one broker may be lost without losing an acknowledged write or stopping writes;
     * 1 below (at replication 2, a minimum of 2 would stop every write while one broker is down).
     */
    public static int minInSyncReplicas(short replication) {
        return replication >= 3 ? 2 : 1;
    }

    /** The URLs to crawl, keyed by canonical host. */
    public TopicSpec frontier() {
        return spec(FRONTIER, "URLs to crawl, keyed by canonical host", partitions, "delete", true);
    }

    /** The done-log, co-partitioned with the frontier. */
    public TopicSpec fetched() {
        return spec(FETCHED, "URLs done, co-partitioned with the frontier", partitions, "delete", true);
    }

    /** Snapshots of each partition's Sieve, in chunks keyed by snapshot; compacted. */
    public TopicSpec sieveState() {
        return spec(SIEVE_STATE, "Sieve snapshots, in chunks keyed by snapshot", partitions, "compact", false);
    }

    /** The dead letters: copies of the records refused as bad, by the source's partition. */
    public TopicSpec rejected() {
        return spec(REJECTED, "copies of records refused as bad, for inspection", partitions, "delete", false);
    }

    /** The crawl's seeds and their hosts' partitions, read by every process when it starts; compacted. */
    public TopicSpec seeds() {
        return spec(SEEDS, "the crawl's seeds, by URL, with their hosts' partitions", 1, "compact", false);
    }

    /** The five topics, in the order above. */
    public List<TopicSpec> all() {
        return List.of(frontier(), fetched(), sieveState(), rejected(), seeds());
    }

    /** The names of the five topics, in the order above. */
    public static List<String> names(CrawlName crawl) {
        return List.of(crawl.topic(FRONTIER), crawl.topic(FETCHED), crawl.topic(SIEVE_STATE), crawl.topic(REJECTED),
                crawl.topic(SEEDS));
    }

    /**
     * The id of the consumer group the crawl's processes ({@code cluster run}) join to share the frontier's
     * partitions, {@code <crawl>.crawlers}: Kafka assigns each partition, so each host, to one member, and moves a
     * departed member's partitions to the others. Its committed offsets are what {@code cluster status} reports as
     * consumed. (A group id has no character rules; this one is a legal topic name too, like the crawl's topics.)
     */
    public static String group(CrawlName crawl) {
        return crawl.topic(CRAWLERS);
    }

    private TopicSpec spec(String suffix, String purpose, int partitions, String cleanupPolicy, boolean keptForever) {
        Map<String, String> configs = new LinkedHashMap<>();
        configs.put(TopicSpec.CLEANUP_POLICY, cleanupPolicy);
        configs.put("min.insync.replicas", Integer.toString(minInSyncReplicas(replication)));
        if (keptForever) {
            configs.put("retention.ms", "-1");
        }
        return new TopicSpec(crawl.topic(suffix), purpose, partitions, replication, configs);
    }
}
