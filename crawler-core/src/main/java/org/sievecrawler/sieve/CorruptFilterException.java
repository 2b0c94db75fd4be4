package org.sievecrawler.sieve;

import java.io.IOException;

/**
 * A persisted filter or checkpoint that cannot be read back: wrong magic, unknown version, bad header,
 * truncation or a checksum mismatch. The message says which, with the values found.
 */
public final class CorruptFilterException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptFilterException(String message) {
        super(message);
    }
}
