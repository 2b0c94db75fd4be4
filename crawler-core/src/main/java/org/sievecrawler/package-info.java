/**
 * The crawl: {@link org.sievecrawler.Crawler} wires seeds, the Sieve, politeness, fetch, parse, links, the
 * sink and progress together in one method; fetcher threads run the per-URL steps of
 * {@link org.sievecrawler.pipeline}.
 */
package org.sievecrawler;
