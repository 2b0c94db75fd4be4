/**
 * Links: resolving a page's raw {@code href}s against its base URL, normalizing them to one canonical string
 * per resource ({@link org.sievecrawler.link.UrlNormalizer}; the crawl's seeds too,
 * {@link org.sievecrawler.link.Seeds}), and deciding whether the crawl may follow them
 * ({@link org.sievecrawler.link.LinkScope}); every outcome is a {@link org.sievecrawler.link.LinkDecision}. The
 * seeds' hosts and origins, compact for millions of seeds: {@link org.sievecrawler.link.SeedHosts}; a seed file's
 * line: {@link org.sievecrawler.link.SeedLine}.
 *
 * <p>Threading: pure code, no I/O and no DNS; every public type here is immutable and safe for any number of
 * threads, but {@link org.sievecrawler.link.SeedHosts}, filled by one thread and read by any, whose questions wait
 * until it is complete (and so do those of a {@link org.sievecrawler.link.LinkScope} built on it).
 */
package org.sievecrawler.link;
