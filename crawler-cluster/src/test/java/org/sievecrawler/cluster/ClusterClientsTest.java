package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;

class ClusterClientsTest {
    @Test
    void bootstrapIsOneOrMoreHostPorts() {
        assertThat(ClusterClients.bootstrapServers("127.0.0.1:9092")).isEqualTo("127.0.0.1:9092");
        assertThat(ClusterClients.bootstrapServers("kafka-1:9092, kafka-2:9092")).isEqualTo("kafka-1:9092,kafka-2:9092");
        assertThat(ClusterClients.bootstrapServers("[::1]:9092")).isEqualTo("[::1]:9092");
        for (String bad : List.of("", "localhost", "localhost:", ":9092", "localhost:0", "localhost:65536",
                "localhost:x", "::1:9092", "a:1,", "a:1,,b:2")) {
            assertThatThrownBy(() -> ClusterClients.bootstrapServers(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("must be HOST:PORT")
                    .hasMessageContaining("\"" + bad + "\"");
        }
    }

    @Test
    void aFailureIsToldByItsInnermostCauseOrItsClassWhenThatHasNoMessage() {
        KafkaException wrapped = new KafkaException("Failed to construct kafka consumer",
                new KafkaException("No resolvable bootstrap urls given in bootstrap.servers"));
        assertThat(ClusterClients.rootMessage(wrapped))
                .isEqualTo("No resolvable bootstrap urls given in bootstrap.servers");
        assertThat(ClusterClients.rootMessage(new KafkaException("outer", new IllegalStateException())))
                .isEqualTo("IllegalStateException");
    }
}
