package org.sievecrawler.frontier;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import org.sievecrawler.sieve.CorruptFilterException;
import org.sievecrawler.sieve.PendingUrl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link FrontierJournal} held after a checkpoint, read back by {@link FrontierJournal#resume}: the
 * frontier applies it on top of the checkpoint, then goes on appending to {@link #journal}.
 *
 * @param admitted the URLs admitted after the checkpoint, in append order: to put into the Bloom filter and the
 *     pending URLs again (some of them may also be in {@code completed})
 * @param completed the URLs completed after the checkpoint whose records the crawl's output holds: not to be handed
 *     out again
 * @param journal the journal, open for appending in a new segment after the ones read
 * @param segments segments read
 * @param dones done entries read
 * @param unrecorded done entries not replayed as completions: their URLs have no record in the crawl's output (it
 *     lost them after the journal noted them), so they are fetched again
 * @param bytesCut bytes of a torn or corrupt tail cut off the last segment (0 after a clean stop)
 */
public record Replay(List<PendingUrl> admitted, CompletedUrls completed, FrontierJournal journal, int segments,
        long dones, long unrecorded, long bytesCut) {
    private static final Logger LOG = LoggerFactory.getLogger(Replay.class);

    /**
     * What the journal in {@code dir} holds after the checkpoint {@code state}, read back (nothing, with a new
     * journal, for a checkpoint written before the journal existed); a completion whose URL {@code recorded} denies
     * is not replayed, with a warning.
     *
     * @throws CorruptFilterException naming the file if a journal segment before the last is damaged
     * @throws IOException naming the file that could not be read or written
     */
    static Replay since(FrontierState state, Path dir, Predicate<String> recorded) throws IOException {
        if (state.journalSegment() == FrontierState.NO_JOURNAL) {
            return new Replay(List.of(), CompletedUrls.none(), FrontierJournal.create(dir), 0, 0, 0, 0);
        }
        Replay replay = FrontierJournal.resume(dir, state.journalSegment(), recorded);
        LOG.info("frontier journal replayed: {} URLs admitted and {} completed since the checkpoint",
                replay.admitted().size(), replay.completed().size());
        if (replay.unrecorded() > 0) {
            LOG.warn("{} URLs the frontier journal notes completed since the checkpoint have no record in the"
                    + " crawl's output (lost after it was written): they are fetched again", replay.unrecorded());
        }
        return replay;
    }
}
