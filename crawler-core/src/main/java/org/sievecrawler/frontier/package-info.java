/**
 * The frontier: the crawl's URL state in one owner, and its journal of admissions and completions
 * ({@link org.sievecrawler.frontier.FrontierJournal}) that a resume replays after the last checkpoint. A
 * {@link org.sievecrawler.frontier.FrontierGroup} runs frontiers fed from outside side by side, their links sent to a
 * {@link org.sievecrawler.frontier.LinkOutbox} (the cluster module composes its partitions this way); fetchers take
 * leases from any {@link org.sievecrawler.frontier.LeaseSource}.
 *
 * <p>Threading: every public type here is safe for any number of threads unless its javadoc says otherwise.
 */
package org.sievecrawler.frontier;
