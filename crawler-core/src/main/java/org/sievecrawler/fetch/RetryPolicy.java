package org.sievecrawler.fetch;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileUnits;

/**
 * Whether a failed attempt is made again, and when: {@link Retry} after a backoff, or {@link GiveUp} with the words
 * the URL's record adds to the failure's detail. A failure is retried when its {@link FailureKind#retryable() kind
 * is} and fewer than {@code fetch.retries} attempts were made again already, unless the server's Retry-After asks
 * for longer than {@code politeness.max-retry-after}: trying sooner than asked would not be polite, and waiting that
 * long would hold the crawl open, so the URL is given up with "not retried: ...". The backoff is the server's
 * Retry-After when it gave one, else 1 s doubling per attempt, with ±25 % jitter.
 *
 * <p>Thread-safe: immutable; the jitter comes from {@link ThreadLocalRandom}.
 *
 * <p>Out of scope: holding the URL while it waits (the politeness scheduler) and counting attempts (the task's
 * {@code attempt}).
 */
public final class RetryPolicy {
    private static final Duration BASE_BACKOFF = Duration.ofSeconds(1);

    private final int retries;
    private final Duration maxRetryAfter;

    /** What to do after a failed attempt. */
    public sealed interface Decision permits Retry, GiveUp {
    }

    /** Try again after {@code backoff}. */
    public record Retry(Duration backoff) implements Decision {
    }

    /**
     * No more attempts; {@code because} follows the failure's detail in the record: the attempts made
     * (" (after 3 attempts)", none after the first) and why the server's wait was not waited for, or "".
     */
    public record GiveUp(String because) implements Decision {
    }

    /**
     * @param retries {@code fetch.retries}: attempts made again after the first, at most
     * @param maxRetryAfter {@code politeness.max-retry-after}: the longest Retry-After waited for
     */
    RetryPolicy(int retries, Duration maxRetryAfter) {
        this.retries = retries;
        this.maxRetryAfter = maxRetryAfter;
    }

    /** The policy of {@code profile}'s {@code fetch.retries} and {@code politeness.max-retry-after}. */
    public static RetryPolicy of(CrawlProfile profile) {
        return new RetryPolicy(profile.fetch().retries(), profile.politeness().maxRetryAfter());
    }

    /**
     * What to do after attempt {@code attempt} (0 for the first) failed with {@code kind}.
     *
     * @param retryAfter the server's Retry-After, or null when it gave none
     */
    public Decision afterFailure(int attempt, FailureKind kind, Duration retryAfter) {
        boolean retryable = kind.retryable() && attempt < retries;
        Optional<String> waitTooLong = retryable ? tooLongToWait(retryAfter, maxRetryAfter) : Optional.empty();
        if (retryable && waitTooLong.isEmpty()) {
            return new Retry(backoff(attempt, retryAfter));
        }
        String tries = attempt > 0 ? " (after " + (attempt + 1) + " attempts)" : "";
        return new GiveUp(tries + waitTooLong.map(why -> "; " + why).orElse(""));
    }

    /**
     * The wait before another attempt: Retry-After when the server gave one (no longer than
     * {@code politeness.max-retry-after}, see {@link #tooLongToWait}), else 1 s doubling per attempt, with ±25 %
     * jitter.
     */
    static Duration backoff(int attempt, Duration retryAfter) {
        if (retryAfter != null && !retryAfter.isNegative()) {
            return retryAfter;
        }
        long base = BASE_BACKOFF.toMillis() << Math.min(attempt, 10);
        double jitter = 0.75 + ThreadLocalRandom.current().nextDouble() * 0.5;
        return Duration.ofMillis(Math.round(base * jitter));
    }

    /**
     * Why a URL is not tried again when its server asks for a longer wait than {@code politeness.max-retry-after},
     * e.g. {@code not retried: Retry-After 86400s is more than politeness.max-retry-after 10m}. Empty when the wait
     * is within the cap or the server gave none.
     */
    static Optional<String> tooLongToWait(Duration retryAfter, Duration max) {
        if (retryAfter == null || retryAfter.compareTo(max) <= 0) {
            return Optional.empty();
        }
        return Optional.of("not retried: Retry-After " + retryAfter.toSeconds() + "s"
                + " is more than politeness.max-retry-after " + ProfileUnits.formatDuration(max));
    }
}
