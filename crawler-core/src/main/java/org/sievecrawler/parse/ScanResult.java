package org.sievecrawler.parse;

/** What {@link HrefScanner} answers for one page: the page, or that it is not sure it would read it like jsoup. */
public sealed interface ScanResult {

    /** The scanner read the page and is confident jsoup would read the same. */
    record Scanned(ParsedPage page) implements ScanResult {}

    /**
     * The scanner met something it does not model (a non-ASCII-compatible charset, foreign content, markup whose
     * tree would not follow source order...); the page should go to jsoup.
     *
     * @param reason what it met, without where: a short label to count pages by, e.g. {@code "<template>"}
     * @param detail the reason and where it was met, e.g. {@code "<template> at byte 812"}
     */
    record Unsure(String reason, String detail) implements ScanResult {}
}
