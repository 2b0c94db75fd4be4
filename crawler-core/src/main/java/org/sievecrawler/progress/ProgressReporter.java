package org.sievecrawler.progress;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a {@link ProgressLine} at INFO on the logger {@code org.sievecrawler.progress} every interval, from
 * one named daemon thread ("progress") that {@link #close()} stops; each line also goes to a listener (e.g. a
 * {@link ProgressLog}).
 *
 * <p><b>Quiet when idle</b> (with an idle note, for a process that waits for work from elsewhere, such as one whose
 * frontiers fed from outside drained): a line with nothing fetched since the line before, nothing queued and no request
 * in flight is logged once, followed by the note; the lines after it are left out (neither logged nor given to the
 * listener) for as long as they stay idle, and the next line with work is logged again.
 *
 * <p>Thread-safe: the timer thread writes the lines; {@link #next()} may be called from another thread.
 */
public final class ProgressReporter implements AutoCloseable {
    /** The logger the progress lines go to; tools filter on it. */
    public static final Logger LOG = LoggerFactory.getLogger("org.sievecrawler.progress");

    private final ScheduledExecutorService timer;
    private final LongFunction<ProgressLine> snapshot;
    private final Consumer<ProgressLine> listener;
    private final java.util.concurrent.atomic.AtomicLong previous = new java.util.concurrent.atomic.AtomicLong();
    private final Optional<String> idleNote;
    /** The last line logged was idle, and its note said so: idle lines are left out. Guarded by this. */
    private boolean quiet;

    /**
     * @param interval time between two lines
     * @param fetchedAtStart the responses counted when this run started (a resumed crawl's earlier ones)
     * @param snapshot builds the line, given the responses counted at the previous line (or at the start)
     * @param listener is given every line {@link #next()} makes
     * @param idleNote when present, the reporter is quiet when idle, with this note (see the class comment)
     */
    public ProgressReporter(Duration interval, long fetchedAtStart, LongFunction<ProgressLine> snapshot,
            Consumer<ProgressLine> listener, Optional<String> idleNote) {
        this.snapshot = snapshot;
        this.listener = listener;
        this.idleNote = idleNote;
        previous.set(fetchedAtStart);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "progress");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleAtFixedRate(this::tick, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One interval's line: logged, unless it is idle after an idle one (see the class comment). */
    synchronized void tick() {
        long before = previous.get();
        ProgressLine line = snapshot.apply(before);
        previous.set(line.fetched());
        boolean idle = idleNote.isPresent() && line.fetched() == before && line.queued() == 0 && line.active() == 0;
        if (idle && quiet) {
            return;
        }
        listener.accept(line);
        LOG.info(line.toString());
        if (idle) {
            LOG.info(idleNote.get());
        }
        quiet = idle;
    }

    /** The next line, also given to the listener: its rate counts the responses since the line before. */
    public ProgressLine next() {
        ProgressLine line = snapshot.apply(previous.get());
        previous.set(line.fetched());
        listener.accept(line);
        return line;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
