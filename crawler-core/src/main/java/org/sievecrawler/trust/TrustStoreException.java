package org.sievecrawler.trust;

/**
 * A trust store file that cannot be used: missing, not a regular file, too large, or holding no certificate that
 * can be read. The message names the file and what is wrong with it, e.g. {@code certs/ca.pem: no such file}, ready
 * for a profile error.
 */
public final class TrustStoreException extends Exception {
    private static final long serialVersionUID = 1L;

    TrustStoreException(String message) {
        super(message);
    }
}
