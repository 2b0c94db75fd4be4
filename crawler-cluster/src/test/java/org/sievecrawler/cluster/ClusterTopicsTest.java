package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterTopicsTest {
    private static final CrawlName CRAWL = new CrawlName("docs");

    @Test
    void aCrawlHasAFrontierAFetchedLogACompactedSieveStateItsDeadLettersAndItsSeeds() {
        ClusterTopics topics = new ClusterTopics(CRAWL, 12, (short) 1);

        assertThat(topics.all()).extracting(TopicSpec::name)
                .containsExactly("docs.frontier", "docs.fetched", "docs.sieve-state", "docs.rejected", "docs.seeds")
                .isEqualTo(ClusterTopics.names(CRAWL));
        assertThat(topics.all()).allMatch(t -> t.replication() == 1);
        assertThat(topics.all()).extracting(TopicSpec::partitions).containsExactly(12, 12, 12, 12, 1);
        assertThat(topics.seeds().configs()).as("one small partition, read whole by every process")
                .isEqualTo(Map.of("cleanup.policy", "compact", "min.insync.replicas", "1"));
        assertThat(topics.frontier().configs())
                .isEqualTo(Map.of("cleanup.policy", "delete", "retention.ms", "-1", "min.insync.replicas", "1"));
        assertThat(topics.fetched().configs()).isEqualTo(topics.frontier().configs());
        assertThat(topics.sieveState().configs())
                .isEqualTo(Map.of("cleanup.policy", "compact", "min.insync.replicas", "1"));
        assertThat(topics.rejected().configs()).as("kept for the broker's retention")
                .isEqualTo(Map.of("cleanup.policy", "delete", "min.insync.replicas", "1"));
        assertThat(topics.sieveState().compacted()).isTrue();
        assertThat(topics.frontier().compacted()).isFalse();
    }

    @Test
    void defaultsAreTwelvePartitionsAndReplicationOne() {
        assertThat(ClusterTopics.of(CRAWL)).isEqualTo(new ClusterTopics(CRAWL, 12, (short) 1));
    }

    @Test
    void productionReplicationThreeWantsTwoInSyncReplicas() {
        assertThat(ClusterTopics.minInSyncReplicas((short) 1)).isEqualTo(1);
        assertThat(ClusterTopics.minInSyncReplicas((short) 2)).isEqualTo(1);
        assertThat(ClusterTopics.minInSyncReplicas((short) 3)).isEqualTo(2);
        assertThat(new ClusterTopics(CRAWL, 12, (short) 3).sieveState().configs())
                .containsEntry("min.insync.replicas", "2");
    }

    @Test
    void refusesPartitionsAndReplicationOutOfRangeNamingTheValue() {
        assertThatThrownBy(() -> new ClusterTopics(CRAWL, 0, (short) 1))
                .hasMessage("partitions must be between 1 and 10000: 0");
        assertThatThrownBy(() -> new ClusterTopics(CRAWL, 10_001, (short) 1))
                .hasMessage("partitions must be between 1 and 10000: 10001");
        assertThatThrownBy(() -> new ClusterTopics(CRAWL, 12, (short) 0))
                .hasMessage("replication must be at least 1: 0");
    }

    @Test
    void readsCompactionFromACleanupPolicyList() {
        assertThat(TopicSpec.isCompacted("compact")).isTrue();
        assertThat(TopicSpec.isCompacted("compact,delete")).isTrue();
        assertThat(TopicSpec.isCompacted("delete, compact")).isTrue();
        assertThat(TopicSpec.isCompacted("delete")).isFalse();
    }
}
