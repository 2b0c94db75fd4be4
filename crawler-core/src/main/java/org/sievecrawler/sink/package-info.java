/**
 * Where the crawl's decisions go: one {@link org.sievecrawler.sink.PageRecord} per URL taken from the Sieve,
 * written as JSON lines. Sinks are safe for any number of fetcher threads.
 */
package org.sievecrawler.sink;
