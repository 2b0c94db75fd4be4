/**
 * Checkpoints and resume: the consistent state of a running crawl (Bloom filters, pending and in-flight URLs,
 * spill positions, counters, the profile) written to its output folder, read back by {@code --resume}, and the
 * lock that keeps two crawls out of one folder.
 *
 * <p>Threading: {@link org.sievecrawler.checkpoint.SnapshotLock} and
 * {@link org.sievecrawler.checkpoint.CrawlLock} are thread-safe; a {@link org.sievecrawler.checkpoint.CheckpointStore}
 * is used by one thread at a time (the crawl's checkpoint thread, then its final checkpoint).
 */
package org.sievecrawler.checkpoint;
