package org.sievecrawler.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.sievecrawler.CrawlException;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.frontier.LeaseSource;
import org.sievecrawler.profile.ProfileUnits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A crawl's fetcher threads ({@code fetcher-0} ...) and how they end: {@link #run} starts them on a
 * {@link FetchWorker} and returns once the frontier is exhausted, or once the crawl is ending ({@link #stop()},
 * {@code limits.max-pages} as {@link #limitReached} says, {@code limits.max-duration}, a failure) and the requests
 * in flight have had their grace period; those still running then are cancelled and put back. Then
 * {@link #reason()} says why the crawl ended and {@link #rethrowFailure} passes on what ended it by failing.
 *
 * <p>Thread-safe: {@link #stop()} may be called from any thread, before or while {@link #run} runs on another;
 * {@link #limitReached} from the fetchers. It runs once.
 *
 * <p>Out of scope: what a fetcher does with a URL ({@link FetchWorker}), the parse threads, checkpoints and output.
 */
public final class FetcherThreads {
    /**
     * How long the requests in flight at the end of a crawl (a stop, a limit) may go on before they are cancelled and
     * their URLs put back, to be fetched on resume, unless the crawl says otherwise.
     */
    public static final long STOP_GRACE_SECONDS = 10;
    /** {@link #STOP_GRACE_SECONDS} as a duration. */
    public static final Duration STOP_GRACE = Duration.ofSeconds(STOP_GRACE_SECONDS);
    private static final Logger LOG = LoggerFactory.getLogger(FetcherThreads.class);
    /** How long fetchers may take to end once their requests are cancelled (at least the grace period). */
    private static final Duration CANCEL_WAIT = Duration.ofSeconds(5);

    private final int threads;
    private final long maxPages;
    private final Duration maxDuration;
    /** How long requests in flight may go on after the crawl began to end. */
    private final Duration stopGrace;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final AtomicReference<String> endReason = new AtomicReference<>();
    private final AtomicReference<IOException> outputFailure = new AtomicReference<>();
    /** A bug or an Error (e.g. OutOfMemoryError) that ended a fetcher thread, and so the crawl. */
    private final AtomicReference<Throwable> crawlFailure = new AtomicReference<>();

    /**
     * @param threads {@code fetch.threads}
     * @param maxPages {@code limits.max-pages}, 0 for none
     * @param maxDuration {@code limits.max-duration}, zero for none
     * @param stopGrace how long requests in flight may go on once the crawl began to end
     */
    public FetcherThreads(int threads, long maxPages, Duration maxDuration, Duration stopGrace) {
        this.threads = threads;
        this.maxPages = maxPages;
        this.maxDuration = maxDuration;
        this.stopGrace = stopGrace;
    }

    /** Asks the crawl to stop: no new URL is taken, requests in flight get the grace period. */
    public void stop() {
        endReason.compareAndSet(null, "stopped");
        stopRequested.countDown();
    }

    /** Called by workers after each record: ends the crawl at limits.max-pages. */
    public boolean limitReached(long decided) {
        if (maxPages > 0 && decided >= maxPages) {
            endReason.compareAndSet(null, "max-pages");
            return true;
        }
        return false;
    }

    /** Why the crawl ended: finished, stopped, max-pages, max-duration or failed. */
    public String reason() {
        return endReason.get() == null ? "finished" : endReason.get();
    }

    /**
     * Throws what ended the crawl by failing, if anything did: the output's failure, or a fetcher's bug or Error
     * (then no final checkpoint is written: a resume goes on from the last good one).
     *
     * @param goOn how a user goes on, the end of the advice on an OutOfMemoryError (a command to paste)
     */
    public void rethrowFailure(String goOn) throws IOException, CrawlException {
        if (outputFailure.get() != null) {
            throw outputFailure.get();
        }
        if (crawlFailure.get() != null) {
            Throwable failure = crawlFailure.get();
            throw new CrawlException("stopped by " + failure
                    + (failure instanceof OutOfMemoryError ? "; give the JVM more heap (-Xmx) or lower"
                            + " sieve.max-in-memory-urls, then " + goOn : ""),
                    failure);
        }
    }

    /** Runs the fetchers on {@code worker} until the crawl ends; see the class comment. */
    public void run(FetchWorker worker, LeaseSource frontier) {
        CountDownLatch done = new CountDownLatch(threads);
        for (int i = 0; i < threads; i++) {
            Thread thread = new Thread(() -> {
                try {
                    worker.runUntilDone(() -> stopRequested.getCount() == 0 || endReason.get() != null);
                } catch (UncheckedIOException e) {
                    outputFailure.compareAndSet(null, e.getCause());
                    endReason.set("failed");
                    frontier.wakeAll();
                } catch (RuntimeException | Error e) { // a bug, or the JVM out of memory: end the crawl
                    crawlFailure.compareAndSet(null, e);
                    endReason.set("failed");
                    frontier.wakeAll();
                } finally {
                    done.countDown();
                }
            }, "fetcher-" + i);
            thread.setDaemon(true);
            thread.start();
        }
        try {
            boolean finished = maxDuration.isZero() ? awaitEither(done, Long.MAX_VALUE)
                    : awaitEither(done, maxDuration.toMillis());
            if (!finished) {
                endReason.compareAndSet(null, stopRequested.getCount() == 0 ? "stopped" : "max-duration");
                frontier.wakeAll();
                if (!done.await(stopGrace.toMillis(), TimeUnit.MILLISECONDS)) {
                    cancelInFlight(worker, frontier, done);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            endReason.compareAndSet(null, "stopped");
            frontier.wakeAll();
            worker.cancelInFlight();
        }
    }

    /**
     * The end of a crawl's grace period: the requests still in flight are cancelled and their URLs put back, to be
     * fetched on resume. Fetchers are not interrupted (see {@link FetchWorker}); one that does not end even so (a
     * host name still resolving, a page still parsing) is left behind, and what it holds stays in flight in the
     * final checkpoint ({@link Frontier#seal()}).
     */
    private void cancelInFlight(FetchWorker worker, LeaseSource frontier, CountDownLatch done)
            throws InterruptedException {
        int running = frontier.requestsInFlight();
        worker.cancelInFlight();
        LOG.info("{} still in flight after the {} grace period: cancelled, kept in the checkpoint to be fetched on"
                + " resume", running == 1 ? "1 request" : running + " requests",
                ProfileUnits.formatDuration(stopGrace));
        if (!done.await(Math.max(stopGrace.toMillis(), CANCEL_WAIT.toMillis()), TimeUnit.MILLISECONDS)) {
            LOG.warn("{} fetcher threads did not end after their requests were cancelled; left behind, their URLs"
                    + " kept in the checkpoint", done.getCount());
        }
    }

    /**
     * Waits until the fetchers are done, the crawl is ending (a stop, limits.max-pages, a failure) or {@code millis}
     * pass; true if they are done.
     */
    private boolean awaitEither(CountDownLatch done, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.min(millis, Long.MAX_VALUE / 2_000_000));
        while (true) {
            if (done.await(100, TimeUnit.MILLISECONDS)) {
                return true;
            }
            if (stopRequested.getCount() == 0 || endReason.get() != null || System.nanoTime() > deadline) {
                return false;
            }
        }
    }
}
