package org.sievecrawler.pipeline;

import java.io.IOException;
import java.util.Optional;
import org.sievecrawler.fetch.FailureKind;
import org.sievecrawler.fetch.FetchResult;
import org.sievecrawler.fetch.RetryPolicy;
import org.sievecrawler.frontier.PageLease;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sink.PageRecords;

/**
 * The failure step of a page lease: a failed attempt is put back when the crawl cancelled it (it is ending: fetched
 * again on resume), retried after a backoff ({@link RetryPolicy}; its exchange archived first), or given up: its
 * host is then released (or found unreachable), and the step gives the record to end the lease with.
 *
 * <p>Thread-safe: immutable.
 *
 * <p>Out of scope: archiving a given-up attempt's exchange and recording it (the next steps, {@link PageSteps}).
 */
final class FailureStep {
    private final RetryPolicy retries;
    private final PageOutput output;

    FailureStep(RetryPolicy retries, PageOutput output) {
        this.retries = retries;
        this.output = output;
    }

    /**
     * What {@code failure} does with {@code lease}: empty when the lease was put back or closed for a retry, else the
     * end of a lease given up on, its request reported ended.
     *
     * @throws IOException if a retried attempt's exchange could not be archived
     */
    Optional<Ending> take(PageLease lease, FetchResult.Failure failure) throws IOException {
        if (failure.kind() == FailureKind.CANCELLED) {
            lease.putBack();
            return Optional.empty();
        }
        output.failedAttempt();
        PendingUrl task = lease.task();
        RetryPolicy.Decision next = retries.afterFailure(task.attempt(), failure.kind(), failure.retryAfter());
        if (next instanceof RetryPolicy.Retry retry) {
            output.retried();
            output.archive(failure.exchange());
            lease.retry(retry.backoff());
            return Optional.empty();
        }
        if (failure.kind().unreachable()) {
            lease.hostUnreachable(failure.kind().unreachableReason(failure.detail()));
        } else {
            lease.requestEnded();
        }
        return Optional.of(Ending.of(PageRecords.failure(task, failure, ((RetryPolicy.GiveUp) next).because())));
    }
}
