package org.sievecrawler.parse;

/** Thrown inside a scan to abandon it, for {@link HrefScanner} to answer unsure; carries the reason, no stack trace. */
final class NotSure extends RuntimeException {
    NotSure(String reason) {
        super(reason, null, false, false);
    }
}
