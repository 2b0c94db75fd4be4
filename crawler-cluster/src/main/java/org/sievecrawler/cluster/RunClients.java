package org.sievecrawler.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka clients of one cluster process ({@link ClusterRun}): the group's consumer of {@code <crawl>.frontier},
 * and the producers and readers of the crawl's other topics. {@link #open} opens them all or none.
 *
 * <p>The consumer is a member of the crawl's group ({@link ClusterTopics#group}) with manual commits (the offsets are
 * committed with their checkpoint marks: {@link PartitionCheckpoints}), cooperative rebalancing (a member joining or
 * leaving moves only the partitions that change owner), the group's session timeout ({@link
 * ClusterRun#SESSION_TIMEOUT}) with a heartbeat every fifth of it, and records read as bytes (each is decoded by the {@link RecordGate}, where a bad one is skipped, not thrown out of
 * {@code poll()}).
 *
 * <p>The consumer is the poll thread's alone; the others are thread-safe. Out of scope: the settings of the
 * producers and readers ({@link ClusterClients}), closing the consumer (the member leaves the group:
 * {@link ClusterRun}).
 *
 * @param consumer the group's consumer of the frontier
 * @param links the producer of the frontier's records
 * @param markers the producer of done markers
 * @param done the reader of the done-log
 * @param states the store of the frontier partitions' snapshots
 * @param rejected the crawl's dead letters
 */
record RunClients(KafkaConsumer<byte[], byte[]> consumer, FrontierProducer links, DoneMarkers markers, DoneLog done,
        SieveStateStore states, RejectedRecords rejected) {
    private static final Logger LOG = LoggerFactory.getLogger(RunClients.class);

    /**
     * Opens the clients of process {@code member} of {@code crawl} on the cluster at {@code bootstrap}, every request
     * waiting up to {@code timeout}, links sent to the partitions of their hosts by {@code routes}, the member thrown
     * out of the group when it is silent for {@code session}. Nothing is consumed yet. The clients opened before one
     * that fails are closed.
     *
     * @throws ClusterException when a client cannot be created
     */
    static RunClients open(String bootstrap, CrawlName crawl, String member, Duration timeout, HostRoutes routes,
            Duration session) throws ClusterException {
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            FrontierProducer links = keep(opened, FrontierProducer.connect(bootstrap, crawl, timeout, routes));
            DoneMarkers markers = keep(opened, DoneMarkers.connect(bootstrap, crawl, timeout));
            DoneLog done = keep(opened, DoneLog.connect(bootstrap, crawl, timeout));
            SieveStateStore states = keep(opened, SieveStateStore.connect(bootstrap, crawl, timeout));
            RejectedRecords rejected = keep(opened, RejectedRecords.connect(bootstrap, crawl, member, timeout));
            KafkaConsumer<byte[], byte[]> consumer = keep(opened, consumer(bootstrap, crawl, member, session));
            return new RunClients(consumer, links, markers, done, states, rejected);
        } catch (ClusterException | RuntimeException e) {
            closeAll(opened);
            throw e;
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, CrawlName crawl, String member,
            Duration session) throws ClusterException {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, ClusterClients.bootstrapServers(bootstrap));
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, ClusterTopics.group(crawl));
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, member);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        properties.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) session.toMillis());
        properties.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) session.toMillis() / 5);
        // links trickle in: a fetch waits up to 50 ms for 64 KB rather than answering each record on its own
        properties.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 64 * 1024);
        properties.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        try {
            // bytes: every record is decoded by the gate, where a bad one is skipped, not thrown out of poll()
            return new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        } catch (KafkaException e) {
            throw ClusterClients.cannotConnect(bootstrap, e);
        }
    }

    /**
     * Flushes and closes the producers and readers, waiting up to {@code wait} for the records not yet acknowledged
     * (zero: none, they are dropped). The consumer is left open.
     */
    void close(Duration wait) {
        links.close(wait);
        markers.close(wait);
        done.close();
        states.close();
        rejected.close(wait);
    }

    /** Closes every client, the consumer too, as after a failed start: nothing was sent yet that must arrive. */
    void discard() {
        closeAll(List.of(links, markers, done, states, rejected, consumer));
    }

    private static <T extends AutoCloseable> T keep(List<AutoCloseable> opened, T resource) {
        opened.add(resource);
        return resource;
    }

    private static void closeAll(List<AutoCloseable> opened) {
        for (AutoCloseable resource : opened) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.debug("closing {} after a failed start: {}", resource, e.toString());
            }
        }
    }
}
