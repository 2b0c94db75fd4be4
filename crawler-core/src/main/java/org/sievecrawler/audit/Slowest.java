package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.PageRecord;

/**
 * audit.json's {@code slowest}: the {@link #SIZE} answers that took longest, slowest first (the same time by URL):
 * {@code [{url, status, outcome, totalMs, ttfbMs}]}, {@code totalMs} the record's {@code fetchMs} (from the request
 * to the end of the body; to the headers for a redirect), {@code ttfbMs} its time to the response headers (left out
 * when the record has none: a redirect, a record of an older build). Kept in a heap of {@link #SIZE} while pages.jsonl is read.
 * Immutable once built.
 */
public final class Slowest implements AuditSection {
    static final String NAME = "slowest";
    /** How many answers it lists. */
    static final int SIZE = 50;
    /** Slowest first, then by URL. */
    private static final Comparator<PageRecord> ORDER = Comparator.comparingLong(PageRecord::fetchMs).reversed()
            .thenComparing(PageRecord::url);

    private final List<PageRecord> slowest;

    private Slowest(List<PageRecord> slowest) {
        this.slowest = List.copyOf(slowest);
    }

    /** The slowest answers of the crawl in {@code dir}, from its pages.jsonl (records with a status). */
    public static Slowest of(Path dir) throws IOException {
        PriorityQueue<PageRecord> heap = new PriorityQueue<>(ORDER.reversed()); // the fastest kept on top
        JsonlSink.readSkipping(dir.resolve(CrawlFolder.PAGES), record -> {
            if (record.status() > 0) {
                heap.add(record);
                if (heap.size() > SIZE) {
                    heap.poll();
                }
            }
        });
        List<PageRecord> sorted = new ArrayList<>(heap);
        sorted.sort(ORDER);
        return new Slowest(sorted);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Not findings: a list for reading. */
    @Override
    public long findings() {
        return 0;
    }

    @Override
    public void write(JsonGenerator json) throws IOException {
        json.writeStartArray();
        for (PageRecord record : slowest) {
            json.writeStartObject();
            json.writeStringField("url", record.url());
            json.writeNumberField("status", record.status());
            json.writeStringField("outcome", record.outcome().label());
            json.writeNumberField("totalMs", record.fetchMs());
            if (record.ttfbMs() > 0) {
                json.writeNumberField("ttfbMs", record.ttfbMs());
            }
            json.writeEndObject();
        }
        json.writeEndArray();
    }
}
