package org.sievecrawler.frontier;

import java.io.IOException;
import java.util.List;
import org.sievecrawler.sieve.PendingUrl;

/**
 * Where a {@link Frontier} notes its admissions and completions as they happen: the {@link FrontierJournal} of a
 * single-node crawl, or {@link #NONE} for a frontier whose record of them is elsewhere (the log of a frontier fed from
 * outside, one of a frontier group).
 * Thread-safe implementations.
 */
interface Journal extends AutoCloseable {
    /** A frontier that notes nothing: a checkpoint of it has no journal to replay. */
    Journal NONE = new Journal() {
        @Override
        public void append(List<PendingUrl> admitted, String completed) {
        }

        @Override
        public int rotate() {
            return FrontierState.NO_JOURNAL;
        }

        @Override
        public void deleteBefore(int before) {
        }

        @Override
        public void close() {
        }
    };

    /** Notes URLs admitted and the URL completed (null if none), as one write. */
    void append(List<PendingUrl> admitted, String completed);

    /** Starts a new segment at a snapshot; returns its number ({@link FrontierState#NO_JOURNAL} if none). */
    int rotate() throws IOException;

    /** Deletes what a committed checkpoint naming segment {@code before} no longer needs. */
    void deleteBefore(int before) throws IOException;

    @Override
    void close() throws IOException;
}
