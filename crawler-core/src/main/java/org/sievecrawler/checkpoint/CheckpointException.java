package org.sievecrawler.checkpoint;

/**
 * A crawl folder that cannot be resumed: no checkpoint, a missing, truncated or corrupt part, a format
 * version this build does not read, or a crawl that already finished. The message names the file and what
 * is wrong with it.
 */
public final class CheckpointException extends Exception {
    private static final long serialVersionUID = 1L;

    public CheckpointException(String message) {
        super(message);
    }

    public CheckpointException(String message, Throwable cause) {
        super(message, cause);
    }
}
