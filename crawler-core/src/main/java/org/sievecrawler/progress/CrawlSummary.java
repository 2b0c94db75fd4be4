package org.sievecrawler.progress;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What a finished (or stopped) crawl did, written to summary.json.
 *
 * @param startedAt when this run of the crawl started (its start, or its resume)
 * @param duration how long this run took
 * @param endReason why it ended: "finished" (no work left), "max-pages", "max-duration", "stopped", "failed"
 * @param decided URLs decided (records written)
 * @param fetched responses received
 * @param fetchedThisRun responses received in this run: {@code fetched} less those of the runs before a resume
 * @param bytes body bytes read
 * @param outcomes records by outcome label
 * @param statuses responses by HTTP status
 * @param linkRejections links not offered to the Sieve, by reason
 * @param sieveExpected the Sieve's expected size n
 * @param sieveEstimate the Sieve's estimate of distinct URLs seen, n*
 * @param sieveFalsePositiveRate the Sieve's false-positive rate at the end
 * @param pending URLs still pending when the crawl ended
 * @param parsing how the HTML pages were parsed
 */
public record CrawlSummary(Instant startedAt, Duration duration, String endReason, long decided, long fetched,
        long fetchedThisRun, long bytes, Map<String, Long> outcomes, Map<Integer, Long> statuses, Map<String, Long> linkRejections,
        long sieveExpected, double sieveEstimate, double sieveFalsePositiveRate, long pending, Parsing parsing) {
    /** The fallback reasons summary.json lists, the most frequent first. */
    static final int MAX_REASONS = 20;

    public CrawlSummary {
        outcomes = Map.copyOf(outcomes);
        statuses = Map.copyOf(statuses);
        linkRejections = Map.copyOf(linkRejections);
        Objects.requireNonNull(parsing, "parsing");
    }

    /**
     * How the HTML pages of this run of the crawl were parsed (a resumed crawl counts from the resume).
     *
     * @param scanned pages the byte scanner read
     * @param fellBack pages the scanner was unsure of, read by jsoup
     * @param fallbackReasons fallbacks by the scanner's reason, in the order given (the most frequent first)
     */
    public record Parsing(long scanned, long fellBack, Map<String, Long> fallbackReasons) {
        public Parsing {
            fallbackReasons = Collections.unmodifiableMap(new LinkedHashMap<>(fallbackReasons));
        }
    }

    /** Responses per second in this run: its responses over its duration (a resume does not count earlier runs). */
    public double pagesPerSecond() {
        double seconds = duration.toMillis() / 1000.0;
        return seconds > 0 ? fetchedThisRun / seconds : 0;
    }

    /** The one summary line for the log. */
    public String line() {
        return String.format(Locale.ROOT,
                "crawl %s: decided=%d fetched=%d avg=%s/s bytes=%s duration=%.1fs pending=%d seen~%.0f fpr=%.3g%%",
                endReason, decided, fetched, ProgressLine.rate(pagesPerSecond()), ProgressLine.megabytes(bytes),
                duration.toMillis() / 1000.0, pending, sieveEstimate, sieveFalsePositiveRate * 100);
    }

    /** Writes summary.json to {@code path} through a temporary file, so a reader never sees half of it. */
    public void writeTo(Path path) throws IOException {
        Path temporary = path.resolveSibling(path.getFileName() + ".tmp");
        try (OutputStream out = Files.newOutputStream(temporary);
                JsonGenerator json = new JsonFactory().createGenerator(out).useDefaultPrettyPrinter()) {
            json.writeStartObject();
            json.writeStringField("startedAt", startedAt.toString());
            json.writeNumberField("durationMs", duration.toMillis());
            json.writeStringField("endReason", endReason);
            json.writeNumberField("decided", decided);
            json.writeNumberField("fetched", fetched);
            json.writeNumberField("fetchedThisRun", fetchedThisRun);
            double rate = pagesPerSecond();
            json.writeNumberField("pagesPerSecond", rate < 10 ? Math.round(rate * 100) / 100.0
                    : Math.round(rate * 10) / 10.0);
            json.writeNumberField("bytes", bytes);
            json.writeNumberField("pending", pending);
            writeCounts(json, "outcomes", outcomes);
            json.writeObjectFieldStart("statuses");
            for (Map.Entry<Integer, Long> e : new java.util.TreeMap<>(statuses).entrySet()) {
                json.writeNumberField(String.valueOf(e.getKey()), e.getValue());
            }
            json.writeEndObject();
            writeCounts(json, "linkRejections", linkRejections);
            json.writeObjectFieldStart("parser");
            json.writeNumberField("scanned", parsing.scanned());
            json.writeNumberField("fellBack", parsing.fellBack());
            json.writeObjectFieldStart("fallbackReasons");
            int reasons = 0;
            for (Map.Entry<String, Long> e : parsing.fallbackReasons().entrySet()) {
                if (reasons++ == MAX_REASONS) {
                    break;
                }
                json.writeNumberField(e.getKey(), e.getValue());
            }
            json.writeEndObject();
            json.writeEndObject();
            json.writeObjectFieldStart("sieve");
            json.writeNumberField("expectedUrls", sieveExpected);
            json.writeNumberField("estimatedSeen", Math.round(sieveEstimate));
            json.writeNumberField("falsePositiveRate", sieveFalsePositiveRate);
            json.writeEndObject();
            json.writeEndObject();
        }
        Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void writeCounts(JsonGenerator json, String name, Map<String, Long> counts) throws IOException {
        json.writeObjectFieldStart(name);
        for (Map.Entry<String, Long> e : new java.util.TreeMap<>(counts).entrySet()) {
            json.writeNumberField(e.getKey(), e.getValue());
        }
        json.writeEndObject();
    }
}
