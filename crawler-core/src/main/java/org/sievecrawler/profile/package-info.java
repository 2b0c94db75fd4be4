/**
 * The crawl profile: one immutable, validated record per concern (scope, limits, fetch, politeness, parse,
 * sieve, output, progress), grouped in {@link org.sievecrawler.profile.CrawlProfile}. Records are immutable
 * and so safe to share between threads; YAML loading comes with the command line.
 */
package org.sievecrawler.profile;
