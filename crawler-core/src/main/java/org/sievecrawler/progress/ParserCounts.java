package org.sievecrawler.progress;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the crawl's HTML pages were read: by the byte scanner, or by jsoup when the scanner was unsure, and why.
 *
 * @param scanned pages the scanner read
 * @param fellBack pages the scanner was unsure of, which jsoup read
 * @param fallbackReasons pages that fell back, by the scanner's reason (a label without positions), most frequent
 *     first
 */
public record ParserCounts(long scanned, long fellBack, Map<String, Long> fallbackReasons) {
    public ParserCounts {
        fallbackReasons = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fallbackReasons));
    }

    /** No page read yet. */
    public static ParserCounts none() {
        return new ParserCounts(0, 0, Map.of());
    }

    /** The share of pages that fell back to jsoup, 0 when none was read. */
    public double fallbackShare() {
        long pages = scanned + fellBack;
        return pages == 0 ? 0 : (double) fellBack / pages;
    }
}
