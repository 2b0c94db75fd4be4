package org.sievecrawler.sink;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.warc.Archive;
import org.sievecrawler.warc.WarcLocation;

/**
 * Everything a crawl puts out, behind one interface: one {@link PageRecord} per decided URL (pages.jsonl, and the
 * counts of summary.json and the progress line), the exchanges it captured ({@link Archive}: the WARC files, or
 * nothing with {@code output.warc} off), and the counts that are not records (failed attempts, retries, links
 * refused).
 *
 * <p>Implementations are safe for any number of fetcher and parser threads.
 *
 * <p>Out of scope: when a record may be written (the crawl's checkpoint lock and its end) and what it says.
 */
public interface CrawlSink {

    /**
     * Writes {@code record} to pages.jsonl and counts it.
     *
     * @throws IOException naming the file when it cannot be written
     */
    void record(PageRecord record) throws IOException;

    /** {@link Archive#archive}: where {@code exchange}'s response is archived, if it is. */
    Optional<WarcLocation> archive(HttpExchange exchange) throws IOException;

    /** {@link Archive#archiveMetadata}: a metadata record about {@code url}, linked to its {@code response}. */
    void archiveMetadata(String url, WarcLocation response, List<Map.Entry<String, String>> fields) throws IOException;

    /** URLs decided so far: records written, by this run and the runs it resumes. */
    long decided();

    /** Counts a request that got no usable answer (see {@code CrawlStats#failedAttempt}). */
    void failedAttempt();

    /** Counts a failed attempt that will be made again after a backoff. */
    void retried();

    /** Counts a link not offered to the Sieve, by its reason's label. */
    void linkRejected(String reason);
}
