package org.sievecrawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    private static final Duration TEN_MINUTES = Duration.ofMinutes(10);
    private final RetryPolicy twoRetries = new RetryPolicy(2, TEN_MINUTES);

    @Test
    void waitsTheRetryAfterTheServerAsksForUpToTheCap() {
        assertThat(RetryPolicy.tooLongToWait(Duration.ofMinutes(10), TEN_MINUTES)).isEmpty();
        assertThat(RetryPolicy.backoff(0, Duration.ofMinutes(10))).isEqualTo(Duration.ofMinutes(10));
        assertThat(RetryPolicy.tooLongToWait(null, TEN_MINUTES)).isEmpty();
        assertThat(twoRetries.afterFailure(0, FailureKind.RETRYABLE_STATUS, Duration.ofMinutes(10)))
                .isEqualTo(new RetryPolicy.Retry(Duration.ofMinutes(10)));
    }

    @Test
    void doesNotRetryWhenTheServerAsksForLongerThanTheCap() {
        assertThat(RetryPolicy.tooLongToWait(Duration.ofSeconds(86_400), TEN_MINUTES)).contains(
                "not retried: Retry-After 86400s is more than politeness.max-retry-after 10m");
        assertThat(RetryPolicy.tooLongToWait(Duration.ofSeconds(1), Duration.ZERO)).contains(
                "not retried: Retry-After 1s is more than politeness.max-retry-after 0s");
        assertThat(twoRetries.afterFailure(1, FailureKind.RETRYABLE_STATUS, Duration.ofSeconds(86_400)))
                .isEqualTo(new RetryPolicy.GiveUp(" (after 2 attempts); not retried: Retry-After 86400s is more than"
                        + " politeness.max-retry-after 10m"));
    }

    @Test
    void backsOffOneSecondDoublingWithJitterWithoutRetryAfter() {
        assertThat(RetryPolicy.backoff(0, null)).isBetween(Duration.ofMillis(750), Duration.ofMillis(1250));
        assertThat(RetryPolicy.backoff(2, null)).isBetween(Duration.ofMillis(3000), Duration.ofMillis(5000));
    }

    @Test
    void retriesARetryableFailureUpToFetchRetriesThenGivesUpCountingTheAttempts() {
        assertThat(twoRetries.afterFailure(0, FailureKind.TIMEOUT, null)).isInstanceOf(RetryPolicy.Retry.class);
        assertThat(twoRetries.afterFailure(1, FailureKind.TIMEOUT, null)).isInstanceOf(RetryPolicy.Retry.class);
        assertThat(twoRetries.afterFailure(2, FailureKind.TIMEOUT, null))
                .isEqualTo(new RetryPolicy.GiveUp(" (after 3 attempts)"));
    }

    @Test
    void givesUpAtOnceOnAFailureThatTryingAgainCannotMend() {
        assertThat(twoRetries.afterFailure(0, FailureKind.DNS, null)).isEqualTo(new RetryPolicy.GiveUp(""));
        assertThat(new RetryPolicy(0, TEN_MINUTES).afterFailure(0, FailureKind.TIMEOUT, null))
                .isEqualTo(new RetryPolicy.GiveUp(""));
    }
}
