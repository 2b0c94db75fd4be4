package org.sievecrawler.parse;

import java.util.Objects;

/** What {@link HrefScanner} answers for one page: the page, or that it is not sure it would read it like jsoup. */
public sealed interface ScanResult {

    /** The scanner read the page and is confident jsoup would read the same. */
    record Scanned(ParsedPage page) implements ScanResult {}

    /**
     * The scanner met something it does not model (a non-ASCII-compatible charset, markup whose tree would not
     * follow source order, HTML inside an SVG integration point...); the page should go to jsoup.
     *
     * @param reason a short label of what it met, without offsets, from a small fixed set so that fallbacks can
     *     be counted by it, e.g. {@code "foster-parented <a>"}, {@code "NUL byte"}, {@code "charset UTF-16LE"}
     * @param detail the reason with where it met it, e.g. {@code "foster-parented <a> at byte 812"}, for logs
     */
    record Unsure(String reason, String detail) implements ScanResult {
        public Unsure {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(detail, "detail");
        }
    }
}
