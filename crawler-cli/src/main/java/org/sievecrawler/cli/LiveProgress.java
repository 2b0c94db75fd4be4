package org.sievecrawler.cli;

import java.io.PrintWriter;
import java.util.Optional;
import java.util.function.Supplier;
import org.sievecrawler.progress.ProgressLine;

/**
 * What {@code crawler crawl} shows of its progress at a terminal while it runs: a live line at the bottom of
 * standard error ({@link LiveLine}) when it is a terminal ({@link ErrTerminal}), else nothing ({@link #OFF}); the
 * command also leaves it off for {@code -q} and {@code --no-progress}. Closed before the summary is printed.
 *
 * <p>Implementations are thread-safe.
 */
interface LiveProgress extends AutoCloseable {
    /** Nothing shown; the console as it is. */
    LiveProgress OFF = new LiveProgress() {
        @Override
        public PrintWriter messages(PrintWriter err) {
            return err;
        }

        @Override
        public void close() {
        }
    };

    /** The live line on {@code terminal} if there is one, drawn from {@code progress}; else {@link #OFF}. */
    static LiveProgress start(Optional<ErrTerminal> terminal, Supplier<Optional<ProgressLine>> progress) {
        return terminal.<LiveProgress>map(t -> new LiveLine(t, progress)).orElse(OFF);
    }

    /** Where the command's messages go while this shows: above the live line, or {@code err} itself when off. */
    PrintWriter messages(PrintWriter err);

    /**
     * Stops showing progress and gives the console back as it was, returning once it is (also when another thread
     * closes it at the same time); closing again does nothing.
     */
    @Override
    void close();
}
