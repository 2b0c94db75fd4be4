package org.sievecrawler.progress;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * A part of a crawl's summary that another concept measures at the crawl's end (a recrawl's changes, the rules the
 * crawl learned): one field of summary.json and a few words of the final log line. Implementations are immutable
 * values.
 */
public interface SummarySection {
    /** Where a section's words go on the final line ({@link CrawlSummary#line()}). */
    enum Place {
        /** First, before what the site answered: the answer a crawl was run for (a recrawl's changes). */
        LEADS,
        /**
         * Right after what the site answered, before the crawl's own numbers: what explains those answers (the URLs
         * decided without a fetch by the rules the crawl learned).
         */
        FOLLOWS_ANSWERS,
        /** After the crawl's own numbers (the links canonicalized). */
        TRAILS
    }

    /** Writes the section as one field of summary.json's object. */
    void writeField(JsonGenerator json) throws IOException;

    /** Its words on the final log line, e.g. {@code changes: 3 new, 12 changed}; empty for none. */
    String words();

    /** Where its words go on the final line; after the crawler's own numbers unless it says otherwise. */
    default Place place() {
        return Place.TRAILS;
    }
}
