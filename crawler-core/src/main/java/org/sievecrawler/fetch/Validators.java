package org.sievecrawler.fetch;

/**
 * What an earlier fetch of a URL answered that lets the next one be conditional (RFC 9110 section 13.1): its
 * {@code ETag}, sent back as {@code If-None-Match}, and its {@code Last-Modified}, sent back as
 * {@code If-Modified-Since}; either null for none. A server that finds the page unchanged answers 304 without a body.
 *
 * @param etag the ETag header as the server sent it, or null
 * @param lastModified the Last-Modified header as the server sent it, or null
 */
public record Validators(String etag, String lastModified) {
    /** No validator: an unconditional request. */
    public static final Validators NONE = new Validators(null, null);

    /** Whether there is any validator to send. */
    public boolean any() {
        return etag != null || lastModified != null;
    }
}
