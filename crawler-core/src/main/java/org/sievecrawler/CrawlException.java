package org.sievecrawler;

/** A crawl that could not start or could not write its output; the message names the cause and the value. */
public final class CrawlException extends Exception {
    private static final long serialVersionUID = 1L;

    public CrawlException(String message) {
        super(message);
    }

    public CrawlException(String message, Throwable cause) {
        super(message, cause);
    }
}
