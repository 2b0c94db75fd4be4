/**
 * The frontier: the crawl's URL state in one owner, and its journal of admissions and completions
 * ({@link org.sievecrawler.frontier.FrontierJournal}) that a resume replays after the last checkpoint.
 *
 * <p>Threading: every public type here is safe for any number of threads unless its javadoc says otherwise.
 */
package org.sievecrawler.frontier;
