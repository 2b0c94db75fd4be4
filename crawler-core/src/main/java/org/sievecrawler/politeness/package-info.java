/**
 * Per-host politeness: which pending URL may be fetched now without hurrying any host (its queue, delay and
 * connections; what its robots.txt allows is the robots package's, which the scheduler asks), and how many pages a
 * host may give. The scheduler is safe for any number of fetcher threads.
 */
package org.sievecrawler.politeness;
