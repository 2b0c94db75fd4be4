/**
 * What the crawl learns about a host's URLs from the pages it fetched (issue 30): a URL's {@link
 * org.sievecrawler.learn.UrlTemplate} (its variable-looking parts generalized) and, per template, {@link
 * org.sievecrawler.learn.TemplateStats} of fetched pages and of near-duplicates among them, the ground for rules that
 * stop duplicate traps. Not yet wired into the crawl.
 *
 * <p>Threading: {@code UrlTemplate} is an immutable value; {@code TemplateStats} is safe for any number of parse
 * threads (one lock).
 */
package org.sievecrawler.learn;
