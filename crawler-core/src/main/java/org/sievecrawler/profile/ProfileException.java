package org.sievecrawler.profile;

/** STUB (replaced by branch profile): a profile that cannot be loaded; one FILE:LINE:COL line per problem. */
public final class ProfileException extends Exception {
    private static final long serialVersionUID = 1L;

    public ProfileException(String message) {
        super(message);
    }
}
