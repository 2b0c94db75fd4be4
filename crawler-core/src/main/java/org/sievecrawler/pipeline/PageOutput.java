package org.sievecrawler.pipeline;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.graph.Edge;
import org.sievecrawler.warc.Archive;
import org.sievecrawler.warc.Recapture;
import org.sievecrawler.warc.WarcLocation;

/**
 * What the steps of a lease put out besides records: the exchanges they captured ({@link Archive}: the WARC files,
 * or nothing with {@code output.warc} off) and the counts that are not records (failed attempts, retries, links
 * refused). It has no way to write a record: a page's record leaves only by closing its lease ({@link RecordStep}),
 * and the frontier writes it, through its {@link org.sievecrawler.frontier.Frontier.Recorder}, before its journal
 * entry.
 *
 * <p>Implementations are safe for any number of fetcher and parse threads.
 *
 * <p>Out of scope: records (see above), and what the crawl's counts say.
 */
public interface PageOutput {

    /** {@link Archive#archive}: where {@code exchange}'s response is archived, if it is. */
    Optional<WarcLocation> archive(HttpExchange exchange) throws IOException;

    /** {@link Archive#archive(HttpExchange, Recapture)}: a recrawl's exchange, perhaps a revisit. */
    default Optional<WarcLocation> archive(HttpExchange exchange, Recapture recapture) throws IOException {
        return archive(exchange);
    }

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

    /** Counts a link or redirect target followed without the query parameters {@code scope.ignore-params} names. */
    default void paramsIgnored() {
    }

    /** Adds edges to the link graph ({@code output.links}); by default there is none. */
    default void linked(List<Edge> edges) throws IOException {
    }
}
