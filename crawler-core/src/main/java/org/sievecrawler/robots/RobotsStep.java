package org.sievecrawler.robots;

import java.time.Duration;
import org.sievecrawler.fetch.FailureKind;
import org.sievecrawler.fetch.HttpFetcher;
import org.sievecrawler.fetch.RetryPolicy;
import org.sievecrawler.profile.CrawlProfile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The step of a host's robots.txt task in a fetcher thread, up to what closes its lease: robots.txt is fetched
 * ({@link RobotsFetcher}) and, by what came back, the step ends in one {@link Outcome}. A request the crawl cancelled
 * is put back ({@link PutBack}). A failure to reach the host is retried like a page's ({@link Retry}: the crawl's
 * retries and backoff, a few seconds in all by default) and then makes the host unreachable
 * ({@link HostUnreachable}). Anything else is read into rules ({@link Read}, by {@link RobotsPolicy}): a timeout, a
 * 5xx or another host a redirect led to that cannot be reached gives "unavailable" rules, which the host's
 * {@link HostRobots} tries again after {@code politeness.robots-retry}.
 *
 * <p>Thread-safe: immutable; one instance serves every fetcher thread, each blocked on its own request.
 *
 * <p>Out of scope: closing the lease, counting and archiving (the caller's, from the outcome and its
 * {@link RobotsResponse}), and the sitemaps robots.txt names ({@link RobotsRules#sitemaps()}: links the caller
 * decides on).
 */
public final class RobotsStep {
    private static final Logger LOG = LoggerFactory.getLogger(RobotsStep.class);

    private final RobotsFetcher fetcher;
    private final RobotsPolicy policy;
    private final RetryPolicy retries;

    /** How a robots.txt task ended; {@link #response()} is what fetching robots.txt gave. */
    public sealed interface Outcome permits PutBack, Retry, HostUnreachable, Read {
        /** What fetching robots.txt gave: its exchanges to archive, and whether it was a failed attempt. */
        RobotsResponse response();
    }

    /** The crawl cancelled the request (it is ending): the task is put back, and a resume fetches robots.txt anew. */
    public record PutBack(RobotsResponse response) implements Outcome {
    }

    /** The host could not be reached: robots.txt is fetched again, no sooner than {@code backoff} from now. */
    public record Retry(RobotsResponse response, Duration backoff) implements Outcome {
    }

    /** The host could not be reached after the crawl's retries, for {@code reason} (e.g. "connection refused"). */
    public record HostUnreachable(RobotsResponse response, String reason) implements Outcome {
    }

    /** robots.txt was read into {@code rules} (for a 4xx, a 5xx or no answer, the rules RFC 9309 gives them). */
    public record Read(RobotsResponse response, RobotsRules rules) implements Outcome {
    }

    /**
     * @param profile the crawl's profile, read here once: its robots.txt agent name ({@code fetch.user-agent}),
     *     {@code politeness.max-crawl-delay}, {@code fetch.retries} and {@code politeness.max-retry-after}
     * @param http the fetcher whose single attempts fetch robots.txt
     * @throws IllegalArgumentException if the profile's agent name is not an RFC 9309 product token
     */
    public RobotsStep(CrawlProfile profile, HttpFetcher http) {
        this.fetcher = new RobotsFetcher(http);
        this.policy = new RobotsPolicy(profile.fetch().robotsAgentName(), profile.politeness().maxCrawlDelay());
        this.retries = RetryPolicy.of(profile);
    }

    /**
     * Fetches the robots.txt at {@code robotsUrl}, the attempt {@code attempt} at it (0 for the first), and says how
     * the task ends.
     */
    public Outcome take(String robotsUrl, int attempt) {
        RobotsResponse response = fetcher.fetch(robotsUrl);
        if (response.failure() == FailureKind.CANCELLED) {
            return new PutBack(response);
        }
        FailureKind failure = response.failure();
        if (response.hostUnreachable(robotsUrl)) {
            if (retries.afterFailure(attempt, failure, null) instanceof RetryPolicy.Retry retry) {
                return new Retry(response, retry.backoff());
            }
            LOG.info("{}: {}", robotsUrl, response.error());
            return new HostUnreachable(response, failure.unreachableReason(response.error()));
        }
        return new Read(response, policy.interpret(robotsUrl, response.status(), response.body(), response.error(),
                response.unavailable()));
    }
}
