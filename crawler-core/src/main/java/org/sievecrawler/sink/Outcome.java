package org.sievecrawler.sink;

import java.util.Locale;

/** What the crawl decided about a URL it took from the Sieve; its label is the {@code outcome} in pages.jsonl. */
public enum Outcome {
    /** Fetched with a 2xx or 3xx-without-Location answer; HTML was parsed for links. */
    FETCHED,
    /** Fetched, but the body was cut at limits.max-page-bytes. */
    TRUNCATED,
    /** Fetched, not parsed: its content type is not in fetch.accept. */
    NOT_HTML,
    /** The server answered with a 4xx or 5xx status (after retries, for the retryable ones). */
    HTTP_ERROR,
    /** A redirect; {@code redirectTo} says where, and the target went to the Sieve if in scope. */
    REDIRECT,
    /** robots.txt forbids it, or the host's robots.txt is unavailable, or the host was skipped. */
    ROBOTS_DISALLOWED,
    /**
     * Not fetched: a crawler trap. Its path has too many segments or repeats a run of them
     * ({@code scope.max-path-segments}, {@code scope.max-repeated-segments}), or it is a sitemap and its host has
     * had {@code scope.max-sitemaps-per-host}; {@code error} names the rule and the value. (A page past its host's
     * {@code limits.max-pages-per-host} gets no record: it is counted as {@code over-host-budget}.)
     */
    TRAP,
    /**
     * A redirect target outside the crawl's scope; or a URL whose host name the address guard refused when it
     * resolved (only to special-purpose addresses, and not a seed's host and port: the link check's private-address
     * rule, met at DNS time), without a connection.
     */
    OUT_OF_SCOPE,
    /**
     * The host could not be reached (did not resolve, refused the connection, connecting timed out, TLS failed),
     * after the crawl's retries; {@code error} says why. Once a host is found unreachable, its other URLs get this
     * outcome without a request.
     */
    UNREACHABLE,
    /** No answer from a host that was reached: a lost connection, a timeout, a protocol failure; or a redirect chain too long. */
    ERROR,
    /**
     * A sitemap or sitemap index, fetched and read: {@code outlinks} is the number of URLs it lists (pages, or
     * sitemaps for an index), before scope and Sieve. One that could not be read is an {@link #ERROR}.
     */
    SITEMAP,
    /**
     * The probe of a seed host's {@code /sitemap.xml} ({@code scope.sitemaps}) answered 4xx: the site has no sitemap
     * there. A probe, not a link of the site: not an {@link #HTTP_ERROR}, not a broken link, and its answer is not
     * counted among the responses and their statuses (summary.json's {@code sitemaps.missing}).
     */
    NO_SITEMAP,
    /**
     * A link target out of the crawl's scope, checked once ({@code scope.check-external}): a HEAD request (a GET
     * where HEAD is refused, 405 or 501), not parsed, its links not followed; {@code status} is its answer, a 4xx or
     * 5xx one a broken link. A check that got no answer is an {@link #ERROR} or {@link #UNREACHABLE} as any URL.
     */
    CHECKED,
    /**
     * A recrawl's conditional request ({@code crawl --since}) answered 304 Not Modified: the page is as the earlier
     * crawl fetched it. Its record carries the earlier record's content type, title, outlinks, digest and SimHash
     * (the body was not sent again; its links are not read again), and the validators the 304 sent or else the
     * earlier ones; with WARC on, its archived record is a {@code revisit} (profile server-not-modified) referring
     * to the earlier capture.
     */
    NOT_MODIFIED;

    /** The kebab-case label, e.g. "robots-disallowed". */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The outcome with {@code label}.
     *
     * @throws IllegalArgumentException naming the label when no outcome has it
     */
    public static Outcome fromLabel(String label) {
        for (Outcome outcome : values()) {
            if (outcome.label().equals(label)) {
                return outcome;
            }
        }
        throw new IllegalArgumentException("unknown outcome \"" + label + "\"");
    }
}
