/**
 * robots.txt: fetched as RFC 9309 says, its redirects followed hop by hop through the fetcher's single attempts
 * ({@link org.sievecrawler.robots.RobotsFetcher} into a {@link org.sievecrawler.robots.RobotsResponse}), read into
 * what a host's robots.txt allows ({@link org.sievecrawler.robots.RobotsPolicy} into
 * {@link org.sievecrawler.robots.RobotsRules}), the step of a fetcher thread that does both and says how a robots.txt
 * task ends ({@link org.sievecrawler.robots.RobotsStep}), and each host's robots.txt through the crawl: fetched first,
 * its rules for a day, an unavailable one tried again, then given up ({@link org.sievecrawler.robots.HostRobots},
 * which the politeness scheduler asks what a host may do), kept for the hosts the scheduler parks in a bounded
 * {@link org.sievecrawler.robots.RobotsCache} that counts requests, hits, evictions and expiries.
 *
 * <p>Threading: the fetcher and the step are safe for any number of fetcher threads, each blocked on its own request;
 * the policy, responses, outcomes and rules are immutable; a {@link org.sievecrawler.robots.HostRobots} and the cache
 * are guarded by the lock of the scheduler that holds them.
 */
package org.sievecrawler.robots;
