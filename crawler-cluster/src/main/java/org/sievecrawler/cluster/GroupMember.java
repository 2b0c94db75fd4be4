package org.sievecrawler.cluster;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * One cluster process as a member of its crawl's consumer group ({@link ClusterTopics#group}): the crawl, the
 * member's name (its Kafka client id, which {@code cluster status} shows as the owner of its partitions), the group's
 * consumer of {@code <crawl>.frontier}, the clock its checkpoint marks are dated by, and how long a request to the
 * cluster waits ({@code --timeout}).
 *
 * <p>The consumer is not thread-safe: the poll thread alone uses it, and the rebalance callbacks run on that thread
 * (inside {@code poll()} or {@code close()}). Out of scope: opening and closing the consumer ({@link RunClients},
 * {@link ClusterRun}).
 *
 * @param crawl the crawl
 * @param name the member's name
 * @param consumer the group's consumer of the frontier
 * @param clock dates the member's checkpoint marks
 * @param timeout how long a request to the cluster waits
 */
record GroupMember(CrawlName crawl, String name, KafkaConsumer<byte[], byte[]> consumer, Clock clock,
        Duration timeout) {
    GroupMember {
        Objects.requireNonNull(crawl, "crawl");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(timeout, "timeout");
    }

    /** The frontier topic whose partitions the group shares out: {@code <crawl>.frontier}. */
    String frontier() {
        return crawl.topic(ClusterTopics.FRONTIER);
    }
}
