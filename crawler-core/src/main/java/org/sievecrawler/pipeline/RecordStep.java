package org.sievecrawler.pipeline;

import java.io.IOException;
import java.util.Optional;
import java.util.function.LongPredicate;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.frontier.PageLease;
import org.sievecrawler.sink.PageRecord;
import org.sievecrawler.warc.WarcLocation;

/**
 * The last step of a page lease, and the one way its record leaves the pipeline: it closes the lease with its
 * {@link Ending}, the record carrying where its response is in the archive. The frontier then admits the links as
 * one batch, writes the records through its {@link Frontier.Recorder} (pages.jsonl and the counters), and journals
 * both, in that order (a record before its journal entry: see {@link Frontier}). Then the crawl is told the number
 * of URLs decided, for {@code limits.max-pages}.
 *
 * <p>Thread-safe: immutable; a lease closes once whichever thread closes it (a fetcher or a parse thread).
 */
final class RecordStep {
    private final PageOutput output;
    private final LongPredicate limitReached;

    /**
     * @param output read for the number of URLs decided
     * @param limitReached told that number after each lease closed with a request made
     */
    RecordStep(PageOutput output, LongPredicate limitReached) {
        this.output = output;
        this.limitReached = limitReached;
    }

    /**
     * Closes {@code lease} with {@code ending}, its record with the place {@code at} of its response in the archive,
     * if it was archived.
     *
     * @throws IOException if a record could not be written (the crawl's output failed)
     */
    void close(PageLease lease, Ending ending, Optional<WarcLocation> at) throws IOException {
        PageRecord record = at.map(place -> ending.record().withWarc(place.file(), place.offset()))
                .orElse(ending.record());
        if (ending.target().isPresent()) {
            lease.completeWithTarget(ending.target().get(), record);
        } else {
            lease.complete(record, ending.links());
        }
        limitReached.test(output.decided());
    }

    /**
     * Closes the lease of a page the checks refused with its {@code record}: no request was made, so its host's delay
     * does not start, and the limit is not asked (the next lease taken is).
     *
     * @throws IOException if the record could not be written
     */
    void refused(PageLease lease, PageRecord record) throws IOException {
        lease.complete(record);
    }

    /**
     * Closes the lease of a page the checks refused with its {@code ending}: its record and the URLs to follow instead
     * (a learned rule's rewrite), admitted with it; no request was made, as {@link #refused(PageLease, PageRecord)}.
     *
     * @throws IOException if the record could not be written
     */
    void refused(PageLease lease, Ending ending) throws IOException {
        lease.complete(ending.record(), ending.links());
    }
}
