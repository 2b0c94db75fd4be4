package org.sievecrawler.pipeline;

import java.util.List;
import java.util.Optional;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sink.PageRecord;

/**
 * How a page lease ends: its last {@code record}, the {@code links} to admit with it as one batch, and, for a
 * redirect whose target is out of scope, the {@code target}'s record (a URL with no lease of its own, written before
 * the redirect's). {@link RecordStep} closes the lease with it.
 *
 * <p>Immutable.
 */
record Ending(PageRecord record, List<PendingUrl> links, Optional<PageRecord> target) {

    /** An end with no links to admit: an error, a refusal, a page not parsed. */
    static Ending of(PageRecord record) {
        return new Ending(record, List.of(), Optional.empty());
    }

    /** An end whose {@code links} (a page's, a sitemap's URLs, a redirect's target) are admitted with its record. */
    static Ending withLinks(PageRecord record, List<PendingUrl> links) {
        return new Ending(record, links, Optional.empty());
    }

    /** A redirect's end whose target, out of scope, is recorded first ({@code target}), then the redirect. */
    static Ending withTarget(PageRecord record, PageRecord target) {
        return new Ending(record, List.of(), Optional.of(target));
    }
}
