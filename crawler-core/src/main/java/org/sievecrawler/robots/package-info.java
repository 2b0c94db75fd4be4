/**
 * robots.txt: what a host's robots.txt allows, read as RFC 9309 says ({@link org.sievecrawler.robots.RobotsPolicy}
 * into {@link org.sievecrawler.robots.RobotsRules}).
 *
 * <p>Threading: the policy and the rules are immutable and safe for any number of threads.
 */
package org.sievecrawler.robots;
