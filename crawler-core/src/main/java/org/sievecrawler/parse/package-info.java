/**
 * Link and metadata extraction from fetched HTML: bytes in, a {@link org.sievecrawler.parse.ParsedPage} out, through a
 * fast byte-level {@link org.sievecrawler.parse.HrefScanner} that falls back to jsoup whenever it is unsure.
 *
 * <p>Threading: every public type here is safe for any number of threads: stateless, immutable, or (the
 * {@link org.sievecrawler.parse.PageParser}'s counters) lock-free.
 */
package org.sievecrawler.parse;
