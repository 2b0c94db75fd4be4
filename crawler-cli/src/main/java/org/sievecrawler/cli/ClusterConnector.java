package org.sievecrawler.cli;

import java.time.Duration;
import org.sievecrawler.cluster.ClusterAdmin;
import org.sievecrawler.cluster.ClusterException;

/**
 * Where the {@code cluster} commands get their Kafka Admin client: the jar connects to {@code --bootstrap}; a test
 * hands out a MockAdminClient.
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
}
