package org.sievecrawler.checkpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.sievecrawler.sieve.SpillingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a crawl's checkpoints: {@link #write} copies the state under the {@link SnapshotLock}'s exclusive side
 * (the {@code snapshot} supplier, which the composition root builds from the crawl's parts), makes the spill
 * segments durable, writes the copy with the crawl running, commits it, and then lets the spill delete the
 * segments the checkpoint no longer needs. {@link #every} repeats that on a thread named "checkpoint".
 *
 * <p>Thread-safe: writes are serialized. A periodic checkpoint that fails is logged and the previous one
 * stays current; the crawl goes on.
 */
public final class Checkpointer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Checkpointer.class);

    private final CheckpointStore store;
    private final SnapshotLock lock;
    private final SpillingQueue spill;
    private final Supplier<Checkpoint> snapshot;
    private ScheduledExecutorService timer;

    public Checkpointer(CheckpointStore store, SnapshotLock lock, SpillingQueue spill, Supplier<Checkpoint> snapshot) {
        this.store = store;
        this.lock = lock;
        this.spill = spill;
        this.snapshot = snapshot;
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
     * Writes a checkpoint now, with the state {@code finish} gives the snapshot (null: as it is).
     *
     * @throws IOException naming the file that failed; the previous checkpoint is then still current
     */
    public synchronized void write(Checkpoint.State state, String endReason) throws IOException {
        Checkpoint copy = lock.exclusive(snapshot);
        if (state != null) {
            copy = new Checkpoint(state, endReason, copy.profile(), copy.filters(), copy.pending(), copy.spill(),
                    copy.counters(), copy.pagesBytes());
        }
        try {
            spill.sync();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        long started = System.nanoTime();
        store.write(copy);
        spill.releaseBefore(copy.spill().readSegment());
        LOG.debug("checkpoint written in {} ms: {} pending in memory or in flight, {} spilled, {} records",
                (System.nanoTime() - started) / 1_000_000, copy.pending().size(), copy.spill().spilled(),
                copy.counters().decided());
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
