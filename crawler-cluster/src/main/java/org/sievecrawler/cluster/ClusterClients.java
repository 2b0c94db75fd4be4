package org.sievecrawler.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;

/**
 * How a cluster crawl configures its Kafka producers and consumers, once for every class that connects
 * ({@link FrontierProducer}, {@link DoneMarkers}, {@link SieveStateStore}, {@link DoneLog}), how the cluster's address
 * is checked ({@link #bootstrapServers}), and how a failed send is classified and told ({@link #rootMessage}).
 *
 * <p>Producers: {@code acks=all} and {@code enable.idempotence=true} (an acknowledged record is on every in-sync
 * replica, a retried batch is not written twice, and records sent to one partition stay in their order), batched
 * ({@code linger.ms=}{@value #LINGER_MS}, {@code batch.size=}{@value #BATCH_BYTES}; a record larger than a batch,
 * such as a snapshot's chunk, goes in a batch of its own). Consumers: assigned partitions, no group and no commits
 * ({@code enable.auto.commit=false}), and {@code auto.offset.reset=none}, so that seeking to an offset the log no
 * longer has is an error rather than a silent jump. Both bound every wait by the timeout given.
 *
 * <p>Pure functions. Out of scope: the consumer group of {@code cluster run} ({@link RunClients}) and the Admin
 * client ({@link ClusterAdmin}).
 */
public final class ClusterClients {
    /** How long a producer waits to fill a batch, in milliseconds: a page's outlinks go out in a few requests. */
    static final int LINGER_MS = 20;
    /** The most bytes of records per partition in one batch: about 1,000 URLs. */
    static final int BATCH_BYTES = 128 * 1024;

    private ClusterClients() {
    }

    /**
     * Checks {@code bootstrap} is a comma-separated list of {@code HOST:PORT} ({@code [IPv6]:PORT} too) and returns
     * it without spaces.
     *
     * @throws IllegalArgumentException naming the rule and the value
     */
    public static String bootstrapServers(String bootstrap) {
        Objects.requireNonNull(bootstrap, "bootstrap");
        List<String> servers = new ArrayList<>();
        for (String server : bootstrap.split(",", -1)) {
            String s = server.strip();
            int colon = s.lastIndexOf(':');
            String host = colon < 0 ? "" : s.substring(0, colon);
            String port = colon < 0 ? "" : s.substring(colon + 1);
            if (host.isEmpty() || !port.matches("[0-9]{1,5}") || Integer.parseInt(port) < 1
                    || Integer.parseInt(port) > 65535 || host.contains(":") && !host.matches("\\[[0-9a-fA-F:.]+]")) {
                throw new IllegalArgumentException("must be HOST:PORT (several separated by commas), the port in 1-65535: \""
                        + bootstrap + "\"" + (bootstrap.contains(",") ? " (at \"" + s + "\")" : ""));
            }
            servers.add(s);
        }
        return String.join(",", servers);
    }

    /**
     * The message of the innermost cause of {@code e} (its class's simple name when it has none): what a Kafka
     * client's failure says to the user, without the wrappers around it.
     */
    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String message = t.getMessage();
        return message == null ? t.getClass().getSimpleName() : message;
    }

    /**
     * The settings of a producer for the cluster at {@code servers} ({@link #bootstrapServers}):
     * {@code timeout} bounds how long a send waits for metadata or buffer space, and how long a record may take to
     * be acknowledged, retries included.
     */
    static Properties producer(String servers, String clientId, Duration timeout) {
        int millis = (int) Math.min(Integer.MAX_VALUE / 2, Math.max(1, timeout.toMillis()));
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        properties.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        properties.put(ProducerConfig.LINGER_MS_CONFIG, LINGER_MS);
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, BATCH_BYTES);
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, millis);
        properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
        // Kafka requires delivery.timeout.ms >= linger.ms + request.timeout.ms
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, millis + LINGER_MS);
        return properties;
    }

    /**
     * The settings of a consumer of assigned partitions, without a group, for the cluster at {@code servers}:
     * {@code timeout} bounds each request (offsets, metadata, a fetch).
     */
    static Properties consumer(String servers, String clientId, Duration timeout) {
        int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        properties.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        properties.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
        return properties;
    }

    /** The failure to create a client for {@code servers}: the cluster is unavailable from here. */
    static ClusterException cannotConnect(String servers, KafkaException e) {
        return new ClusterException(ClusterException.Kind.UNAVAILABLE, "cannot connect to the Kafka cluster at "
                + servers + ": " + rootMessage(e));
    }

    /**
     * What a failed send or read means: {@link ClusterException.Kind#UNAVAILABLE} when the cluster did not answer,
     * a retriable error outlasted the timeout or the wait was interrupted; {@link ClusterException.Kind#REFUSED}
     * otherwise (a missing topic or partition, a record refused).
     */
    static ClusterException.Kind kind(Throwable e) {
        return e instanceof RetriableException || e instanceof InterruptException
                ? ClusterException.Kind.UNAVAILABLE : ClusterException.Kind.REFUSED;
    }

    /**
     * Waits until every record {@code producer} was given is acknowledged or has failed ({@code sent}: what they
     * are, e.g. "the URLs sent to topic t"); a send's own failure is the caller's to check after.
     *
     * @throws ClusterException UNAVAILABLE when the wait was interrupted (the interrupt flag is kept) or failed
     */
    static void flush(Producer<?, ?> producer, String sent) throws ClusterException {
        try {
            producer.flush();
        } catch (InterruptException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException(ClusterException.Kind.UNAVAILABLE, "waiting for the cluster to acknowledge "
                    + sent + " was interrupted");
        } catch (KafkaException e) {
            throw new ClusterException(ClusterException.Kind.UNAVAILABLE, "waiting for the cluster to acknowledge "
                    + sent + " failed: " + rootMessage(e));
        }
    }

    /**
     * A read of {@code what} that failed with {@code e}: interrupted (the interrupt flag is set again) or failed, of
     * the kind {@link #kind} says.
     */
    static ClusterException readFailed(String what, KafkaException e) {
        if (e instanceof InterruptException) {
            Thread.currentThread().interrupt();
            return new ClusterException(ClusterException.Kind.UNAVAILABLE, "reading " + what + " was interrupted");
        }
        return new ClusterException(kind(e), "reading " + what + " failed: " + rootMessage(e));
    }
}
