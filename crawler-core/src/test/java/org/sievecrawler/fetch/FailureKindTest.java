package org.sievecrawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FailureKindTest {
    @Test
    void onlyConnectTimeoutAndRetryableStatusAreRetryable() {
        assertThat(Arrays.stream(FailureKind.values()).filter(FailureKind::retryable))
                .containsExactlyInAnyOrder(FailureKind.CONNECT, FailureKind.TIMEOUT, FailureKind.RETRYABLE_STATUS);
    }
}
