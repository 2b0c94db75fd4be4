package org.sievecrawler.profile;

import java.time.Duration;

/**
 * How gently each host is treated. A host is a scheme, host name and port.
 *
 * @param delay least time from the end of one request to a host to the start of the next
 * @param maxConnectionsPerHost requests in flight to one host at most
 * @param respectRobots whether robots.txt is fetched and obeyed (turn off only for one's own sites)
 * @param maxCrawlDelay the largest robots.txt Crawl-delay honoured; a host asking for more is skipped
 * @param robotsRetry wait before fetching an unavailable robots.txt again (doubling, three attempts in all)
 * @param maxRetryAfter the longest Retry-After waited for before another attempt; a URL whose server asks for
 *     longer is not retried
 * @param per what the delay and the connections apply to: each host, or each IP address as well
 * @param robotsCacheHosts hosts with nothing to fetch whose robots.txt rules are kept, at most (0: none)
 */
public record PolitenessConfig(Duration delay, int maxConnectionsPerHost, boolean respectRobots,
        Duration maxCrawlDelay, Duration robotsRetry, Duration maxRetryAfter, PolitenessUnit per,
        int robotsCacheHosts) {

    public PolitenessConfig {
        ProfileKeys.POLITENESS_DELAY.require(delay);
        ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST.require(maxConnectionsPerHost);
        ProfileKeys.POLITENESS_MAX_CRAWL_DELAY.require(maxCrawlDelay);
        ProfileKeys.POLITENESS_ROBOTS_RETRY.require(robotsRetry);
        ProfileKeys.POLITENESS_MAX_RETRY_AFTER.require(maxRetryAfter);
        ProfileKeys.POLITENESS_PER.require(per);
        ProfileKeys.POLITENESS_ROBOTS_CACHE_HOSTS.require(robotsCacheHosts);
    }

    public static PolitenessConfig defaults() {
        return CrawlProfile.defaults().politeness();
    }
}
