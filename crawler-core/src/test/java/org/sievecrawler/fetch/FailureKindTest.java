package org.sievecrawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FailureKindTest {
    @Test
    void onlyConnectionFailuresTimeoutsAndRetryableStatusesAreRetryable() {
        assertThat(Arrays.stream(FailureKind.values()).filter(FailureKind::retryable))
                .containsExactlyInAnyOrder(FailureKind.REFUSED, FailureKind.NO_ROUTE, FailureKind.CONNECT_TIMEOUT,
                        FailureKind.CONNECTION_LOST, FailureKind.TIMEOUT, FailureKind.RETRYABLE_STATUS);
    }

    @Test
    void onlyFailuresToResolveOrToConnectMeanTheHostIsUnreachable() {
        assertThat(Arrays.stream(FailureKind.values()).filter(FailureKind::unreachable))
                .containsExactlyInAnyOrder(FailureKind.REFUSED, FailureKind.NO_ROUTE, FailureKind.CONNECT_TIMEOUT,
                        FailureKind.DNS, FailureKind.TLS);
        assertThat(FailureKind.REFUSED.unreachableReason()).isEqualTo("connection refused");
        assertThat(FailureKind.TIMEOUT.unreachableReason()).isNull();
    }
}
