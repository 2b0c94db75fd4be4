/**
 * What changed between two crawls of a site, for a recrawl ({@code crawl --since DIR}): each URL of either crawl
 * classified ({@link org.sievecrawler.changes.Change}), written to changes.jsonl in bounded memory
 * ({@link org.sievecrawler.changes.ChangeSet}), and counted ({@link org.sievecrawler.changes.ChangeCounts}). Run
 * once at the end of a crawl, on one thread.
 */
package org.sievecrawler.changes;
