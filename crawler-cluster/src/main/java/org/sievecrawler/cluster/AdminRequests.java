package org.sievecrawler.cluster;

import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.sievecrawler.profile.ProfileUnits;

/**
 * Kafka's Admin client for one cluster, every request bounded by one timeout: {@link #await} turns a request's
 * answer, its failure or its silence into a value or a {@link ClusterException} naming the cluster and what was
 * asked. What {@link ClusterAdmin} (the crawl's topics) and {@link ClusterStatusReader} (where the crawl stands) ask
 * goes through it.
 *
 * <p>Every request has the bounded timeout given to {@link #connect} (the Admin client's own
 * {@code default.api.timeout.ms}), so an unreachable cluster is a {@link ClusterException} of kind
 * {@link ClusterException.Kind#UNAVAILABLE} naming the address, after that timeout, not a hang.
 *
 * <p>For one thread at a time, as its users (its Admin client is thread-safe, its use of it is not meant to be
 * shared). Out of scope: what is asked.
 */
final class AdminRequests implements AutoCloseable {
    private final Admin admin;
    private final String bootstrap;
    private final Duration timeout;

    /** Uses {@code admin} (a test passes a MockAdminClient); {@code bootstrap} names the cluster in messages. */
    AdminRequests(Admin admin, String bootstrap, Duration timeout) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.bootstrap = Objects.requireNonNull(bootstrap, "bootstrap");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * An Admin client for the cluster at {@code bootstrap} ({@code HOST:PORT}, or several separated by commas).
     * Nothing is sent yet: an unreachable cluster shows at the first request.
     *
     * @throws IllegalArgumentException when {@code bootstrap} is not a list of HOST:PORT, naming the value
     * @throws ClusterException when the client cannot be created (e.g. no address of the hosts resolves)
     */
    static AdminRequests connect(String bootstrap, Duration timeout) throws ClusterException {
        String servers = ClusterClients.bootstrapServers(bootstrap);
        int millis = millis(timeout);
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        properties.put(AdminClientConfig.CLIENT_ID_CONFIG, "crawler-cluster-admin");
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
        try {
            return new AdminRequests(Admin.create(properties), servers, timeout);
        } catch (KafkaException e) {
            String why = ClusterClients.rootMessage(e);
            throw new ClusterException(ClusterException.Kind.UNAVAILABLE, "cannot connect to the Kafka cluster at "
                    + servers + ": " + (why.startsWith("No resolvable bootstrap urls")
                            ? "no host name of it resolves to an address (" + why + ")" : why));
        }
    }

    /** The client, to make a request with; its answer is read with {@link #await}. */
    Admin admin() {
        return admin;
    }

    /** The bootstrap servers the client talks to, as messages name the cluster. */
    String bootstrap() {
        return bootstrap;
    }

    /** How long a request waits for the cluster. */
    Duration timeout() {
        return timeout;
    }

    /** The timeout in whole milliseconds, as a request's options take it. */
    int millis() {
        return millis(timeout);
    }

    /** {@code timeout} in whole milliseconds as Kafka's int configs take it, at least 1. */
    private static int millis(Duration timeout) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
    }

    /**
     * The value of {@code future}, or the reason it has none as a ClusterException naming {@code what}: REFUSED for
     * an error Kafka will not get over by trying again, UNAVAILABLE otherwise (the cause kept).
     *
     * @throws UnknownTopic when the cluster does not know a topic asked about: a normal answer to some requests, the
     *     caller's to catch
     */
    <T> T await(KafkaFuture<T> future, String what) throws ClusterException {
        try {
            // the Admin client completes every request by its timeout; the extra wait only guards against a bug
            return future.get(timeout.toMillis() * 2 + 1000, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException(ClusterException.Kind.UNAVAILABLE, what + ": interrupted");
        } catch (java.util.concurrent.TimeoutException e) {
            throw unanswered(what);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UnknownTopicOrPartitionException) {
                throw new UnknownTopic(cause.getMessage());
            }
            if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw unanswered(what);
            }
            ClusterException.Kind kind = cause instanceof ApiException && !(cause instanceof RetriableException)
                    ? ClusterException.Kind.REFUSED : ClusterException.Kind.UNAVAILABLE;
            ClusterException failure = new ClusterException(kind, what + ": the Kafka cluster at " + bootstrap
                    + " answered: " + ClusterClients.rootMessage(cause));
            failure.initCause(cause);
            throw failure;
        }
    }

    private ClusterException unanswered(String what) {
        return new ClusterException(ClusterException.Kind.UNAVAILABLE, "no answer from the Kafka cluster at "
                + bootstrap + " within " + ProfileUnits.formatDuration(timeout) + " (" + what + "): is a broker running there and"
                + " reachable from here? (a local one: crawler-cluster/kafka-local.sh start)");
    }

    /** Closes the Admin client, waiting at most the timeout for requests in flight. */
    @Override
    public void close() {
        admin.close(timeout);
    }

    /** A topic the cluster does not know: a normal answer to describe, kept apart from failures. */
    static final class UnknownTopic extends RuntimeException {
        UnknownTopic(String message) {
            super(message, null, false, false);
        }
    }
}
