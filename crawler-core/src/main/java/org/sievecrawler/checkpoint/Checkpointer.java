package org.sievecrawler.checkpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.frontier.FrontierState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a crawl's checkpoints: {@link #write} has the {@link Frontier} copy its state (and start a new journal
 * segment) while no change is under way, with the rest of the checkpoint read in that same moment (the
 * {@code checkpoint} function, which the composition root builds: counters, pages.jsonl's length), makes the spill
 * segments and pages.jsonl durable, writes the copy with the crawl running, commits it, and then lets the frontier
 * delete the spill and journal segments the checkpoint no longer needs. {@link #every} repeats that on a thread named
 * "checkpoint".
 *
 * <p>Thread-safe: writes are serialized. A periodic checkpoint that fails is logged and the previous one
 * stays current (with the journal segments after it); the crawl goes on.
 */
public final class Checkpointer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Checkpointer.class);

    private final CheckpointStore store;
    private final Frontier frontier;
    private final Function<FrontierState, Checkpoint> checkpoint;
    private ScheduledExecutorService timer;

    public Checkpointer(CheckpointStore store, Frontier frontier, Function<FrontierState, Checkpoint> checkpoint) {
        this.store = store;
        this.frontier = frontier;
        this.checkpoint = checkpoint;
    }

    /** Starts writing a checkpoint every {@code interval} (none if it is zero) until {@link #close()}. */
    public Checkpointer every(Duration interval) {
        if (!interval.isZero()) {
            timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "checkpoint");
                thread.setDaemon(true);
                return thread;
            });
            timer.scheduleWithFixedDelay(this::writePeriodic, interval.toMillis(), interval.toMillis(),
                    TimeUnit.MILLISECONDS);
        }
        return this;
    }

    /**
     * Writes a checkpoint now, in {@code state} for {@code endReason} (null: running).
     *
     * @throws IOException naming the file that failed; the previous checkpoint is then still current
     */
    public synchronized void write(Checkpoint.State state, String endReason) throws IOException {
        Checkpoint copy;
        try {
            copy = frontier.snapshot(checkpoint);
            frontier.sync();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        if (state != null) {
            copy = copy.ended(state, endReason);
        }
        long started = System.nanoTime();
        store.write(copy);
        frontier.checkpointed(copy.frontier());
        LOG.debug("checkpoint written in {} ms: {} pending in memory or in flight, {} spilled, {} records",
                (System.nanoTime() - started) / 1_000_000, copy.frontier().pending().size(),
                copy.frontier().spill().spilled(), copy.counters().decided());
    }

    private void writePeriodic() {
        try {
            write(null, null);
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("checkpoint failed, the previous one stays current: {}", e.getMessage());
        }
    }

    /** Stops the periodic checkpoints, waiting for one under way. */
    @Override
    public void close() {
        if (timer == null) {
            return;
        }
        timer.shutdown();
        try {
            timer.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
