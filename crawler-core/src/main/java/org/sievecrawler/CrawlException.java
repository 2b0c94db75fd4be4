package org.sievecrawler;

/**
 * A crawl that could not start or could not write its output; the message names the cause and the value.
 * {@link #refused()} marks the user's mistakes (a folder another crawl holds, nothing or nothing valid to
 * resume), which the command line reports as usage errors.
 */
public final class CrawlException extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean refused;

    public CrawlException(String message) {
        this(message, null, false);
    }

    public CrawlException(String message, Throwable cause) {
        this(message, cause, false);
    }

    private CrawlException(String message, Throwable cause, boolean refused) {
        super(message, cause);
        this.refused = refused;
    }

    /** A crawl refused before it started, for a reason the user can fix (exit code 2 on the command line). */
    public static CrawlException refused(String message, Throwable cause) {
        return new CrawlException(message, cause, true);
    }

    /** Whether the crawl was refused for a mistake of the user's, rather than failing. */
    public boolean refused() {
        return refused;
    }
}
