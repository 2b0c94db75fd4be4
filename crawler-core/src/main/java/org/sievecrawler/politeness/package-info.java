/**
 * Per-host politeness: which pending URL may be fetched now without hurrying any host, and what each host's
 * robots.txt allows. The scheduler is safe for any number of fetcher threads; rules are immutable.
 */
package org.sievecrawler.politeness;
