/**
 * A crawl across machines on Apache Kafka: the crawl's topics ({@link org.sievecrawler.cluster.ClusterTopics}), the
 * administration that creates and checks them ({@link org.sievecrawler.cluster.ClusterAdmin}), and the routing of URLs
 * by host to the frontier's partitions ({@link org.sievecrawler.cluster.FrontierRecords},
 * {@link org.sievecrawler.cluster.FrontierProducer}).
 *
 * <p>Threading: the values here are immutable and safe for any number of threads; {@code ClusterAdmin} is for one
 * thread at a time; {@code FrontierProducer} is for any number. The single-node crawl in crawler-core knows nothing
 * of this package or of Kafka.
 */
package org.sievecrawler.cluster;
