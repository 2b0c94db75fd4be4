package org.sievecrawler.frontier;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.sievecrawler.robots.RobotsRules;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sink.PageRecord;

/**
 * A page of the crawl handed to a fetcher (see {@link Lease} for the life of a lease). Closed by one of
 * {@link #complete} (its last record written, its links admitted), {@link #retry} or {@link #putBack}. A request
 * made for it is reported with {@link #requestEnded} (or {@link #hostUnreachable}) as soon as it ends, before the
 * page is parsed, so the host's politeness delay starts then and its slot is free for the next request.
 */
public final class PageLease extends Lease {
    private final PendingUrl task;

    PageLease(Frontier frontier, PendingUrl task) {
        super(frontier);
        this.task = task;
    }

    /** The URL with its depth, referrer, attempt and redirects. */
    public PendingUrl task() {
        return task;
    }

    @Override
    public String url() {
        return task.url();
    }

    /** The robots.txt rules of its host now (allow-all when robots.txt is not respected). */
    public RobotsRules robots() {
        return frontier.rules(task.url());
    }

    /** Why its host is unreachable, if the crawl found it so: its URLs are then recorded, not fetched. */
    public Optional<String> hostDown() {
        return Optional.ofNullable(frontier.unreachableReason(task.url()));
    }

    /** The request made for it ended now: the host's politeness delay starts. */
    public void requestEnded() {
        move("end its request", State.RELEASED, State.HANDED_OUT);
        frontier.requestEnded(task);
    }

    /**
     * Its request found the host unreachable ({@code reason}, e.g. "connection refused") after the crawl's retries:
     * the host is unreachable from now on and its pending URLs are handed out at once, to be recorded as such.
     */
    public void hostUnreachable(String reason) {
        move("report its host unreachable", State.RELEASED, State.HANDED_OUT);
        frontier.hostUnreachable(task, reason);
    }

    /**
     * Closes the lease: {@code links} (the page's, or a redirect's target) are admitted as one batch, then
     * {@code record}, the URL's last, is written, then the journal notes both. If no request was reported
     * ({@link #requestEnded}), none was made (e.g. refused by robots.txt): the host's delay does not start.
     *
     * @throws IOException if the record could not be written (the crawl's output failed)
     */
    public void complete(PageRecord record, List<PendingUrl> links) throws IOException {
        State left = move("complete", State.CLOSED, State.HANDED_OUT, State.RELEASED);
        frontier.complete(this, left == State.HANDED_OUT, List.of(record), links);
    }

    /**
     * Closes the lease of a redirect whose target is out of scope: the target's record ({@code target}, a URL with
     * no lease of its own), then the redirect's own ({@code record}).
     *
     * @throws IOException if a record could not be written
     */
    public void completeWithTarget(PageRecord target, PageRecord record) throws IOException {
        State left = move("complete", State.CLOSED, State.HANDED_OUT, State.RELEASED);
        frontier.complete(this, left == State.HANDED_OUT, List.of(target, record), List.of());
    }

    /** {@link #complete(PageRecord, List)} with no links to admit. */
    public void complete(PageRecord record) throws IOException {
        complete(record, List.of());
    }

    /**
     * Closes the lease for another attempt: the URL goes back first in its host's queue, attempt raised by one, and
     * the whole host waits {@code backoff} (or its politeness delay, if longer) from now.
     */
    public void retry(Duration backoff) {
        move("retry", State.CLOSED, State.HANDED_OUT);
        frontier.retry(this, backoff);
    }

    /**
     * Closes the lease without a record: the URL was not taken after all (a limit reached, its request cancelled
     * at the end of the crawl) and goes back first in its host's queue, with no delay.
     */
    public void putBack() {
        move("be put back", State.CLOSED, State.HANDED_OUT, State.RELEASED);
        frontier.putBack(this);
    }
}
