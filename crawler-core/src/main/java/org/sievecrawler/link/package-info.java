/**
 * Links: resolving a page's raw {@code href}s against its base URL, normalizing them to one canonical string
 * per resource ({@link org.sievecrawler.link.UrlNormalizer}; the crawl's seeds too,
 * {@link org.sievecrawler.link.Seeds}), and deciding whether the crawl may follow them
 * ({@link org.sievecrawler.link.LinkScope}); every outcome is a {@link org.sievecrawler.link.LinkDecision}.
 *
 * <p>Threading: pure code, no I/O and no DNS; every public type here is immutable and safe for any number of
 * threads.
 */
package org.sievecrawler.link;
