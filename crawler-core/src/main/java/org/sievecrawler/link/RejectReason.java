package org.sievecrawler.link;

/**
 * Why a link was refused. Each reason has a stable kebab-case {@link #label()} that outputs and the crawl
 * summary use to count refusals; labels never change once released.
 */
public enum RejectReason {
    /** Not parseable as an http(s) URL: bad host, bad port, no scheme where one is needed. */
    MALFORMED("malformed"),
    /** A scheme other than http or https: {@code javascript:}, {@code mailto:}, {@code data:}, {@code tel:}... */
    UNSUPPORTED_SCHEME("unsupported-scheme"),
    /** Longer than {@link UrlNormalizer#MAX_LENGTH} characters once normalized. */
    TOO_LONG("too-long"),
    /** The host matches none of the scope's host patterns. */
    OFF_HOST("out-of-scope-host"),
    /** The URL matches one of the scope's exclude patterns. */
    EXCLUDED("excluded"),
    /** The scope has include patterns and the URL matches none of them. */
    NOT_INCLUDED("not-included"),
    /** The link is deeper (in links followed from a seed) than the scope's max depth. */
    TOO_DEEP("too-deep"),
    /**
     * The host is {@code localhost} or an IP literal the crawl may not reach
     * ({@link org.sievecrawler.address.SpecialRanges}), and not a seed's host and port.
     */
    PRIVATE_ADDRESS("private-address"),
    /**
     * A sitemap a host's robots.txt names on another host: not followed there (that host's own robots.txt speaks
     * for it). Decided by the fetcher, not the link resolver.
     */
    SITEMAP_OF_OTHER_HOST("sitemap-of-other-host"),
    /**
     * A URL new to the Sieve whose host had admitted {@code limits.max-pages-per-host} URLs already: counted, not
     * queued and not recorded. Decided by the frontier as it admits the URL, not the link resolver.
     */
    OVER_HOST_BUDGET("over-host-budget");

    private final String label;

    RejectReason(String label) {
        this.label = label;
    }

    /** The stable kebab-case name used in outputs and in the crawl summary, e.g. {@code "too-deep"}. */
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
