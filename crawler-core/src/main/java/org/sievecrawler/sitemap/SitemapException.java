package org.sievecrawler.sitemap;

/** A sitemap that could not be read: its format is unknown, it is not well-formed, or it is over the size limit. */
public final class SitemapException extends Exception {
    public SitemapException(String message) {
        super(message);
    }

    public SitemapException(String message, Throwable cause) {
        super(message, cause);
    }
}
