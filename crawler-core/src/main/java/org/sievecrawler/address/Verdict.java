package org.sievecrawler.address;

/**
 * What the {@link SpecialRanges} table says of one address or host: whether a crawl may reach it, and the row
 * that decided, as refusals quote it.
 *
 * @param refused whether a crawl may not connect to it (unless {@code fetch.allow-private-addresses}, or it is a
 *     seed's host and port)
 * @param range the deciding range, e.g. {@code "100.64.0.0/10 shared address space"}, or for an IPv4-embedding
 *     IPv6 address the form and the embedded address's range ({@code "2002::/16 6to4 with 10.0.0.1 inside, in
 *     10.0.0.0/8 private-use"}); null for an address in no range, or a domain name
 */
public record Verdict(boolean refused, String range) {
    /** An address in no special range (or a domain name): reachable. */
    public static final Verdict UNLISTED = new Verdict(false, null);
}
