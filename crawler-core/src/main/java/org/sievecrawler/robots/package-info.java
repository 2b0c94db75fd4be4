/**
 * robots.txt: fetched as RFC 9309 says, its redirects followed hop by hop through the fetcher's single attempts
 * ({@link org.sievecrawler.robots.RobotsFetcher} into a {@link org.sievecrawler.robots.RobotsResponse}), and read into
 * what a host's robots.txt allows ({@link org.sievecrawler.robots.RobotsPolicy} into
 * {@link org.sievecrawler.robots.RobotsRules}).
 *
 * <p>Threading: the fetcher is safe for any number of fetcher threads, each blocked on its own request; the policy,
 * responses and rules are immutable.
 */
package org.sievecrawler.robots;
