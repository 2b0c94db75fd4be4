package org.sievecrawler.cli;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.sievecrawler.progress.ProgressLine;

/**
 * The live progress line of {@code crawler crawl} at a terminal (its {@link LiveProgress} when there is one): one
 * line at the bottom of standard error, redrawn every {@value #REDRAW_MILLIS} ms from the crawl's progress now, e.g.
 * {@code pages 12034 | 2510/s | queued 8123 | seen~20155 | fpr 0.020% | errors 12 | 140MB | 1:05 | avg 2400/s |
 * active 16/16}, with the log lines scrolling above it ({@link StatusLine}); the rate is over the last
 * {@value #RATE_WINDOW_SECONDS} s of redraws. While it is shown, the console leaves out the progress log lines
 * (logger {@code org.sievecrawler.progress}: it shows them better); crawl.log keeps them all, unchanged.
 *
 * <p>A resized window: at each SIGWINCH the line is redrawn at once to the width read again
 * ({@link ErrTerminal#measured()}), the rows a narrower window wrapped it onto erased first where the terminal
 * reflows ({@link StatusLine#resized}).
 *
 * <p>Out of scope: a block of several lines, colours.
 *
 * <p>Thread-safe: one daemon thread ("live-progress") redraws, and reads the width again after a resize;
 * {@link #close()}, under this object's lock, stops it and erases the line.
 */
final class LiveLine implements LiveProgress {
    static final int REDRAW_MILLIS = 500;
    static final int RATE_WINDOW_SECONDS = 5;
    private static final String SEPARATOR = " | ";

    private final StatusLine status;
    private final ScheduledExecutorService timer;
    private final AutoCloseable console;
    private final StopSignal.Registration resizes;
    private final AtomicBoolean resized = new AtomicBoolean();
    private final Deque<Sample> samples = new ArrayDeque<>();
    private boolean closed; // guarded by this
    private ErrTerminal terminal; // on the redrawing thread only

    /** The pages fetched by the crawl at a moment, in nanoseconds of {@link System#nanoTime()}. */
    record Sample(long nanos, long fetched) {
    }

    /** Draws the line on {@code terminal} from {@code progress} from now until {@link #close()}. */
    LiveLine(ErrTerminal terminal, Supplier<Optional<ProgressLine>> progress) {
        PrintStream err = System.err;
        this.status = new StatusLine(err);
        this.terminal = terminal;
        this.console = LogSetup.consoleAbove(status.above());
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "live-progress");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(() -> redraw(progress), 0, REDRAW_MILLIS, TimeUnit.MILLISECONDS);
        this.resizes = ErrTerminal.onResize(() -> {
            resized.set(true);
            try {
                timer.execute(() -> redraw(progress));
            } catch (RejectedExecutionException closing) {
                // the line is going away: nothing to redraw
            }
        });
    }

    /** Messages written above the line; {@code err} is left alone. */
    @Override
    public PrintWriter messages(PrintWriter err) {
        return new PrintWriter(new OutputStreamWriter(status.above(), Charset.defaultCharset()), true);
    }

    private void redraw(Supplier<Optional<ProgressLine>> progress) {
        try {
            if (resized.getAndSet(false)) {
                terminal = terminal.measured();
                if (terminal.reflows()) {
                    status.resized(terminal.width());
                }
            }
            Optional<ProgressLine> now = progress.get();
            if (now.isEmpty()) {
                return; // not started yet, or the fetchers ended: the summary follows
            }
            samples.addLast(new Sample(System.nanoTime(), now.get().fetched()));
            while (samples.size() > 2 && samples.getLast().nanos() - samples.getFirst().nanos()
                    > Duration.ofSeconds(RATE_WINDOW_SECONDS).toNanos()) {
                samples.removeFirst();
            }
            status.show(render(now.get(), rate(samples.getFirst(), samples.getLast(),
                    now.get().averagePerSecond()), terminal.width()));
        } catch (RuntimeException e) {
            // a gauge read as the crawl ends: the next redraw, or the summary, says more
        }
    }

    /**
     * Pages per second between two samples; {@code average} while they are less than a second apart (the first
     * redraws).
     */
    static double rate(Sample first, Sample last, double average) {
        long nanos = last.nanos() - first.nanos();
        return nanos < TimeUnit.SECONDS.toNanos(1) ? average
                : (last.fetched() - first.fetched()) * 1e9 / nanos;
    }

    /**
     * The line for {@code line} at {@code ratePerSecond}, at most {@code width - 1} characters (the last column is
     * left free: some terminals wrap when it is written). The parts are dropped from the least useful when it is
     * too long: active, avg, bytes, fpr, seen~, errors, queued, elapsed; pages and rate stay, cut if need be.
     */
    static String render(ProgressLine line, double ratePerSecond, int width) {
        // in the order shown; the priority is where a part is dropped (the highest first)
        List<String> parts = new ArrayList<>(List.of(
                "pages " + line.fetched(),
                ProgressLine.rate(ratePerSecond) + "/s",
                "queued " + line.queued(),
                "seen~" + line.seen(),
                "fpr " + ProgressLine.percent(line.falsePositiveRate()) + "%",
                "errors " + line.errors(),
                ProgressLine.megabytes(line.bytes()),
                elapsed(line.elapsedSeconds()),
                "avg " + ProgressLine.rate(line.averagePerSecond()) + "/s",
                "active " + line.active() + "/" + line.threads()));
        int[] dropOrder = {9, 8, 6, 4, 3, 5, 2, 7}; // indexes into the list above
        int max = Math.max(1, width - 1);
        String text = String.join(SEPARATOR, parts);
        for (int i = 0; i < dropOrder.length && text.length() > max; i++) {
            parts.set(dropOrder[i], null);
            text = String.join(SEPARATOR, parts.stream().filter(p -> p != null).toList());
        }
        return text.length() > max ? text.substring(0, max) : text;
    }

    /** Seconds as m:ss, or h:mm:ss from an hour. */
    static String elapsed(long seconds) {
        long h = seconds / 3600;
        long m = seconds / 60 % 60;
        long s = seconds % 60;
        return h > 0 ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, s)
                : String.format(Locale.ROOT, "%d:%02d", m, s);
    }

    /**
     * Stops the redraws, erases the line and gives the console back its progress lines; again, does nothing. A
     * caller returns once the line is erased, also while another thread is closing it: the command's thread, about
     * to print the summary, and a second Ctrl-C's, about to halt the JVM, may both close it at once (the summary was
     * printed on the line's row when the command's close returned early).
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        resizes.close();
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        status.clear();
        try {
            console.close();
        } catch (Exception e) {
            // restoring the console appender; nothing left to report it to
        }
    }
}
