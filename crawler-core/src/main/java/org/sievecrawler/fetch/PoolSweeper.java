package org.sievecrawler.fetch;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.ConnectionPool;
import okhttp3.Route;
import okhttp3.internal.concurrent.TaskRunner;
import okhttp3.internal.connection.ConnectionListener;
import okhttp3.internal.connection.RealConnectionPool;

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
 * <p>It also holds the pool to a {@link SocketBudget}: before a connection is opened, idle ones are closed, the
 * least recently used first, until the sockets open and being opened fit the budget's total; so the crawl's
 * sockets stay within it at all times, whatever the sweeper's clock. A socket is counted from its connect's start
 * until its call acquires a pooled connection: OkHttp ends the connect ({@code connectEnd}) before it puts the
 * connection in the pool, so counting it as connecting only until then left an instant when a connect on another
 * thread did not see it (5 sockets open of a budget of 4, once in a full build). With at most {@link SocketBudget#inFlight}
 * requests on the wire, one of them opening, there is always an idle one to close when the total is reached.
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
    private final RealConnectionPool connections;
    /** Connects under way, and connects ended whose connection is not yet in the pool: each holds a socket. */
    private final AtomicInteger connecting = new AtomicInteger();
    /** Calls whose connect ended and whose connection is not yet acquired (then pooled): still in {@link #connecting}. */
    private final Set<Call> unpooled = ConcurrentHashMap.newKeySet();
    private final Bound bound = new Bound();
    private final int maxOpen;

    /**
     * A pool of up to {@code maxIdleConnections} idle connections, each kept at most {@code keepAlive}, with no
     * bound on the sockets open but the requests' own.
     */
    PoolSweeper(int maxIdleConnections, Duration keepAlive) {
        this(maxIdleConnections, keepAlive, Integer.MAX_VALUE);
    }

    /** A pool that keeps the sockets open (in use and idle) within {@code budget}. */
    PoolSweeper(SocketBudget budget) {
        this(budget.idle(), budget.keepAlive(), budget.total());
    }

    private PoolSweeper(int maxIdleConnections, Duration keepAlive, int maxOpen) {
        this.maxOpen = maxOpen;
        this.connections = new RealConnectionPool(runner, maxIdleConnections, keepAlive.toNanos(),
                TimeUnit.NANOSECONDS, bound);
        this.pool = new ConnectionPool(connections);
    }

    /** Sockets open in the pool (in use and idle) and being opened for it. */
    int open() {
        return pool.connectionCount() + connecting.get();
    }

    /**
     * Closes idle connections, the least recently used first, until the sockets open (this connect among them) are
     * within the total, or none is idle.
     */
    private void makeRoom() {
        while (open() > maxOpen && connections.closeConnections(System.nanoTime()) == 0L) {
            // closeConnections closed one, or lost a race for one: look again
        }
    }

    /** Counts connects under way and makes room for each before its socket is opened. */
    private final class Bound extends ConnectionListener {
        @Override
        public void connectStart(Route route, Call call) {
            connecting.incrementAndGet();
            makeRoom();
        }

        @Override
        public void connectFailed(Route route, Call call, IOException failure) {
            connecting.decrementAndGet();
        }

        /** Still counted: OkHttp puts the connection in the pool after this (see {@link #connectionAcquired}). */
        @Override
        public void connectEnd(Connection connection, Route route, Call call) {
            unpooled.add(call);
        }

        /**
         * The call took a connection: the one its connect made, once pooled, or (when OkHttp found a pooled one to the
         * same place meanwhile and closed its own) that one. Either way its connect's socket is now counted by the
         * pool, or closed.
         */
        @Override
        public void connectionAcquired(Connection connection, Call call) {
            if (unpooled.remove(call)) {
                connecting.decrementAndGet();
            }
        }
    }

    /** The listener the pool reports connects and acquisitions to: for tests that play OkHttp's part. */
    ConnectionListener listener() {
        return bound;
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
