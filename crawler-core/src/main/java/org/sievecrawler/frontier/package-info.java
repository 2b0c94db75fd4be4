/**
 * The frontier: the crawl's URL state in one owner, and its journal of admissions and completions
 * ({@link org.sievecrawler.frontier.FrontierJournal}) that a resume replays after the last checkpoint. A cluster partition's frontier ({@code Frontier.partition}) keeps no
 * journal (the partition's log is one) and sends its pages' links to a {@link org.sievecrawler.frontier.LinkOutbox};
 * fetchers take leases from any {@link org.sievecrawler.frontier.LeaseSource}.
 *
 * <p>Threading: every public type here is safe for any number of threads unless its javadoc says otherwise.
 */
package org.sievecrawler.frontier;
