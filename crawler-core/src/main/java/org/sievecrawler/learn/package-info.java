/**
 * What the crawl learns about a host's URLs from the pages it fetched, and the rules that stop duplicate traps
 * (issue 30), following the data:
 * <pre>
 *   a page fetched (URL, SimHash) -> {@link org.sievecrawler.learn.Learner#observe}
 *       -> {@link org.sievecrawler.learn.TemplateStats}: its {@link org.sievecrawler.learn.UrlTemplate}'s pages,
 *          near-duplicates, pairs that differ in one parameter's value
 *       -> {@link org.sievecrawler.learn.Aliases}: pairs of a page and the page without a parameter or segment
 *       -> a {@link org.sievecrawler.learn.Rule} learned (or one in force undone) -> {@link
 *          org.sievecrawler.learn.RuleListener}: {@link org.sievecrawler.learn.RulesFile} (the log, rules.jsonl)
 *   a link accepted -> {@link org.sievecrawler.learn.Learner#rewrite} -> the Sieve
 *   a URL leased -> {@link org.sievecrawler.learn.Learner#atLease}: fetch, sample, refuse or rewrite
 *   the end of the crawl -> {@link org.sievecrawler.learn.LearnedRules}: summary.json's {@code learned}
 * </pre>
 * The rules in force are a {@link org.sievecrawler.learn.RuleBook}, rewrites are {@link
 * org.sievecrawler.learn.UrlEdit}s.
 *
 * <p>Threading: {@code UrlTemplate} and {@code Rule} are immutable values; {@code Learner} is safe for any number of
 * fetcher and parse threads: its evidence takes one lock per page, its rules none to apply.
 */
package org.sievecrawler.learn;
