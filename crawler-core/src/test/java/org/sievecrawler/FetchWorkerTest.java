package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FetchWorkerTest {
    private static final Duration TEN_MINUTES = Duration.ofMinutes(10);

    @Test
    void waitsTheRetryAfterTheServerAsksForUpToTheCap() {
        assertThat(FetchWorker.tooLongToWait(Duration.ofMinutes(10), TEN_MINUTES)).isEmpty();
        assertThat(FetchWorker.backoff(0, Duration.ofMinutes(10))).isEqualTo(Duration.ofMinutes(10));
        assertThat(FetchWorker.tooLongToWait(null, TEN_MINUTES)).isEmpty();
    }

    @Test
    void doesNotRetryWhenTheServerAsksForLongerThanTheCap() {
        assertThat(FetchWorker.tooLongToWait(Duration.ofSeconds(86_400), TEN_MINUTES)).contains(
                "not retried: Retry-After 86400s is more than politeness.max-retry-after 10m");
        assertThat(FetchWorker.tooLongToWait(Duration.ofSeconds(1), Duration.ZERO)).contains(
                "not retried: Retry-After 1s is more than politeness.max-retry-after 0s");
    }

    @Test
    void backsOffOneSecondDoublingWithJitterWithoutRetryAfter() {
        assertThat(FetchWorker.backoff(0, null)).isBetween(Duration.ofMillis(750), Duration.ofMillis(1250));
        assertThat(FetchWorker.backoff(2, null)).isBetween(Duration.ofMillis(3000), Duration.ofMillis(5000));
    }
}
