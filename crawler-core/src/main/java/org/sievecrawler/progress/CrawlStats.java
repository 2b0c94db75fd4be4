package org.sievecrawler.progress;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/**
 * The crawl's counters: decisions by outcome and HTTP status, bytes, links refused by reason, failed attempts and
 * retries.
 * Thread-safe and lock-free (one {@link LongAdder} per counter).
 */
public final class CrawlStats {
    private final Map<Outcome, LongAdder> outcomes = new EnumMap<>(Outcome.class);
    private final ConcurrentHashMap<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LongAdder> linkRejections = new ConcurrentHashMap<>();
    private final LongAdder decided = new LongAdder();
    private final LongAdder fetched = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder failedAttempts = new LongAdder();
    private final LongAdder retries = new LongAdder();
    /** URLs listed in the sitemaps read in this run (not in a checkpoint: a resumed crawl counts from 0). */
    private final LongAdder sitemapUrls = new LongAdder();

    /**
     * Links and redirect targets followed without the query parameters {@code scope.ignore-params} names, each
     * occurrence counted, in this run (not in a checkpoint: a resumed crawl counts from 0).
     */
    private final LongAdder paramsIgnored = new LongAdder();

    public CrawlStats() {
        for (Outcome outcome : Outcome.values()) {
            outcomes.put(outcome, new LongAdder());
        }
    }

    /**
     * Counts one record written to the output. Its answer, if any, is a response (and its status counted), except
     * the answer to the sitemap probe that found none ({@link Outcome#NO_SITEMAP}): a guess of the crawl, not a URL
     * of the site.
     */
    public void record(PageRecord record) {
        decided.increment();
        outcomes.get(record.outcome()).increment();
        if (record.status() > 0 && record.outcome() != Outcome.NO_SITEMAP) {
            fetched.increment();
            statuses.computeIfAbsent(record.status(), s -> new LongAdder()).increment();
        }
        bytes.add(record.bytes());
        if (record.outcome() == Outcome.SITEMAP) {
            sitemapUrls.add(record.outlinks());
        }
    }

    /** URLs listed in the sitemaps read in this run (pages, and sitemaps for an index), before scope and Sieve. */
    public long sitemapUrls() {
        return sitemapUrls.sum();
    }

    /**
     * Counts one request (of a page or a robots.txt) that got no usable answer: a network error, a timeout, a 429,
     * 502, 503 or 504 (for robots.txt, any 5xx); whether or not it is tried again. A request sent again at once
     * because its pooled connection had been closed by the server is not one (the fetcher counts those as
     * reconnects), unless the second attempt fails too.
     */
    public void failedAttempt() {
        failedAttempts.increment();
    }

    /** Counts a failed attempt that the crawl will make again later, after a backoff (a crawl retry). */
    public void retried() {
        retries.increment();
    }

    /** Requests that got no usable answer, each attempt counted: the progress line's {@code errors}. */
    public long failedAttempts() {
        return failedAttempts.sum();
    }

    /** Failed attempts made again after a backoff: the progress line's {@code retries}. */
    public long retries() {
        return retries.sum();
    }

    /** Counts a link that was not offered to the Sieve, or not queued past its host's budget, by the reason's label. */
    public void linkRejected(String reason) {
        linkRejections.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }

    /** Counts a link or redirect target the normalizer removed {@code scope.ignore-params} parameters from. */
    public void paramsIgnored() {
        paramsIgnored.increment();
    }

    /** Links and redirect targets followed without {@code scope.ignore-params}' parameters, in this run. */
    public long paramsIgnoredCount() {
        return paramsIgnored.sum();
    }

    /** URLs decided (every record written). */
    public long decided() {
        return decided.sum();
    }

    /** Responses received (records with a status, the missing sitemap probe's aside): the final line's {@code responses}. */
    public long fetched() {
        return fetched.sum();
    }

    public long bytes() {
        return bytes.sum();
    }

    public long count(Outcome outcome) {
        return outcomes.get(outcome).sum();
    }

    /** The counters now, for a checkpoint; consistent only while no record is counted (its lock held). */
    public CrawlCounters snapshot() {
        return new CrawlCounters(decided(), fetched(), bytes(), outcomes(), statuses(), linkRejections(),
                failedAttempts(), retries());
    }

    /**
     * Adds counters a checkpoint saved, so a resumed crawl counts on from them.
     *
     * @throws IllegalArgumentException naming an outcome label this build does not know
     */
    public void restore(CrawlCounters counters) {
        decided.add(counters.decided());
        fetched.add(counters.fetched());
        bytes.add(counters.bytes());
        failedAttempts.add(counters.failedAttempts());
        retries.add(counters.retries());
        counters.outcomes().forEach((label, count) -> outcomes.get(Outcome.fromLabel(label)).add(count));
        counters.statuses().forEach((status, count) ->
                statuses.computeIfAbsent(status, s -> new LongAdder()).add(count));
        counters.linkRejections().forEach((reason, count) ->
                linkRejections.computeIfAbsent(reason, r -> new LongAdder()).add(count));
    }

    /** Counts by outcome label, in the enum's order, zeros included. */
    public Map<String, Long> outcomes() {
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        outcomes.forEach((outcome, count) -> out.put(outcome.label(), count.sum()));
        return out;
    }

    /** Counts by HTTP status, ascending. */
    public Map<Integer, Long> statuses() {
        Map<Integer, Long> out = new TreeMap<>();
        statuses.forEach((status, count) -> out.put(status, count.sum()));
        return out;
    }

    /** Links not offered to the Sieve, by reason label, sorted. */
    public Map<String, Long> linkRejections() {
        Map<String, Long> out = new TreeMap<>();
        linkRejections.forEach((reason, count) -> out.put(reason, count.sum()));
        return out;
    }
}
