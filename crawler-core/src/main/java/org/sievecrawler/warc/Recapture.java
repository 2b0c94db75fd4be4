package org.sievecrawler.warc;

import java.nio.file.Path;

/**
 * A recrawl's exchange of a URL an earlier crawl fetched: where that crawl archived the URL's record, so that the
 * new record can be a {@code revisit} referring to the capture ({@link EarlierCapture}).
 *
 * @param file the earlier crawl's WARC file holding the record, or null when it archived none
 * @param offset where the record starts in {@code file}, or -1
 * @param notModified whether the exchange is a 304 answer to the conditional request: a server-not-modified revisit
 */
public record Recapture(Path file, long offset, boolean notModified) {
}
