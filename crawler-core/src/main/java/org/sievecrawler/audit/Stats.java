package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.progress.Answers;
import org.sievecrawler.progress.CrawlStats;
import org.sievecrawler.sink.JsonlSink;

/**
 * audit.json's {@code stats}: what the final line counts, from pages.jsonl (so also for a crawl stopped hard, which
 * has no summary.json): {@code {decided, pages, redirects, httpErrors, httpErrorsByStatus, failed, responses,
 * outcomes, statuses, nearDuplicatesNotMeasured}}, as {@link Answers} and {@link CrawlStats} count them, the last
 * the pages fetched with a 2xx status without a fingerprint ({@link Duplicates#nearNotMeasured}), which
 * {@code duplicates} cannot list as near duplicates. Immutable once built.
 */
public final class Stats implements AuditSection {
    static final String NAME = "stats";
    /** The member counting the pages near duplicates were not measured for. */
    static final String NEAR_NOT_MEASURED = "nearDuplicatesNotMeasured";

    private final Answers answers;
    private final Map<String, Long> outcomes;
    private final Map<Integer, Long> statuses;
    /** Pages fetched with a 2xx status whose near duplicates were not measured ({@link Duplicates#nearNotMeasured}). */
    private final long nearNotMeasured;

    private Stats(Answers answers, Map<String, Long> outcomes, Map<Integer, Long> statuses, long nearNotMeasured) {
        this.answers = answers;
        this.nearNotMeasured = nearNotMeasured;
        this.outcomes = outcomes;
        this.statuses = statuses;
    }

    /** The counts of the crawl in {@code dir}. */
    public static Stats of(Path dir) throws IOException {
        CrawlStats stats = new CrawlStats();
        long[] notMeasured = {0};
        JsonlSink.readSkipping(dir.resolve(CrawlFolder.PAGES), r -> {
            stats.record(r);
            if (Duplicates.nearNotMeasured(r)) {
                notMeasured[0]++;
            }
        });
        return new Stats(Answers.of(stats.decided(), stats.outcomes(), stats.statuses(), stats.fetched()),
                stats.outcomes(), stats.statuses(), notMeasured[0]);
    }

    /** What the site answered. */
    public Answers answers() {
        return answers;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Not findings: counts. */
    @Override
    public long findings() {
        return 0;
    }

    @Override
    public void write(JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeNumberField("decided", answers.decided());
        json.writeNumberField("pages", answers.pages());
        json.writeNumberField("redirects", answers.redirects());
        json.writeNumberField("httpErrors", answers.httpErrors());
        json.writeObjectFieldStart("httpErrorsByStatus");
        for (Map.Entry<Integer, Long> e : answers.httpErrorsByStatus().entrySet()) {
            json.writeNumberField(String.valueOf(e.getKey()), e.getValue());
        }
        json.writeEndObject();
        json.writeNumberField("failed", answers.failed());
        json.writeNumberField("responses", answers.responses());
        json.writeObjectFieldStart("outcomes");
        for (Map.Entry<String, Long> e : new java.util.TreeMap<>(outcomes).entrySet()) {
            json.writeNumberField(e.getKey(), e.getValue());
        }
        json.writeEndObject();
        json.writeObjectFieldStart("statuses");
        for (Map.Entry<Integer, Long> e : statuses.entrySet()) {
            json.writeNumberField(String.valueOf(e.getKey()), e.getValue());
        }
        json.writeEndObject();
        json.writeNumberField(NEAR_NOT_MEASURED, nearNotMeasured);
        json.writeEndObject();
    }
}
