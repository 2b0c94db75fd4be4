package org.sievecrawler.progress;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * How many links the crawl followed under another, canonical form than they were written in, as summary.json's
 * {@code canonicalized} and the final log line say: links, sitemap URLs and redirect targets from which the
 * normalizer removed the query parameters {@code scope.ignore-params} names, each occurrence counted, in this run
 * (a resumed crawl counts from the resume). Such a link is not refused: it is crawled once under its canonical
 * form, like any other link the Sieve has seen. Immutable.
 *
 * @param ignoreParams links followed without {@code scope.ignore-params}' parameters
 */
public record Canonicalized(long ignoreParams) implements SummarySection {

    /** Writes the field {@code canonicalized}: {@code {"ignoreParams": n}}. */
    @Override
    public void writeField(JsonGenerator json) throws IOException {
        json.writeObjectFieldStart("canonicalized");
        json.writeNumberField("ignoreParams", ignoreParams);
        json.writeEndObject();
    }

    /** {@code canonicalized: n links without scope.ignore-params' parameters}, or nothing when n is 0. */
    @Override
    public String words() {
        return ignoreParams == 0 ? "" : "canonicalized: " + ignoreParams + " links without scope.ignore-params'"
                + " parameters";
    }
}
