/**
 * Checkpoints and resume: the consistent state of a running crawl (the frontier's state, copied by
 * {@link org.sievecrawler.frontier.Frontier#snapshot}: Bloom filters, pending and in-flight URLs, spill positions,
 * the journal segment to replay from; counters, the profile) written to its output folder, read back by
 * {@code --resume}; what a crawl does with its output folder when it starts (begin, begin afresh, go on:
 * {@link org.sievecrawler.checkpoint.CrawlStart}), and the lock that keeps two crawls out of one folder.
 *
 * <p>Threading: {@link org.sievecrawler.checkpoint.Checkpointer} and {@link org.sievecrawler.checkpoint.CrawlLock}
 * are thread-safe; a {@link org.sievecrawler.checkpoint.CheckpointStore} is used by one thread at a time (the
 * crawl's checkpoint thread, then its final checkpoint); a {@link org.sievecrawler.checkpoint.CrawlStart} by the crawl
 * before its threads start.
 */
package org.sievecrawler.checkpoint;
