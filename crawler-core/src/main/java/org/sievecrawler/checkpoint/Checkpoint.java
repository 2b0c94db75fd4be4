package org.sievecrawler.checkpoint;

import org.sievecrawler.frontier.FrontierState;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.progress.CrawlCounters;
import org.sievecrawler.seed.SeedPosition;

/**
 * A crawl's state at one moment: what a checkpoint writes and a resume reads.
 *
 * @param state whether the crawl was running, stopped (resumable) or finished
 * @param endReason why it ended ("finished", "stopped", "max-pages", "max-duration", ...), or null while running
 * @param profile the effective profile the crawl runs with
 * @param frontier the frontier's filters, pending URLs, spill position and journal segment
 * @param counters the crawl's counters
 * @param pagesBytes the length of pages.jsonl (whole lines)
 * @param seeds the crawl's seed file and how far it was offered ({@link SeedPosition#NONE} without one)
 */
public record Checkpoint(State state, String endReason, CrawlProfile profile, FrontierState frontier,
        CrawlCounters counters, long pagesBytes, SeedPosition seeds) {

    /** A checkpoint of a crawl without a seed file. */
    public Checkpoint(State state, String endReason, CrawlProfile profile, FrontierState frontier,
            CrawlCounters counters, long pagesBytes) {
        this(state, endReason, profile, frontier, counters, pagesBytes, SeedPosition.NONE);
    }

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

    /** This checkpoint in {@code state}, ended for {@code endReason}. */
    Checkpoint ended(State state, String endReason) {
        return new Checkpoint(state, endReason, profile, frontier, counters, pagesBytes, seeds);
    }
}
