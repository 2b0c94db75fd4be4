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

    @Test
    void givesTheDetailOfATlsFailureAsTheReasonTheHostIsUnreachableSinceItSaysWhatToDo() {
        String detail = "TLS handshake failed: unable to find a valid certification path; to trust a private CA set"
                + " fetch.trust-store";

        assertThat(FailureKind.TLS.unreachableReason(detail)).isEqualTo(detail);
        assertThat(FailureKind.REFUSED.unreachableReason("connect to 127.0.0.1:9 refused"))
                .isEqualTo("connection refused");
    }
}
