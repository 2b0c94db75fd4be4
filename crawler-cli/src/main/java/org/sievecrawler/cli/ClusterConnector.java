package org.sievecrawler.cli;

import java.time.Duration;
import org.sievecrawler.cluster.ClusterAdmin;
import org.sievecrawler.cluster.ClusterException;
import org.sievecrawler.cluster.CrawlName;
import org.sievecrawler.cluster.FrontierProducer;
import org.sievecrawler.cluster.HostRoutes;
import org.sievecrawler.cluster.SeedStore;

/**
 * Where the {@code cluster} commands get their Kafka clients: the jar connects to {@code --bootstrap}; a test hands
 * out a MockAdminClient (and, overriding {@link #frontier} and {@link #seeds}, a MockProducer and MockConsumer).
 */
@FunctionalInterface
interface ClusterConnector {
    /** Connects through Kafka's Admin client. */
    ClusterConnector KAFKA = ClusterAdmin::connect;

    /**
     * An Admin client for the cluster at {@code bootstrap}, each request bounded by {@code timeout}.
     *
     * @throws IllegalArgumentException when {@code bootstrap} is not HOST:PORT[,HOST:PORT...]
     */
    ClusterAdmin connect(String bootstrap, Duration timeout) throws ClusterException;

    /**
     * A producer for the frontier of {@code crawl} on the cluster at {@code bootstrap}, each send bounded by
     * {@code timeout}; Kafka's own unless overridden.
     */
    default FrontierProducer frontier(String bootstrap, CrawlName crawl, Duration timeout, HostRoutes routes)
            throws ClusterException {
        return FrontierProducer.connect(bootstrap, crawl, timeout, routes);
    }

    /** The store of the seeds of {@code crawl} on the cluster at {@code bootstrap}; Kafka's own unless overridden. */
    default SeedStore seeds(String bootstrap, CrawlName crawl, Duration timeout) throws ClusterException {
        return SeedStore.connect(bootstrap, crawl, timeout);
    }
}
