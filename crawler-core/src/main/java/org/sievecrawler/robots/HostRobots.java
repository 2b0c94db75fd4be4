package org.sievecrawler.robots;

import java.time.Duration;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.sieve.PendingUrl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One host's robots.txt through a crawl, when robots.txt is respected: the host's first task is its robots.txt, and
 * no page of it goes before the rules are known ({@link #due}); the rules then hold for 24 hours, after which
 * robots.txt is fetched again. An unavailable robots.txt (a 5xx, a timeout: {@link RobotsRules.Kind#UNREACHABLE}) is
 * fetched again after {@code politeness.robots-retry}, doubling, three attempts in all; then the crawl gives up on it
 * and its rules say "unavailable", so the host's pages are handed out and recorded as refused. One that could not
 * reach its host is fetched again after the crawl's backoff ({@link #retry}), not after {@code robots-retry}: a
 * refused connection is not a server in trouble that needs minutes. A host found unreachable needs no robots.txt any
 * more ({@link #hostUnreachable}). With robots.txt not respected, nothing is due and everything is allowed.
 *
 * <pre>
 *   UNKNOWN --start--> FETCHING --fetched(rules)--> READY --24 h--> UNKNOWN
 *                               --fetched(unavailable)--> FAILED --retry time--> FETCHING ... (3rd time) --> GAVE_UP
 *                               --retry(backoff)--> FAILED
 * </pre>
 *
 * <p>Not thread-safe: the {@code HostScheduler} that holds a host's guards it with its lock, and asks it what the host
 * may do: whether its next task is robots.txt, when that may start, and whether pages wait for it.
 *
 * <p>Out of scope: when the host's requests may go (the scheduler's queues, politeness delay and connection limit),
 * fetching robots.txt ({@link RobotsFetcher}) and reading it ({@link RobotsPolicy}).
 */
public final class HostRobots {
    private static final Logger LOG = LoggerFactory.getLogger(HostRobots.class);
    /** How long the rules of a robots.txt hold before it is fetched again. */
    static final Duration TTL = Duration.ofHours(24);
    /** Attempts at an unavailable robots.txt before the crawl gives up on it. */
    static final int ATTEMPTS = 3;
    /** The rules of every host when robots.txt is not respected. */
    public static final RobotsRules NOT_RESPECTED = RobotsRules.allowAll("politeness.respect-robots is false");
    /** A time of rules that never expire: no robots.txt is due again. */
    private static final long FOREVER = Long.MAX_VALUE / 2;

    private final String hostKey;
    private final PolitenessConfig config;
    /** Where starts and expiries are counted; null for none. */
    private final RobotsCache counts;
    private State state = State.UNKNOWN;
    private RobotsRules rules;
    private long fetchedAt;
    private long retryAt;
    private int failures;

    private enum State {
        UNKNOWN, FETCHING, READY, FAILED, GAVE_UP
    }

    /**
     * The robots.txt of the host {@code hostKey} (scheme, host and port), not fetched yet; with robots.txt not
     * respected ({@code politeness.respect-robots}), one that is never due and allows everything.
     */
    public HostRobots(String hostKey, PolitenessConfig config) {
        this(hostKey, config, null);
    }

    /** As {@link #HostRobots(String, PolitenessConfig)}, its requests and expiries counted in {@code counts}. */
    HostRobots(String hostKey, PolitenessConfig config, RobotsCache counts) {
        this.hostKey = hostKey;
        this.config = config;
        this.counts = counts;
        if (!config.respectRobots()) {
            state = State.READY;
            rules = NOT_RESPECTED;
            fetchedAt = FOREVER;
        }
    }

    /** The robots.txt URL of a host key, e.g. {@code https://example.org/robots.txt}. */
    public static String url(String hostKey) {
        return hostKey + "/robots.txt";
    }

    /**
     * The rules of a host whose robots.txt is not fetched yet, for a page of it asked about: unavailable, so nothing is
     * allowed.
     */
    public static RobotsRules notFetchedYet(String hostKey) {
        return RobotsRules.unreachable("robots.txt of " + hostKey + " not fetched yet");
    }

    /**
     * Whether the host's next task is its robots.txt, or robots.txt is being fetched, at {@code now} (epoch ms): not
     * fetched yet, failed and to be tried again, or its rules expired (which makes them unknown from now on).
     */
    public boolean due(long now) {
        if (!config.respectRobots()) {
            return false;
        }
        switch (state) {
            case UNKNOWN:
            case FAILED:
            case FETCHING:
                return true;
            case READY:
                if (now - fetchedAt >= TTL.toMillis()) {
                    state = State.UNKNOWN;
                    if (counts != null) {
                        counts.expired();
                    }
                    return true;
                }
                return false;
            default:
                return false;
        }
    }

    /** Whether rules fetched 24 hours or more before {@code now} (epoch ms) are held: they no longer apply. */
    boolean expiredAt(long now) {
        return state == State.READY && now - fetchedAt >= TTL.toMillis();
    }

    /**
     * Whether the rules of a fetched robots.txt hold (or robots.txt is not respected): the host's delay and
     * connections then follow their Crawl-delay.
     */
    public boolean rulesHold() {
        return state == State.READY && rules != null;
    }

    /** Whether robots.txt is being fetched: the host's pages wait for its rules. */
    public boolean fetching() {
        return state == State.FETCHING;
    }

    /**
     * When the robots.txt request that is {@linkplain #due due} may start: a failed one's retry time, else
     * {@code politeAt} (when the host's politeness lets its next request go).
     */
    public long startAt(long politeAt) {
        return state == State.FAILED ? retryAt : politeAt;
    }

    /**
     * The robots.txt task to hand out now, its state then {@linkplain #fetching fetching}; or null while a failed one
     * waits for its retry time. Its attempt number counts the failures so far. Call only when {@linkplain #due due}.
     */
    public PendingUrl start(long now) {
        if (state == State.FAILED && now < retryAt) {
            return null;
        }
        state = State.FETCHING;
        if (counts != null) {
            counts.fetchStarted();
        }
        return new PendingUrl(url(hostKey), 0, null, failures, 0, PendingUrl.Purpose.ROBOTS);
    }

    /**
     * The robots.txt task ended at {@code now} with {@code rules}, {@code pending} pages of the host waiting (for the
     * log): an unavailable robots.txt is tried again after {@code politeness.robots-retry}, doubling, or given up after
     * {@link #ATTEMPTS} attempts (its rules then refuse everything); any other rules hold from now on.
     *
     * @return whether the rules hold now (the host's delay and connections then follow their Crawl-delay)
     */
    public boolean fetched(RobotsRules rules, long now, int pending) {
        if (rules.kind() == RobotsRules.Kind.UNREACHABLE) {
            failures++;
            if (failures >= ATTEMPTS) {
                state = State.GAVE_UP;
                this.rules = rules;
                LOG.warn("{}: {}; gave up after {} attempts, its {} pending URLs are recorded as refused", hostKey,
                        rules.reason(), failures, pending);
            } else {
                state = State.FAILED;
                long wait = config.robotsRetry().toMillis() << (failures - 1);
                retryAt = now + wait;
                LOG.info("{}: {}; retrying in {} ms (attempt {} of {})", hostKey, rules.reason(), wait, failures + 1,
                        ATTEMPTS);
            }
            return false;
        }
        state = State.READY;
        this.rules = rules;
        failures = 0;
        fetchedAt = now;
        if (rules.kind() == RobotsRules.Kind.HOST_SKIPPED) {
            LOG.warn("{}: skipped: {}", hostKey, rules.reason());
        }
        return true;
    }

    /**
     * The robots.txt task could not reach the host; it is fetched again no sooner than {@code backoff} after
     * {@code now}, its attempt number one higher.
     */
    public void retry(long now, Duration backoff) {
        failures++;
        state = State.FAILED;
        retryAt = now + backoff.toMillis();
    }

    /** The host was found unreachable: its robots.txt is never due again (no request is made to the host). */
    public void hostUnreachable() {
        state = State.READY;
        fetchedAt = FOREVER;
    }

    /** The rules that apply to the host's pages now: its robots.txt's, or {@linkplain #notFetchedYet none yet}. */
    public RobotsRules rules() {
        return rules == null ? notFetchedYet(hostKey) : rules;
    }
}
