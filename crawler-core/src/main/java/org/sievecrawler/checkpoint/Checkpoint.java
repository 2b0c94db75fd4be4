package org.sievecrawler.checkpoint;

import java.util.List;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.progress.CrawlCounters;
import org.sievecrawler.sieve.BloomFilter;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.SpillPosition;

/**
 * A crawl's state at one moment: what a checkpoint writes and a resume reads.
 *
 * @param state whether the crawl was running, stopped (resumable) or finished
 * @param endReason why it ended ("finished", "stopped", "max-pages", "max-duration", ...), or null while running
 * @param profile the effective profile the crawl runs with
 * @param filters the Sieve's Bloom filter layers, oldest first
 * @param pending the URLs in flight (fetched again on resume) and then the pending URLs held in memory
 * @param spill where the spilled pending URLs start and end in the frontier's segment files
 * @param counters the crawl's counters
 * @param pagesBytes the length of pages.jsonl (whole lines)
 */
public record Checkpoint(State state, String endReason, CrawlProfile profile, List<BloomFilter> filters,
        List<PendingUrl> pending, SpillPosition spill, CrawlCounters counters, long pagesBytes) {

    /** Whether a crawl can go on from a checkpoint. */
    public enum State {
        /** Written while the crawl ran: a crash may have followed; resumable. */
        RUNNING,
        /**
         * Written at a graceful stop or at a limit (max-pages, max-duration): resumable; its pending URLs include
         * the requests cancelled at the end of the grace period, unrecorded. A crawl that stopped at max-pages goes
         * on with a higher limit.
         */
        STOPPED,
        /** Written when the crawl ran out of URLs: nothing to resume. */
        FINISHED
    }

    public Checkpoint {
        filters = List.copyOf(filters);
        pending = List.copyOf(pending);
    }
}
