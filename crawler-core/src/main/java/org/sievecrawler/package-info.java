/**
 * The crawl: {@link org.sievecrawler.Crawler} wires seeds, the Sieve, politeness, fetch, parse, links, the
 * sink and progress together in one method; fetcher threads run {@code FetchWorker}s.
 */
package org.sievecrawler;
