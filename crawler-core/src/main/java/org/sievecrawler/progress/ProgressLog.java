package org.sievecrawler.progress;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Consumer;
import org.sievecrawler.escape.Json;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * progress.jsonl: every {@link ProgressLine} of a crawl as one JSON object a line, appended (a resumed crawl goes on
 * in the same file; {@code elapsed} starts again from 0 at each run), flushed line by line so a report can be drawn
 * while the crawl runs or after it was killed. The fields are the line's, by the names of its text form, after
 * {@code at}, the time it was written (ISO-8601, to the millisecond; {@code elapsed} is in whole seconds):
 * {@code {"at":"2026-11-23T19:34:05.120Z","fetched":12034,"rate":2510.3,"avg":2400.1,"queued":8123,"seen":20155,
 * "fpr":2.0E-4,"fallback":0.003,"hosts":3,"active":16,"threads":16,"errors":12,"retries":8,"robotsRefused":4,
 * "bytes":146800640,"elapsed":5}}; a line with URLs refused over their host's budget has {@code "overHostBudget"} after
 * {@code "robotsRefused"}, and the lines of a process that reads records others write have {@code "badRecords"} after
 * those.
 *
 * <p>Thread-safe: lines are written whole, one at a time. Reading the file is the report's
 * ({@link org.sievecrawler.report.CrawlReport}).
 */
public final class ProgressLog implements Consumer<ProgressLine>, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProgressLog.class);

    private final Path path;
    private final Writer out;
    private final Clock clock;
    private boolean failed;

    private ProgressLog(Path path, Writer out, Clock clock) {
        this.path = path;
        this.out = out;
        this.clock = clock;
    }

    /** The file at {@code path}, created or appended to; {@code clock} gives each line's time. */
    public static ProgressLog append(Path path, Clock clock) throws IOException {
        return new ProgressLog(path, Files.newBufferedWriter(path, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND, StandardOpenOption.WRITE), clock);
    }

    /**
     * Appends {@code line}. The file is a view of the crawl, not its record: when it cannot be written, a warning
     * names it and the crawl goes on without it (no later line is written).
     */
    @Override
    public synchronized void accept(ProgressLine line) {
        if (failed) {
            return;
        }
        try {
            out.write(json(line, clock.instant()));
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            failed = true;
            LOG.warn("cannot append to {}, no more progress lines go there: {}", path, e.getMessage());
        }
    }

    /** {@code line}, written {@code at}, as one JSON object, without a line end. */
    static String json(ProgressLine line, Instant at) {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = Json.writer(text)) {
            json.writeStartObject();
            json.writeStringField("at", at.truncatedTo(ChronoUnit.MILLIS).toString());
            json.writeNumberField("fetched", line.fetched());
            json.writeNumberField("rate", round(line.ratePerSecond()));
            json.writeNumberField("avg", round(line.averagePerSecond()));
            json.writeNumberField("queued", line.queued());
            json.writeNumberField("seen", line.seen());
            json.writeNumberField("fpr", line.falsePositiveRate());
            json.writeNumberField("fallback", line.fallbackShare());
            json.writeNumberField("hosts", line.hosts());
            json.writeNumberField("active", line.active());
            json.writeNumberField("threads", line.threads());
            json.writeNumberField("errors", line.errors());
            json.writeNumberField("retries", line.retries());
            json.writeNumberField("robotsRefused", line.robotsRefused());
            if (line.overHostBudget() > 0) {
                json.writeNumberField("overHostBudget", line.overHostBudget());
            }
            if (line.badRecords().isPresent()) {
                json.writeNumberField("badRecords", line.badRecords().getAsLong());
            }
            json.writeNumberField("bytes", line.bytes());
            json.writeNumberField("elapsed", line.elapsedSeconds());
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return text.toString();
    }

    private static double round(double rate) {
        return Math.round(rate * 100) / 100.0;
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
