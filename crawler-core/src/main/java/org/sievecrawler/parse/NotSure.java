package org.sievecrawler.parse;

/**
 * Thrown inside a scan to abandon it, for {@link HrefScanner} to answer unsure. It carries a short label without
 * offsets (what the scanner met, from a small fixed set, so that fallbacks can be counted by it) and the byte
 * where it met it; no stack trace.
 */
final class NotSure extends RuntimeException {
    private final String label;

    /**
     * @param label what the scanner met, e.g. {@code "unclosed comment"}; never an offset, never text of the page
     *     beyond a known element name
     * @param at the byte offset in the body where it met it
     */
    NotSure(String label, int at) {
        super(label + " at byte " + at, null, false, false);
        this.label = label;
    }

    String label() {
        return label;
    }
}
