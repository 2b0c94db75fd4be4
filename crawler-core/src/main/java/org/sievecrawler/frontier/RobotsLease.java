package org.sievecrawler.frontier;

import java.time.Duration;
import java.util.List;
import org.sievecrawler.robots.RobotsRules;
import org.sievecrawler.sieve.PendingUrl;

/**
 * A host's robots.txt handed to a fetcher before the host's first page (see {@link Lease} for the life of a lease).
 * Closed by {@link #rules} (the rules found), {@link #retry}, {@link #hostUnreachable} or {@link #putBack}. Not a page
 * of the crawl: it has no record, is not in the journal, and a resume fetches robots.txt anew.
 */
public final class RobotsLease extends Lease {
    private final PendingUrl task;

    RobotsLease(Frontier frontier, PendingUrl task) {
        super(frontier);
        this.task = task;
    }

    /** The robots.txt URL, e.g. {@code http://example.com/robots.txt}. */
    @Override
    public String url() {
        return task.url();
    }

    /** Attempts already made at this host's robots.txt (0 for the first). */
    public int attempt() {
        return task.attempt();
    }

    /** Closes the lease with the rules robots.txt gave (or the rules for its absence or failure). */
    public void rules(RobotsRules rules) {
        rules(rules, List.of());
    }

    /**
     * Closes the lease with the rules robots.txt gave and the sitemaps it named (sitemap tasks of its host), which
     * are offered to the Sieve first, so the crawl is never seen out of work in between. Like seeds, they are
     * journaled without a page that found them; a resume fetches robots.txt anew and offers them again.
     */
    public void rules(RobotsRules rules, List<PendingUrl> sitemaps) {
        move("report rules", State.CLOSED, State.HANDED_OUT);
        frontier.robotsFetched(task, rules, sitemaps);
    }

    /** Closes the lease for another attempt, no sooner than {@code backoff} from now (the host was not reached). */
    public void retry(Duration backoff) {
        move("retry", State.CLOSED, State.HANDED_OUT);
        frontier.retryRobots(task, backoff);
    }

    /** Closes the lease: the host is unreachable ({@code reason}) after the crawl's retries. */
    public void hostUnreachable(String reason) {
        move("report its host unreachable", State.CLOSED, State.HANDED_OUT);
        frontier.robotsHostUnreachable(task, reason);
    }

    /** Closes the lease without an answer (its request cancelled at the end of the crawl): asked again at once. */
    public void putBack() {
        move("be put back", State.CLOSED, State.HANDED_OUT);
        frontier.retryRobots(task, Duration.ZERO);
    }
}
