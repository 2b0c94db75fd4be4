/**
 * A crawl across machines on Apache Kafka. {@link org.sievecrawler.cluster.ClusterRun} is one process of it (the
 * composition root and the poll loop: a consumer-group member with a frontier per owned partition, the partitions it
 * owns in an {@link org.sievecrawler.cluster.Assignment}, taken over and given up by the {@link
 * org.sievecrawler.cluster.Rebalance} callbacks, checkpointed and committed by {@link
 * org.sievecrawler.cluster.PartitionCheckpoints}, paused by {@link org.sievecrawler.cluster.BackPressure}; {@link
 * org.sievecrawler.cluster.OwnedPartitions} for its fetchers, {@link org.sievecrawler.cluster.PartitionOutbox} for
 * its links and done markers, {@link org.sievecrawler.cluster.PartitionStore} for a partition's snapshots and
 * takeover). Around it: the crawl's topics ({@link org.sievecrawler.cluster.ClusterTopics}), the
 * administration that creates and checks them ({@link org.sievecrawler.cluster.ClusterAdmin}; where a crawl stands:
 * {@link org.sievecrawler.cluster.ClusterStatusReader}, {@link org.sievecrawler.cluster.ClusterStatus}), the crawl's seeds
 * stored in the cluster ({@link org.sievecrawler.cluster.SeedStore}), the routing of URLs by host to the frontier's
 * partitions ({@link org.sievecrawler.cluster.HostRoutes}: the seed hosts where
 * {@link org.sievecrawler.cluster.SeedPlacement} put them, the others by Kafka's partitioner;
 * {@link org.sievecrawler.cluster.FrontierRecords}, {@link org.sievecrawler.cluster.FrontierProducer}), and what a partition's new owner reads to take it over: the
 * snapshot of its Sieve ({@link org.sievecrawler.cluster.SieveStateStore}) and the done-log
 * ({@link org.sievecrawler.cluster.DoneMarkers} writes it, {@link org.sievecrawler.cluster.DoneLog} reads it). Every
 * record read is untrusted input: it passes the rules of {@link org.sievecrawler.cluster.RecordCheck}, and one refused
 * is skipped, counted and copied to the crawl's dead letters ({@link org.sievecrawler.cluster.RejectedRecords}).
 *
 * <p>Threading: the values here are immutable and safe for any number of threads; {@code ClusterAdmin} is for one
 * thread at a time; {@code FrontierProducer}, {@code DoneMarkers}, {@code SieveStateStore}, {@code DoneLog} and
 * {@code SeedStore} are for any number (the last three serialize their reads, SeedStore its writes too);
 * {@code ClusterRun} uses its Kafka consumer on the thread that runs it (so do its parts, the rebalance callbacks
 * included), and its fetchers on their own threads. The
 * single-node crawl in crawler-core knows nothing of this package or of Kafka.
 */
package org.sievecrawler.cluster;
