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
 * @param digest the SHA-1 of the body as read (decompressed), {@code sha1:} and 32 base32 letters as in WARC's
 *     digests ({@link PayloadDigest}), for a page fetched with a 2xx status (HTML or not); else null
 * @param simhash the {@link org.sievecrawler.parse.SimHash} of a fetched HTML page's visible text, 16 hex digits;
 *     null for other records and for pages without words
 * @param ttfbMs time to first byte: milliseconds from the request to the response headers, for an answer with a
 *     body (0 when not measured: redirects, failures, records of an older build)
 * @param etag the response's {@code ETag} header as sent (a validator for a later conditional request), or null
 *     when there was none or it was longer than {@link #MAX_VALIDATOR_CHARS}
 * @param lastModified the response's {@code Last-Modified} header as sent, or null (the same bound)
 */
public record PageRecord(String url, int status, Outcome outcome, String contentType, int depth, long bytes,
        long fetchMs, int outlinks, String title, String redirectTo, String referrer, String error,
        boolean noindex, String warcFile, long warcOffset, String digest, String simhash, long ttfbMs, String etag,
        String lastModified) {
    /** The longest validator kept: a longer ETag or Last-Modified is left out, not cut (a cut one would not match). */
    public static final int MAX_VALIDATOR_CHARS = 256;

    /** A record without validators. */
    public PageRecord(String url, int status, Outcome outcome, String contentType, int depth, long bytes,
            long fetchMs, int outlinks, String title, String redirectTo, String referrer, String error,
            boolean noindex, String warcFile, long warcOffset, String digest, String simhash, long ttfbMs) {
        this(url, status, outcome, contentType, depth, bytes, fetchMs, outlinks, title, redirectTo, referrer, error,
                noindex, warcFile, warcOffset, digest, simhash, ttfbMs, null, null);
    }

    /** A record without fingerprints nor a time to first byte. */
    public PageRecord(String url, int status, Outcome outcome, String contentType, int depth, long bytes,
            long fetchMs, int outlinks, String title, String redirectTo, String referrer, String error,
            boolean noindex, String warcFile, long warcOffset) {
        this(url, status, outcome, contentType, depth, bytes, fetchMs, outlinks, title, redirectTo, referrer, error,
                noindex, warcFile, warcOffset, null, null, 0);
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
                referrer, error, noindex, file, file == null ? -1 : offset, digest, simhash, ttfbMs, etag,
                lastModified);
    }

    /** This record with its body's {@code digest} and its text's {@code simhash} (either null for none). */
    public PageRecord withFingerprints(String digest, String simhash) {
        return new PageRecord(url, status, outcome, contentType, depth, bytes, fetchMs, outlinks, title, redirectTo,
                referrer, error, noindex, warcFile, warcOffset, digest, simhash, ttfbMs, etag, lastModified);
    }

    /** This record with its time to first byte, {@code ms}. */
    public PageRecord withTtfb(long ms) {
        return new PageRecord(url, status, outcome, contentType, depth, bytes, fetchMs, outlinks, title, redirectTo,
                referrer, error, noindex, warcFile, warcOffset, digest, simhash, ms, etag, lastModified);
    }

    /**
     * This record with its response's validators, {@code etag} and {@code lastModified} header values as sent
     * (either null for none); one longer than {@link #MAX_VALIDATOR_CHARS} is left out.
     */
    public PageRecord withValidators(String etag, String lastModified) {
        return new PageRecord(url, status, outcome, contentType, depth, bytes, fetchMs, outlinks, title, redirectTo,
                referrer, error, noindex, warcFile, warcOffset, digest, simhash, ttfbMs, bounded(etag),
                bounded(lastModified));
    }

    private static String bounded(String validator) {
        return validator == null || validator.length() > MAX_VALIDATOR_CHARS ? null : validator;
    }

    /** A URL decided without a request (robots, scope): no status, no bytes. */
    public static PageRecord refused(String url, Outcome outcome, int depth, String referrer, String error) {
        return new PageRecord(url, 0, outcome, null, depth, 0, 0, 0, null, null, referrer, error, false);
    }
}
