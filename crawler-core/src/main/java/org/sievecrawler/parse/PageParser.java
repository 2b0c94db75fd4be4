package org.sievecrawler.parse;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import okhttp3.HttpUrl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crawl's entry point for reading a page: the fast {@link HrefScanner} first, and the reference
 * {@link JsoupPageParser} for every page the scanner is unsure of. Each {@link ParsedPage} says which one read it,
 * and the parser counts both, and the fallbacks by the scanner's reason, so the crawl can report the fallback
 * rate and what causes it. The detail of each fallback (with its byte offset) goes to the DEBUG log.
 *
 * <p>Safe for any number of threads; the counters are {@link LongAdder}s, the reasons a
 * {@link ConcurrentHashMap} of them (reasons come from a small fixed set of labels). Out of scope: fetching,
 * resolving and normalizing links, and deciding which links to follow.
 */
public final class PageParser {
    private static final Logger LOG = LoggerFactory.getLogger(PageParser.class);

    private final HrefScanner scanner = new HrefScanner();
    private final JsoupPageParser jsoup = new JsoupPageParser();
    private final LongAdder scanned = new LongAdder();
    private final LongAdder fellBack = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> reasons = new ConcurrentHashMap<>();

    /**
     * Reads links and metadata from {@code length} bytes of {@code body}. Never throws on malformed markup.
     *
     * @param contentType the Content-Type header value, or null
     * @param pageUrl the URL the page was fetched from (the base when the page has no usable {@code <base href>})
     * @throws IllegalArgumentException if {@code length} is not within {@code body}
     */
    public ParsedPage parse(byte[] body, int length, String contentType, HttpUrl pageUrl) {
        ScanResult result = scanner.scan(body, length, contentType, pageUrl);
        if (result instanceof ScanResult.Scanned done) {
            scanned.increment();
            return done.page();
        }
        ScanResult.Unsure unsure = (ScanResult.Unsure) result;
        fellBack.increment();
        LongAdder count = reasons.get(unsure.reason());
        if (count == null) {
            count = reasons.computeIfAbsent(unsure.reason(), r -> new LongAdder());
        }
        count.increment();
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}: read by jsoup, the scanner is unsure: {}", pageUrl, unsure.detail());
        }
        return jsoup.parse(body, length, contentType, pageUrl);
    }

    /** Pages the scanner read so far. */
    public long scannedPages() {
        return scanned.sum();
    }

    /** Pages the scanner was unsure of and jsoup read so far. */
    public long fallbackPages() {
        return fellBack.sum();
    }

    /** The share of the pages read so far that fell back to jsoup, 0 when none was read. */
    public double fallbackShare() {
        long back = fellBack.sum();
        long all = back + scanned.sum();
        return all == 0 ? 0 : back / (double) all;
    }

    /** Pages that fell back so far, by the scanner's reason, the most frequent first (ties by reason). */
    public Map<String, Long> fallbackReasons() {
        Map<String, Long> sorted = new LinkedHashMap<>();
        reasons.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue().sum()))
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    static void checkArguments(byte[] body, int length, HttpUrl pageUrl) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(pageUrl, "pageUrl");
        if (length < 0 || length > body.length) {
            throw new IllegalArgumentException(
                    "length must be within the body's " + body.length + " bytes but was " + length);
        }
    }
}
