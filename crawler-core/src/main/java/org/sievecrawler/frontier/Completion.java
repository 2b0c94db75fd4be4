package org.sievecrawler.frontier;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.Sieve;
import org.sievecrawler.sink.PageRecord;

/**
 * How a {@link Frontier} completes a page lease with its records and links: the links into its own Sieve
 * ({@link IntoSieve}, a crawl's one frontier), or to a {@link LinkOutbox} ({@link Elsewhere}, a frontier fed from
 * outside). Called under the frontier's shared lock, never after it is sealed.
 *
 * <p>Thread-safe as the frontier: parse and fetcher threads complete their own leases at once.
 */
sealed interface Completion permits Completion.IntoSieve, Completion.Elsewhere {
    void complete(PageLease lease, List<PageRecord> records, List<PendingUrl> links) throws IOException;

    /**
     * The links go into the frontier's Sieve first (so a resumed crawl never lacks a link of a recorded page), then
     * the records are written, then the journal notes both; the lease is closed at once.
     */
    record IntoSieve(Sieve sieve, Journal journal, Frontier.Recorder recorder, OpenLeases leases)
            implements Completion {
        @Override
        public void complete(PageLease lease, List<PageRecord> records, List<PendingUrl> links) throws IOException {
            List<PendingUrl> admitted = links.isEmpty() ? List.of() : new ArrayList<>(links.size());
            if (!links.isEmpty()) {
                sieve.offerAll(links, admitted);
            }
            for (PageRecord record : records) {
                recorder.record(record);
            }
            journal.append(admitted, lease.url());
            leases.pageLeft(lease);
            leases.closed();
        }
    }

    /**
     * The records are written, the links sent to the outbox; the page leaves the frontier's state at once (a
     * snapshot taken now no longer holds it: whoever commits such a snapshot waits for the links sent before it), and
     * the lease counts as open until the outbox says the links are durable.
     */
    record Elsewhere(LinkOutbox outbox, Frontier.Recorder recorder, OpenLeases leases) implements Completion {
        @Override
        public void complete(PageLease lease, List<PageRecord> records, List<PendingUrl> links) throws IOException {
            for (PageRecord record : records) {
                recorder.record(record);
            }
            leases.pageLeft(lease);
            outbox.send(lease.task(), links, leases::closed);
        }
    }
}
