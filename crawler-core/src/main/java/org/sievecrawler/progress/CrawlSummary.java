package org.sievecrawler.progress;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.sievecrawler.escape.Json;
import org.sievecrawler.robots.RobotsCache;
import org.sievecrawler.sink.Outcome;

/**
 * What a finished (or stopped) crawl did, written to summary.json.
 *
 * @param startedAt when this run of the crawl started (its start, or its resume)
 * @param duration how long this run took
 * @param endReason why it ended: "finished" (no work left), "max-pages", "max-duration", "stopped", "failed"
 * @param decided URLs decided (records written)
 * @param fetched responses received (summary.json's {@code responses}; the outcome {@code fetched} is a page's, see
 *     {@link Answers#pages()})
 * @param fetchedThisRun responses received in this run: {@code fetched} less those of the runs before a resume
 *     ({@code responsesThisRun})
 * @param bytes body bytes read
 * @param outcomes records by outcome label
 * @param statuses responses by HTTP status
 * @param linkRejections links not offered to the Sieve (or not queued: over-host-budget), by reason
 * @param sieveExpected the Sieve's expected size n
 * @param sieveEstimate the Sieve's estimate of distinct URLs seen, n*
 * @param sieveFalsePositiveRate the Sieve's false-positive rate at the end
 * @param pending URLs still pending when the crawl ended
 * @param parsing how the HTML pages were parsed
 * @param errors failed attempts (see {@link ProgressLine}), since the crawl started (a resume counts on)
 * @param retries failed attempts made again after a backoff, since the crawl started
 * @param reconnects requests sent again at once because the server had closed their pooled connection, in this run
 *     (a resumed crawl counts from the resume)
 * @param descriptorWaits times a request waited for the process to have file descriptors again ("Too many open
 *     files": back-pressure, no failure of the URL or its host), in this run
 * @param dns what the DNS cache did in this run
 * @param unreachableHosts the hosts found unreachable in this run, by host key (sorted), with why, e.g.
 *     {@code http://127.0.0.1:9} → {@code connection refused}
 * @param sitemapUrls URLs listed in the sitemaps read in this run (a resumed crawl counts from the resume); the
 *     sitemaps read are the {@code sitemap} outcome
 * @param robots robots.txt requests started in this run, parked hosts that came back to their cached rules, rules
 *     dropped for room and rules expired after 24 hours ({@link RobotsCache})
 * @param sections what other concepts measured at the crawl's end, in order (a recrawl's changes); none for most
 *     crawls
 */
