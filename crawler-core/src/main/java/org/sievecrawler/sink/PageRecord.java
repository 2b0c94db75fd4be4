package org.sievecrawler.sink;

/**
 * One line of pages.jsonl: what happened to one URL the crawl took from the Sieve.
 *
 * @param url the normalized URL
 * @param status the HTTP status, or 0 when there was none
 * @param outcome what was decided
 * @param contentType the Content-Type header, or null
 * @param depth links from a seed
 * @param bytes body bytes read (after decompression)
 * @param fetchMs time of the request, in milliseconds (0 when none was made)
 * @param outlinks links found on the page
 * @param title the page title, or null
 * @param redirectTo the normalized redirect target, or null
 * @param referrer the page the URL was found on, or null for a seed
 * @param error what went wrong, or null
 * @param noindex whether the page asked not to be indexed
 * @param warcFile the name of the WARC file holding the response, or null when none was archived
 * @param warcOffset the offset of the response record in {@code warcFile} (where its gzip member starts), or -1
 * @param ttfbMs time to first byte: milliseconds from the request to the response headers, for an answer with a
 *     body (0 when not measured: redirects, failures, records of an older build)
 */
public record PageRecord(String url, int status, Outcome outcome, String contentType, int depth, long bytes,
        long fetchMs, int outlinks, String title, String redirectTo, String referrer, String error,
        boolean noindex, String warcFile, long warcOffset, long ttfbMs) {

    /** A record without a time to first byte. */
    public PageRecord(String url, int status, Outcome outcome, String contentType, int depth, long bytes,
            long fetchMs, int outlinks, String title, String redirectTo, String referrer, String error,
            boolean noindex, String warcFile, long warcOffset) {
        this(url, status, outcome, contentType, depth, bytes, fetchMs, outlinks, title, redirectTo, referrer, error,
                noindex, warcFile, warcOffset, 0);
    }

    /** A record without a WARC location. */
    public PageRecord(String url, int status, Outcome outcome, String contentType, int depth, long bytes,
            long fetchMs, int outlinks, String title, String redirectTo, String referrer, String error,
            boolean noindex) {
        this(url, status, outcome, contentType, depth, bytes, fetchMs, outlinks, title, redirectTo, referrer, error,
                noindex, null, -1);
    }

    /** This record with its response's place in the WARC files; {@code file} null for none. */
    public PageRecord withWarc(String file, long offset) {
        return new PageRecord(url, status, outcome, contentType, depth, bytes, fetchMs, outlinks, title, redirectTo,
                referrer, error, noindex, file, file == null ? -1 : offset, ttfbMs);
    }

    /** This record with its time to first byte, {@code ms}. */
    public PageRecord withTtfb(long ms) {
        return new PageRecord(url, status, outcome, contentType, depth, bytes, fetchMs, outlinks, title, redirectTo,
                referrer, error, noindex, warcFile, warcOffset, ms);
    }

    /** A URL decided without a request (robots, scope): no status, no bytes. */
    public static PageRecord refused(String url, Outcome outcome, int depth, String referrer, String error) {
        return new PageRecord(url, 0, outcome, null, depth, 0, 0, 0, null, null, referrer, error, false);
    }
}
