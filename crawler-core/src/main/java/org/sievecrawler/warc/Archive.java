package org.sievecrawler.warc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.sievecrawler.fetch.HttpExchange;

/**
 * Where a crawl's captured HTTP exchanges go: the {@link WarcArchive} with {@code output.warc} on, or
 * {@link #NONE}, which keeps nothing, with it off (the fetcher then captures no exchange either).
 *
 * <p>Implementations are safe for any number of fetcher and parser threads.
 *
 * <p>Out of scope: capturing the exchanges (the fetch package) and where the page's record goes (the sink package).
 */
public interface Archive extends AutoCloseable {

    /** WARC output off: nothing is archived, nothing is anywhere. */
    Archive NONE = new Archive() {
        @Override
        public Optional<WarcLocation> archive(HttpExchange exchange) {
            return Optional.empty();
        }

        @Override
        public void archiveMetadata(String url, WarcLocation response, List<Map.Entry<String, String>> fields) {
        }

        @Override
        public List<Path> files() {
            return List.of();
        }

        @Override
        public void close() {
        }

        @Override
        public String toString() {
            return "Archive.NONE";
        }
    };

    /**
     * Archives one exchange, if there is one ({@code exchange} is null when none was captured).
     *
     * @return where its response record is; empty when nothing was archived
     * @throws IOException naming the file when it cannot be written
     */
    Optional<WarcLocation> archive(HttpExchange exchange) throws IOException;

    /**
     * Archives a recrawl's exchange of a URL the earlier crawl archived as {@code recapture} says: as a revisit of
     * the earlier capture where it is one ({@link WarcArchive#write(HttpExchange, Recapture)}), else in full.
     */
    default Optional<WarcLocation> archive(HttpExchange exchange, Recapture recapture) throws IOException {
        return archive(exchange);
    }

    /**
     * Archives a metadata record about {@code url} (e.g. its outlinks), linked to its archived {@code response}.
     *
     * @param fields the record's {@code name: value} fields, in order
     * @throws IOException naming the file when it cannot be written
     */
    void archiveMetadata(String url, WarcLocation response, List<Map.Entry<String, String>> fields) throws IOException;

    /** The files written so far, oldest first; none for {@link #NONE}. */
    List<Path> files();

    /** Closes the current file, synced to disk. */
    @Override
    void close() throws IOException;
}