public record CrawlSummary(Instant startedAt, Duration duration, String endReason, long decided, long fetched,
        long fetchedThisRun, long bytes, Map<String, Long> outcomes, Map<Integer, Long> statuses,
        Map<String, Long> linkRejections, long sieveExpected, double sieveEstimate, double sieveFalsePositiveRate,
        long pending, Parsing parsing, long errors, long retries, long reconnects,
        long descriptorWaits, Dns dns, Map<String, String> unreachableHosts, long sitemapUrls,
        RobotsCache.Counts robots, List<SummarySection> sections) {
    /** The fallback reasons summary.json lists, the most frequent first. */
    static final int MAX_REASONS = 20;

    public CrawlSummary {
        outcomes = Map.copyOf(outcomes);
        statuses = Map.copyOf(statuses);
        linkRejections = Map.copyOf(linkRejections);
        Objects.requireNonNull(parsing, "parsing");
        Objects.requireNonNull(dns, "dns");
        unreachableHosts = Collections.unmodifiableMap(new java.util.TreeMap<>(unreachableHosts));
        sections = List.copyOf(sections);
    }

    /** A summary without sections. */
    public CrawlSummary(Instant startedAt, Duration duration, String endReason, long decided, long fetched,
            long fetchedThisRun, long bytes, Map<String, Long> outcomes, Map<Integer, Long> statuses,
            Map<String, Long> linkRejections, long sieveExpected, double sieveEstimate, double sieveFalsePositiveRate,
            long pending, Parsing parsing, long errors, long retries, long reconnects,
            long descriptorWaits, Dns dns, Map<String, String> unreachableHosts, long sitemapUrls,
            RobotsCache.Counts robots) {
        this(startedAt, duration, endReason, decided, fetched, fetchedThisRun, bytes, outcomes, statuses,
                linkRejections, sieveExpected, sieveEstimate, sieveFalsePositiveRate, pending, parsing, errors,
                retries, reconnects, descriptorWaits, dns, unreachableHosts, sitemapUrls, robots, List.of());
    }

    /** This summary with {@code section} after its sections, if present. */
    public CrawlSummary with(Optional<? extends SummarySection> section) {
        if (section.isEmpty()) {
            return this;
        }
        List<SummarySection> more = new ArrayList<>(sections);
        more.add(section.get());
        return new CrawlSummary(startedAt, duration, endReason, decided, fetched, fetchedThisRun, bytes, outcomes,
                statuses, linkRejections, sieveExpected, sieveEstimate, sieveFalsePositiveRate, pending, parsing,
                errors, retries, reconnects, descriptorWaits, dns, unreachableHosts, sitemapUrls, robots, more);
    }

    /** Hosts named at most on the summary line; summary.json lists them all. */
    static final int MAX_LINE_HOSTS = 5;

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

    /**
     * What the crawl's DNS cache did in this run (a resumed crawl counts from the resume; {@code fetch.dns-ttl}).
     *
     * @param lookups host names asked of it, one per connection opened
     * @param hits names answered from the cache with addresses
     * @param negativeHits names answered from the cache as unknown
     * @param failures names the resolver could not resolve (not counting lookups that failed for want of file
     *     descriptors: those wait, see {@code descriptorWaits})
     */
    public record Dns(long lookups, long hits, long negativeHits, long failures) {
        /** No lookup at all. */
        public static final Dns NONE = new Dns(0, 0, 0, 0);
    }

    /** Responses per second in this run: its responses over its duration (a resume does not count earlier runs). */
    double pagesPerSecond() {
        double seconds = duration.toMillis() / 1000.0;
        return seconds > 0 ? fetchedThisRun / seconds : 0;
    }

    /**
     * The one summary line for the log: what the site answered first, then how the crawl went, ending with the
     * unreachable hosts if any, e.g. {@code crawl finished: decided=771 pages=693 redirects=0 http-errors=78 (404: 78)
     * failed=0 responses=771 avg=2400/s ... errors=3 retries=2 unreachable: http://127.0.0.1:9 (connection refused)}.
     * The words up to {@code responses} are {@link Answers#words()}; {@code errors} and {@code retries} count attempts
     * ({@link ProgressLine}). A section's words go where its {@link SummarySection#place()} says: an answer a crawl is
     * run for (a recrawl's changes) leads the line, {@code crawl finished: changes: 3 new, 12 changed, 2 gone;
     * decided=...}; what explains the answers follows them, {@code ... responses=56; learned: 7 rules, 1,234 URLs
     * refused, 56 rewritten; avg=...}; the others follow the retries.
     */
    public String line() {
        StringBuilder answersFirst = new StringBuilder(); // what changed, for a recrawl, leads
        StringBuilder afterAnswers = new StringBuilder();
        StringBuilder after = new StringBuilder();
        for (SummarySection section : sections) {
            String words = section.words();
            if (words.isEmpty()) { // a section with nothing to say (no parameter ignored) says nothing
                continue;
            }
            switch (section.place()) {
                case LEADS -> answersFirst.append(words).append("; ");
                case FOLLOWS_ANSWERS -> afterAnswers.append("; ").append(words).append(';');
                case TRAILS -> after.append(' ').append(words);
            }
        }
        String line = String.format(Locale.ROOT,
                "crawl %s: %s%s%s avg=%s/s bytes=%s duration=%.1fs pending=%d seen~%.0f fpr=%.3g%% errors=%d"
                        + " retries=%d",
                endReason, answersFirst, answers().words(), afterAnswers, ProgressLine.rate(pagesPerSecond()),
                ProgressLine.megabytes(bytes), duration.toMillis() / 1000.0, pending, sieveEstimate,
                sieveFalsePositiveRate * 100, errors, retries) + after;
        return unreachableHosts.isEmpty() ? line : line + " unreachable: " + unreachableHostsText();
    }

    /** What the site answered: pages, redirects, HTTP errors by status, failures, responses. */
    public Answers answers() {
        return Answers.of(decided, outcomes, statuses, fetched);
    }

    /**
     * The unreachable hosts as text, e.g. {@code http://127.0.0.1:9 (connection refused)}: at most
     * {@link #MAX_LINE_HOSTS}, then how many more.
     */
    String unreachableHostsText() {
        return hostList(" (", " more");
    }

    /** The unreachable hosts, each as its key, {@code beforeReason}, the reason and ")"; at most {@link #MAX_LINE_HOSTS}. */
    private String hostList(String beforeReason, String more) {
        StringBuilder text = new StringBuilder();
        int shown = 0;
        for (Map.Entry<String, String> host : unreachableHosts.entrySet()) {
            if (shown == MAX_LINE_HOSTS) {
                return text.append(" and ").append(unreachableHosts.size() - shown).append(more).toString();
            }
            text.append(shown++ == 0 ? "" : ", ").append(host.getKey()).append(beforeReason).append(host.getValue())
                    .append(')');
        }
        return text.toString();
    }

    /** Whether no response at all was received: no page record has an HTTP status. */
    public boolean nothingFetched() {
        return fetched == 0;
    }

    /**
     * Why nothing was fetched, for a one-line error: the unreachable hosts, else the outcomes of the URLs decided,
     * e.g. "no page could be fetched: http://127.0.0.1:9 unreachable (connection refused)".
     */
    public String whyNothingFetched() {
        if (!unreachableHosts.isEmpty()) {
            return "no page could be fetched: " + hostList(" unreachable (", " more hosts");
        }
        StringBuilder decidedAs = new StringBuilder();
        new java.util.TreeMap<>(outcomes).forEach((outcome, count) -> {
            if (count > 0) {
                decidedAs.append(decidedAs.length() == 0 ? "" : ", ").append(count).append(' ').append(outcome);
            }
        });
        return "no page could be fetched: " + (decided == 0 ? "no URL was decided (" + endReason + ")"
                : decided + " URLs decided, none with a response: " + decidedAs);
    }

    /**
     * Writes summary.json to {@code path} through a temporary file, so a reader never sees half of it; in the
     * crawler's one JSON configuration ({@link Json}), as every JSON file.
     */
    public void writeTo(Path path) throws IOException {
        Path temporary = path.resolveSibling(path.getFileName() + ".tmp");
        try (OutputStream out = Files.newOutputStream(temporary);
                JsonGenerator json = Json.writer(out).useDefaultPrettyPrinter()) {
            json.writeStartObject();
            json.writeStringField("startedAt", startedAt.toString());
            json.writeNumberField("durationMs", duration.toMillis());
            json.writeStringField("endReason", endReason);
            Answers answers = answers();
            json.writeNumberField("decided", decided);
            json.writeNumberField("pages", answers.pages());
            json.writeNumberField("redirects", answers.redirects());
            json.writeNumberField("httpErrors", answers.httpErrors());
            json.writeObjectFieldStart("httpErrorsByStatus");
            for (Map.Entry<Integer, Long> e : answers.httpErrorsByStatus().entrySet()) {
                json.writeNumberField(String.valueOf(e.getKey()), e.getValue());
            }
            json.writeEndObject();
            json.writeNumberField("failed", answers.failed());
            json.writeNumberField("responses", fetched);
            json.writeNumberField("responsesThisRun", fetchedThisRun);
            double rate = pagesPerSecond();
            json.writeNumberField("pagesPerSecond", rate < 10 ? Math.round(rate * 100) / 100.0
                    : Math.round(rate * 10) / 10.0);
            json.writeNumberField("bytes", bytes);
            json.writeNumberField("pending", pending);
            json.writeNumberField("errors", errors);
            json.writeNumberField("retries", retries);
            json.writeNumberField("reconnects", reconnects);
            json.writeNumberField("descriptorWaits", descriptorWaits);
            json.writeObjectFieldStart("dns");
            json.writeNumberField("lookups", dns.lookups());
            json.writeNumberField("hits", dns.hits());
            json.writeNumberField("negativeHits", dns.negativeHits());
            json.writeNumberField("failures", dns.failures());
            json.writeEndObject();
            json.writeArrayFieldStart("unreachableHosts");
            for (Map.Entry<String, String> host : unreachableHosts.entrySet()) {
                json.writeStartObject();
                json.writeStringField("host", host.getKey());
                json.writeStringField("reason", host.getValue());
                json.writeEndObject();
            }
            json.writeEndArray();
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
            json.writeObjectFieldStart("sitemaps");
            json.writeNumberField("fetched", outcomes.getOrDefault(Outcome.SITEMAP.label(), 0L));
            json.writeNumberField("urlsFound", sitemapUrls);
            json.writeNumberField("missing", outcomes.getOrDefault(Outcome.NO_SITEMAP.label(), 0L));
            json.writeEndObject();
            json.writeObjectFieldStart("robots");
            json.writeNumberField("fetches", robots.fetches());
            json.writeNumberField("cacheHits", robots.hits());
            json.writeNumberField("cacheEvictions", robots.evictions());
            json.writeNumberField("expiries", robots.expiries());
            json.writeEndObject();
            json.writeObjectFieldStart("sieve");
            json.writeNumberField("expectedUrls", sieveExpected);
            json.writeNumberField("estimatedSeen", Math.round(sieveEstimate));
            json.writeNumberField("falsePositiveRate", sieveFalsePositiveRate);
            json.writeEndObject();
            for (SummarySection section : sections) {
                section.writeField(json);
            }
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
