package org.sievecrawler.cluster;

import java.lang.reflect.Constructor;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.MemberAssignment;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.MockAdminClient;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.internals.CoordinatorKey;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.internals.KafkaFutureImpl;

/**
 * Kafka's {@link MockAdminClient} with what it lacks for {@link ClusterAdmin#status}: consumer groups that can be
 * described (with the members a test sets; none set: the group does not exist), committed offsets that carry
 * metadata (MockAdminClient keeps offsets only), and an end offset of 0 for each partition of a topic it creates
 * (MockAdminClient has none until a test sets one). One broker, 127.0.0.1:9092. Used by this module's tests and by
 * crawler-cli's (through the test jar).
 *
 * <p>Thread-safe as MockAdminClient (synchronized). Out of scope: more than one group at a time (every group asked
 * about has the same members and offsets).
 */
public class MockCluster extends MockAdminClient {
    /** The one broker. */
    public static final Node BROKER = new Node(0, "127.0.0.1", 9092);

    private List<MemberDescription> members;
    private final Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();

    public MockCluster() {
        super(List.of(BROKER), BROKER);
    }

    /** Creates the topics as MockAdminClient does, each partition's end offset 0 until a test sets another. */
    @Override
    public synchronized CreateTopicsResult createTopics(Collection<NewTopic> newTopics, CreateTopicsOptions options) {
        Map<TopicPartition, Long> ends = new HashMap<>();
        for (NewTopic topic : newTopics) {
            for (int p = 0; p < topic.numPartitions(); p++) {
                ends.put(new TopicPartition(topic.name(), p), 0L);
            }
        }
        CreateTopicsResult result = super.createTopics(newTopics, options);
        updateEndOffsets(ends);
        return result;
    }

    /** A member {@code clientId} on {@code host} (as Kafka writes it, e.g. "/10.0.0.1") assigned {@code assigned}. */
    public static MemberDescription member(String clientId, String host, TopicPartition... assigned) {
        return new MemberDescription(clientId + "-id", Optional.empty(), clientId, host,
                new MemberAssignment(Set.of(assigned)));
    }

    /** Sets the group's members (an empty list: the group exists, empty). */
    public synchronized void members(List<MemberDescription> members) {
        this.members = List.copyOf(members);
    }

    /** Makes the group not exist (as before the first member joined). */
    public synchronized void noGroup() {
        this.members = null;
    }

    /** Commits {@code offset} with {@code metadata} for {@code partition}, as a group member's commit does. */
    public synchronized void commit(TopicPartition partition, long offset, String metadata) {
        commits.put(partition, new OffsetAndMetadata(offset, metadata));
    }

    @Override
    public synchronized DescribeConsumerGroupsResult describeConsumerGroups(Collection<String> groupIds,
            DescribeConsumerGroupsOptions options) {
        Map<String, KafkaFuture<ConsumerGroupDescription>> futures = new HashMap<>();
        for (String group : groupIds) {
            KafkaFutureImpl<ConsumerGroupDescription> future = new KafkaFutureImpl<>();
            if (members == null) {
                future.completeExceptionally(new GroupIdNotFoundException("Group " + group + " not found."));
            } else {
                future.complete(new ConsumerGroupDescription(group, false, members, "range", GroupType.CLASSIC,
                        members.isEmpty() ? GroupState.EMPTY : GroupState.STABLE, BROKER, Set.of(), Optional.empty(),
                        Optional.empty()));
            }
            futures.put(group, future);
        }
        return new DescribeConsumerGroupsResult(futures);
    }

    /**
     * The offsets {@link #commit} set, with their metadata, and those {@link #updateConsumerGroupOffsets} set (no
     * metadata) where no commit was made.
     */
    @Override
    public synchronized ListConsumerGroupOffsetsResult listConsumerGroupOffsets(
            Map<String, ListConsumerGroupOffsetsSpec> groupSpecs, ListConsumerGroupOffsetsOptions options) {
        Map<TopicPartition, OffsetAndMetadata> plain;
        try {
            plain = super.listConsumerGroupOffsets(groupSpecs, options).partitionsToOffsetAndMetadata().get();
        } catch (Exception e) {
            throw new IllegalStateException("MockAdminClient's offsets: " + e, e);
        }
        Map<CoordinatorKey, KafkaFuture<Map<TopicPartition, OffsetAndMetadata>>> futures = new HashMap<>();
        for (Map.Entry<String, ListConsumerGroupOffsetsSpec> spec : groupSpecs.entrySet()) {
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>(plain);
            commits.forEach((tp, offset) -> {
                Collection<TopicPartition> asked = spec.getValue().topicPartitions();
                if (asked == null || asked.contains(tp)) {
                    offsets.put(tp, offset);
                }
            });
            futures.put(CoordinatorKey.byGroupId(spec.getKey()), KafkaFuture.completedFuture(offsets));
        }
        return offsetsResult(futures);
    }

    /** The result's constructor is package-private in Kafka: reached by reflection, for this test double only. */
    private static ListConsumerGroupOffsetsResult offsetsResult(
            Map<CoordinatorKey, KafkaFuture<Map<TopicPartition, OffsetAndMetadata>>> futures) {
        try {
            Constructor<ListConsumerGroupOffsetsResult> constructor = ListConsumerGroupOffsetsResult.class
                    .getDeclaredConstructor(Map.class);
            constructor.setAccessible(true);
            return constructor.newInstance(futures);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("kafka-clients' ListConsumerGroupOffsetsResult(Map) changed: " + e, e);
        }
    }
}
