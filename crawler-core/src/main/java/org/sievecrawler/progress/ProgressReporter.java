package org.sievecrawler.progress;

import java.time.Duration;
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
 */
public final class ProgressReporter implements AutoCloseable {
    /** The logger the progress lines go to; tools filter on it. */
    public static final Logger LOG = LoggerFactory.getLogger("org.sievecrawler.progress");

    private final ScheduledExecutorService timer;
    private final LongFunction<ProgressLine> snapshot;
    private final Consumer<ProgressLine> listener;
    private final java.util.concurrent.atomic.AtomicLong previous = new java.util.concurrent.atomic.AtomicLong();

    /**
     * @param interval time between two lines
     * @param fetchedAtStart the responses counted when this run started (a resumed crawl's earlier ones)
     * @param snapshot builds the line, given the responses counted at the previous line (or at the start)
     * @param listener is given every line {@link #next()} makes
     */
    public ProgressReporter(Duration interval, long fetchedAtStart, LongFunction<ProgressLine> snapshot,
            Consumer<ProgressLine> listener) {
        this.snapshot = snapshot;
        this.listener = listener;
        previous.set(fetchedAtStart);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "progress");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleAtFixedRate(() -> LOG.info(next().toString()),
                interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
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
