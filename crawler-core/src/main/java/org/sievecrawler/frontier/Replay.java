package org.sievecrawler.frontier;

import java.util.List;
import org.sievecrawler.sieve.PendingUrl;

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
}
