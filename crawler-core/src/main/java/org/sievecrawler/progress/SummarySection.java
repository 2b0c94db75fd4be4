package org.sievecrawler.progress;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * A part of a crawl's summary that another concept measures at the crawl's end (a recrawl's changes): one field of
 * summary.json and a few words of the final log line. Implementations are immutable values.
 */
public interface SummarySection {
    /** Writes the section as one field of summary.json's object. */
    void writeField(JsonGenerator json) throws IOException;

    /** Its words on the final log line, e.g. {@code changes: 3 new, 12 changed}; empty for none. */
    String words();

    /**
     * Whether its words lead the final line, as an answer about the site (a recrawl's changes); else they follow the
     * crawler's own numbers (the links canonicalized).
     */
    default boolean leads() {
        return false;
    }
}
