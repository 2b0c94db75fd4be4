package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * One top-level member of audit.json (e.g. {@code brokenLinks}), already built from a crawl's folder.
 * Implementations are immutable once built and hold at most what they write (bounded: anything that grows with the
 * crawl stays on disk until {@link #write}).
 */
public interface AuditSection {
    /** The member's name in audit.json, e.g. {@code "brokenLinks"}. */
    String name();

    /** How many findings the section lists (broken links, redirect chains, duplicate groups...): for summaries. */
    long findings();

    /** Writes the member's value (an array or an object, never the name) to {@code json}. */
    void write(JsonGenerator json) throws IOException;
}
