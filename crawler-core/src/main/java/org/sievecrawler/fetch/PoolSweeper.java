package org.sievecrawler.fetch;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import okhttp3.ConnectionPool;
import okhttp3.internal.concurrent.TaskRunner;
import okhttp3.internal.connection.ConnectionListener;

/**
 * The thread that closes the crawl's idle HTTP connections: the ones idle past their keep-alive, and the oldest
 * ones past the pool's limit. It looks at the pool at most once every {@link #SWEEP_INTERVAL}.
 *
 * <p>Why: OkHttp's own pool (its shared {@code TaskRunner}) schedules a sweep of every pooled connection each
 * time one becomes idle, that is after every request, and wakes its thread for it. A crawl making thousands of
 * requests a second paid a thread wake-up and a scan of some hundred connections per request: in a 116,000-page
 * crawl of 16 local hosts by 32 fetchers on two cores, ~110,000 of its ~530,000 context switches and a tenth of
 * its CPU (crawler-bench/README.md, "Real pages"). Here the sweep runs on its own clock and a request only marks
 * it due; a connection is closed at most a second later than OkHttp would have closed it.
 *
 * <p>This plugs into OkHttp's {@code TaskRunner.Backend} and its pool's constructor with a task runner, which
 * OkHttp 5 marks internal: an OkHttp upgrade that changes them breaks the build, not a crawl. {@code
 * PoolSweeperTest} checks that idle connections are still closed and the thread ends.
 *
 * <p>Threads: one sweeper thread at a time, started on demand (named {@code okhttp-pool-sweeper}); {@link #close}
 * stops it. Safe for any number of threads using the pool.
 */
final class PoolSweeper implements TaskRunner.Backend, AutoCloseable {
    static final Duration SWEEP_INTERVAL = Duration.ofSeconds(1);

    private final ThreadPoolExecutor threads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 5, TimeUnit.SECONDS,
            new SynchronousQueue<>(), runnable -> {
                Thread thread = new Thread(runnable, "okhttp-pool-sweeper");
                thread.setDaemon(true);
                return thread;
            });
    private final TaskRunner runner = new TaskRunner(this, Logger.getLogger(PoolSweeper.class.getName()));
    private final ConnectionPool pool;

    /** A pool of up to {@code maxIdleConnections} idle connections, each kept at most {@code keepAlive}. */
    PoolSweeper(int maxIdleConnections, Duration keepAlive) {
        this.pool = new ConnectionPool(maxIdleConnections, keepAlive.toNanos(), TimeUnit.NANOSECONDS, runner,
                ConnectionListener.Companion.getNONE());
    }

    /** The pool to give {@code OkHttpClient.Builder.connectionPool}. */
    ConnectionPool pool() {
        return pool;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    /** A sweep that became due is left to the next look at the pool, at most {@link #SWEEP_INTERVAL} away. */
    @Override
    public void coordinatorNotify(TaskRunner taskRunner) {
    }

    /** Called with the task runner's monitor held, as OkHttp's own backend is. */
    @Override
    public void coordinatorWait(TaskRunner taskRunner, long nanos) {
        long wait = Math.min(nanos, SWEEP_INTERVAL.toNanos());
        if (wait <= 0) {
            return;
        }
        try {
            taskRunner.wait(wait / 1_000_000, (int) (wait % 1_000_000));
        } catch (InterruptedException e) {
            // The task runner's contract (OkHttp's backend declares it): an interrupted wait cancels its tasks.
            throw PoolSweeper.<RuntimeException>sneaky(e);
        }
    }

    @Override
    public <T> BlockingQueue<T> decorate(BlockingQueue<T> queue) {
        return queue;
    }

    @Override
    public void execute(TaskRunner taskRunner, Runnable runnable) {
        threads.execute(runnable);
    }

    /** Closes every idle connection and stops the sweeper thread (waiting up to a second for it). */
    @Override
    public void close() {
        pool.evictAll();
        synchronized (runner) {
            runner.notifyAll(); // it finds nothing left to sweep and ends
        }
        threads.shutdown();
        try {
            threads.awaitTermination(SWEEP_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable checked) throws T {
        throw (T) checked;
    }
}
