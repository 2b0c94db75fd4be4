package org.sievecrawler.frontier;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A URL the {@link Frontier} handed to one fetcher: a page of the crawl ({@link PageLease}) or a host's robots.txt
 * ({@link RobotsLease}). A lease is closed exactly once, by one of its closing methods (done with its record, to be
 * retried, put back, ...); the lease itself enforces that, as one small state machine:
 *
 * <pre>
 *   HANDED_OUT --request ended / host unreachable--> RELEASED --complete--> CLOSED
 *   HANDED_OUT --complete / retry / put back / robots rules------------> CLOSED
 * </pre>
 *
 * A method called in a state it does not leave from throws {@link IllegalStateException} naming the URL, the
 * method and the state: a second close is a bug, caught where it happens rather than as a URL counted twice or
 * never. Until it is closed, a lease counts as in flight: the crawl is not out of work, and a checkpoint saves a
 * page lease's URL to be fetched again.
 *
 * <p>Thread-safe: a lease may be closed from another thread than the one that took it (a page parsed on a parse
 * thread); transitions are atomic.
 */
public abstract sealed class Lease permits PageLease, RobotsLease {
    /** Where a lease is in its life. */
    enum State {
        /** Taken from the frontier; its host counts a request in flight. */
        HANDED_OUT,
        /** Its request ended and its host's slot is free (the page may still be parsed); not yet closed. */
        RELEASED,
        /** Closed: recorded, or back in the frontier. */
        CLOSED
    }

    final Frontier frontier;
    private final AtomicReference<State> state = new AtomicReference<>(State.HANDED_OUT);

    Lease(Frontier frontier) {
        this.frontier = frontier;
    }

    /** The URL leased. */
    public abstract String url();

    /**
     * Moves to {@code to} from one of {@code from}, returning the state left.
     *
     * @throws IllegalStateException naming the URL, {@code action} and the state, if it is in none of them
     */
    final State move(String action, State to, State... from) {
        while (true) {
            State now = state.get();
            if (Arrays.asList(from).contains(now)) {
                if (state.compareAndSet(now, to)) {
                    return now;
                }
            } else {
                throw new IllegalStateException("the lease of " + url() + " is " + now + ": it cannot " + action
                        + " (a lease is closed exactly once)");
            }
        }
    }

    /** Whether the lease is closed. */
    public final boolean isClosed() {
        return state.get() == State.CLOSED;
    }
}
