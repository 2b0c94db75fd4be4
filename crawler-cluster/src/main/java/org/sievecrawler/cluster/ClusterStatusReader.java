package org.sievecrawler.cluster;

import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * Reads where a cluster crawl stands from its cluster, changing nothing: the committed offsets and checkpoint marks
 * of its consumer group, the group's members and what each is assigned, and the end offsets of the crawl's topics,
 * made into a {@link ClusterStatus} ({@link #status}); and the two questions {@code cluster seed} asks (whether the
 * crawl is untouched, how many processes run it).
 *
 * <p>For one thread at a time, as its {@link AdminRequests}. Out of scope: whether the crawl's topics are there and
 * how many partitions its frontier has (the caller checks them first: {@link ClusterAdmin#requireCrawl}), what the
 * answers mean ({@link ClusterStatus}).
 */
final class ClusterStatusReader {
    private final AdminRequests requests;
    private final Clock clock;

    /** Reads through {@code requests}; {@code clock} dates a status (checkpoint marks' ages are measured to it). */
    ClusterStatusReader(AdminRequests requests, Clock clock) {
        this.requests = Objects.requireNonNull(requests, "requests");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Where {@code crawl}, whose frontier has {@code partitions} partitions, stands: per partition of
     * {@code <crawl>.frontier}, the committed offset of the crawl's consumer group ({@link ClusterTopics#group}) with
     * its metadata (the owner's {@link CheckpointMark}), the member it is assigned to, its end offset, and the end
     * offsets of the same partition of {@code <crawl>.fetched} and {@code <crawl>.rejected}; dated by the clock after
     * the last answer.
     *
     * <p>The committed offsets and their marks are read BEFORE the end offsets, on purpose: a mark then never
     * reports more than the end offsets read after it show, so a link produced by one owner before it reported 0
     * leases is counted in its partition's end offset and shows as not consumed (the argument in full: {@link
     * ClusterStatus#notDrained}). Read the other way round, a link produced between the two reads would be in
     * neither, and {@link ClusterStatus#drained} could be true too early.
     *
     * @throws ClusterException {@link ClusterException.Kind#UNAVAILABLE} when the cluster does not answer in time
     */
    ClusterStatus status(CrawlName crawl, int partitions) throws ClusterException {
        String frontier = crawl.topic(ClusterTopics.FRONTIER);
        String fetched = crawl.topic(ClusterTopics.FETCHED);
        String group = ClusterTopics.group(crawl);
        List<TopicPartition> frontierPartitions = partitions(frontier, partitions);
        // first the marks, then the end offsets (see above): each request is sent after the previous one's answer
        Map<TopicPartition, OffsetAndMetadata> offsets = requests.await(requests.admin().listConsumerGroupOffsets(
                Map.of(group, new ListConsumerGroupOffsetsSpec().topicPartitions(frontierPartitions)),
                new ListConsumerGroupOffsetsOptions().timeoutMs(requests.millis())).partitionsToOffsetAndMetadata(group),
                "read the committed offsets of consumer group " + group);
        Map<Integer, Long> committed = new HashMap<>();
        Map<Integer, String> metadata = new HashMap<>();
        offsets.forEach((tp, offset) -> {
            if (offset != null && tp.topic().equals(frontier)) {
                committed.put(tp.partition(), offset.offset());
                metadata.put(tp.partition(), offset.metadata());
            }
        });
        Map<Integer, String> owners = new HashMap<>();
        for (MemberDescription member : members(group)) {
            String host = member.host() == null ? "" : member.host().replaceFirst("^/", "");
            String owner = member.clientId() + (host.isEmpty() ? "" : "@" + host);
            for (TopicPartition tp : member.assignment().topicPartitions()) {
                if (tp.topic().equals(frontier)) {
                    owners.put(tp.partition(), owner);
                }
            }
        }
        Map<Integer, Long> sent = endOffsets(frontier, partitions);
        Map<Integer, Long> done = endOffsets(fetched, partitions);
        Map<Integer, Long> rejected = endOffsets(crawl.topic(ClusterTopics.REJECTED), partitions);
        return ClusterStatus.of(crawl, clock.instant(), sent, committed, metadata, owners, done, rejected);
    }

    /**
     * Whether {@code crawl} is untouched: nothing was ever sent to its frontier of {@code partitions} partitions and no
     * process is in its consumer group ({@link ClusterAdmin#untouched}).
     */
    boolean untouched(CrawlName crawl, int partitions) throws ClusterException {
        long sent = endOffsets(crawl.topic(ClusterTopics.FRONTIER), partitions).values().stream()
                .mapToLong(Long::longValue).sum();
        return sent == 0 && processes(crawl) == 0;
    }

    /** How many processes run {@code crawl} now: the members of its consumer group. */
    int processes(CrawlName crawl) throws ClusterException {
        return members(ClusterTopics.group(crawl)).size();
    }

    /** The members of consumer group {@code group}; none when the group does not exist (no process joined yet). */
    private Collection<MemberDescription> members(String group) throws ClusterException {
        try {
            ConsumerGroupDescription description = requests.await(requests.admin().describeConsumerGroups(List.of(group),
                    new DescribeConsumerGroupsOptions().timeoutMs(requests.millis())).describedGroups().get(group),
                    "describe consumer group " + group);
            return description.members();
        } catch (ClusterException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return List.of();
            }
            throw e;
        }
    }

    private Map<Integer, Long> endOffsets(String topic, int partitions) throws ClusterException {
        Map<TopicPartition, OffsetSpec> request = new LinkedHashMap<>();
        partitions(topic, partitions).forEach(tp -> request.put(tp, OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = requests.await(requests.admin().listOffsets(request,
                new ListOffsetsOptions().timeoutMs(requests.millis())).all(), "read the end offsets of topic " + topic);
        Map<Integer, Long> result = new HashMap<>();
        ends.forEach((tp, info) -> result.put(tp.partition(), info.offset()));
        return result;
    }

    private static List<TopicPartition> partitions(String topic, int partitions) {
        return java.util.stream.IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p)).toList();
    }
}
