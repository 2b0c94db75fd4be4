package org.sievecrawler.sitemap;

/** A sitemap that could not be read: its format is unknown, it is not well-formed, or it is over the size limit. */
public final class SitemapException extends Exception {
    SitemapException(String message) {
        super(message);
    }

    SitemapException(String message, Throwable cause) {
        super(message, cause);
    }
}
