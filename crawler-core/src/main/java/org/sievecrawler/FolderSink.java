package org.sievecrawler;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.graph.Edge;
import org.sievecrawler.graph.LinkGraph;
import org.sievecrawler.link.RejectReason;
import org.sievecrawler.pipeline.PageOutput;
import org.sievecrawler.progress.CrawlStats;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.PageRecord;
import org.sievecrawler.warc.Archive;
import org.sievecrawler.warc.Recapture;
import org.sievecrawler.warc.WarcLocation;

/**
 * The crawl's output folder, with its two faces: the steps' {@link PageOutput} (exchanges to the WARC files, or to
 * {@link Archive#NONE} with {@code output.warc} off, and the counts that are not records) and the frontier's
 * {@link #recorder()}, the one writer of records (to pages.jsonl through {@link JsonlSink}, each counted in the
 * {@link CrawlStats}), which the frontier calls when a lease closes; and the link graph (links.tsv.zst with
 * {@code output.links}, else {@link LinkGraph#NONE}).
 *
 * <p>Thread-safe as its parts are. It opens and closes nothing: the crawl owns the files.
 */
record FolderSink(JsonlSink pages, Archive archive, CrawlStats stats, LinkGraph graph) implements PageOutput {

    /** Without a link graph. */
    FolderSink(JsonlSink pages, Archive archive, CrawlStats stats) {
        this(pages, archive, stats, LinkGraph.NONE);
    }

    @Override
    public void linked(List<Edge> edges) throws IOException {
        graph.add(edges);
    }

    /** Where the records of completed pages go: pages.jsonl and the counters; synced for a checkpoint. */
    Frontier.Recorder recorder() {
        return new Frontier.Recorder() {
            @Override
            public void record(PageRecord record) throws IOException {
                pages.accept(record);
                stats.record(record);
            }

            @Override
            public void sync() throws IOException {
                pages.sync();
            }

            @Override
            public void overHostBudget(PendingUrl url) {
                stats.linkRejected(RejectReason.OVER_HOST_BUDGET.label());
            }
        };
    }

    @Override
    public long decided() {
        return stats.decided();
    }

    @Override
    public void failedAttempt() {
        stats.failedAttempt();
    }

    @Override
    public void retried() {
        stats.retried();
    }

    @Override
    public void linkRejected(String reason) {
        stats.linkRejected(reason);
    }

    @Override
    public void paramsIgnored() {
        stats.paramsIgnored();
    }

    @Override
    public Optional<WarcLocation> archive(HttpExchange exchange) throws IOException {
        return archive.archive(exchange);
    }

    @Override
    public Optional<WarcLocation> archive(HttpExchange exchange, Recapture recapture) throws IOException {
        return archive.archive(exchange, recapture);
    }

    @Override
    public void archiveMetadata(String url, WarcLocation response, List<Map.Entry<String, String>> fields)
            throws IOException {
        archive.archiveMetadata(url, response, fields);
    }
}
