/**
 * What the crawl has done so far: counters fed by the fetcher threads, the periodic progress line in the
 * log (logger {@code org.sievecrawler.progress}), and the final summary. Counters are lock-free.
 */
package org.sievecrawler.progress;
