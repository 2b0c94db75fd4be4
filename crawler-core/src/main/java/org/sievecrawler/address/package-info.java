/**
 * Special-purpose IP addresses: one table of the IANA IPv4 and IPv6 special-purpose ranges, multicast and the
 * IPv4-embedding IPv6 forms ({@link org.sievecrawler.address.SpecialRanges}), each saying whether a crawl may
 * reach it, and the parsing of IP literals in every form a URL parser accepts
 * ({@link org.sievecrawler.address.IpLiteral}). Both address checks of the crawler answer from here: the literal
 * check on links ({@code link.LinkScope}) and the DNS-time check on connections ({@code fetch.AddressGuard}).
 *
 * <p>Threading: pure code, no I/O and no DNS; every type here is immutable and safe for any number of threads.
 */
package org.sievecrawler.address;
