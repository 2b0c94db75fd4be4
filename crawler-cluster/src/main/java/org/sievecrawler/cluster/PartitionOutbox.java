package org.sievecrawler.cluster;

import java.util.List;
import java.util.function.Consumer;
import org.sievecrawler.frontier.LinkOutbox;
import org.sievecrawler.sieve.PendingUrl;

/**
 * Where the links of the pages of one frontier partition go: to {@code <crawl>.frontier}, through the process's
 * {@link FrontierProducer} (to the owners of their hosts, this process included), and then, once all are
 * acknowledged, the page's done marker to the same partition of {@code <crawl>.fetched} ({@link DoneMarkers}). So a
 * done marker never precedes its page's links: a crash in between fetches the page again, and no link is lost.
 *
 * <p>Thread-safe. A failed send is passed to {@code failed} (the process then stops); the page's lease then stays
 * open.
 */
final class PartitionOutbox implements LinkOutbox {
    private final int partition;
    private final FrontierProducer links;
    private final DoneMarkers done;
    private final Consumer<ClusterException> failed;

    PartitionOutbox(int partition, FrontierProducer links, DoneMarkers done, Consumer<ClusterException> failed) {
        this.partition = partition;
        this.links = links;
        this.done = done;
        this.failed = failed;
    }

    @Override
    public void send(PendingUrl page, List<PendingUrl> found, Runnable durable) {
        try {
            links.sendAll(found, () -> markDone(page, durable));
        } catch (ClusterException e) {
            failed.accept(e);
        }
    }

    /** Runs on the frontier producer's I/O thread: the done-log has a producer of its own, so this never waits on
     * its own I/O thread. */
    private void markDone(PendingUrl page, Runnable durable) {
        try {
            done.markDone(partition, page.url(), failure -> failure.ifPresentOrElse(failed, durable));
        } catch (ClusterException e) {
            failed.accept(e);
        }
    }
}
