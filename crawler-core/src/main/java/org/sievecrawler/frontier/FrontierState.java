package org.sievecrawler.frontier;

import java.util.List;
import java.util.Objects;
import org.sievecrawler.politeness.HostCounts;
import org.sievecrawler.sieve.FilterLayer;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.SpillPosition;

/**
 * The {@link Frontier}'s state at one moment, as a checkpoint saves it: with the spill segments and the journal
 * entries after it, everything a resume needs to go on as the crawl would have.
 *
 * @param filters the Sieve's Bloom filter layers, oldest first, all of one layout
 * @param pending the URLs leased (fetched again on resume) and then the pending URLs held in memory
 * @param spill where the spilled pending URLs start and end in the frontier's segment files
 * @param journalSegment the first journal segment written after this state: a resume replays it and those after;
 *     {@link #NO_JOURNAL} for a checkpoint written before the journal existed
 * @param admittedPerHost URLs admitted per host key, spent of {@code limits.max-pages-per-host}, by hash; none for a
 *     checkpoint written before admissions were counted (a resume then counts every host from 0)
 */
public record FrontierState(List<FilterLayer> filters, List<PendingUrl> pending, SpillPosition spill,
        int journalSegment, HostCounts admittedPerHost) {
    /** The journal segment of a checkpoint that has none to replay. */
    public static final int NO_JOURNAL = -1;

    public FrontierState {
        filters = List.copyOf(filters);
        pending = List.copyOf(pending);
        Objects.requireNonNull(admittedPerHost, "admittedPerHost"); // immutable
        if (journalSegment < NO_JOURNAL) {
            throw new IllegalArgumentException("journal segment must be >= -1, was " + journalSegment);
        }
    }

    /** A state with no admissions counted per host. */
    public FrontierState(List<FilterLayer> filters, List<PendingUrl> pending, SpillPosition spill,
            int journalSegment) {
        this(filters, pending, spill, journalSegment, HostCounts.NONE);
    }

    /**
     * The state of a frontier that neither spills nor keeps a journal (one of a frontier group): its filter layers
     * and pending URLs alone.
     */
    public static FrontierState of(List<FilterLayer> filters, List<PendingUrl> pending) {
        return new FrontierState(filters, pending, SpillPosition.empty(), NO_JOURNAL);
    }
}
