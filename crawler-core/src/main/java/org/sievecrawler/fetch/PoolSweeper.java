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
 * <p>The connections are spread by host over {@link #shards} pools (one per {@link #SOCKETS_PER_SHARD} sockets of
 * the total): OkHttp scans a pool's one list, connection by connection, to find one to a request's host (and again
 * after a connect, and to sweep), so with a connection kept for each of hundreds of hosts that scan took ~35 % of a
 * broad crawl's CPU samples (crawler-bench/broad-bench.sh, 10^6 hosts, 512 sockets in one pool). A host's
 * connections are all in its shard, so none is missed; HTTP/2 coalescing of several hosts on one connection works
 * only within a shard (a crawl speaks HTTP/1.1 when it captures, and hosts rarely share certificates).
 *
 * <p>It also holds the pools to a {@link SocketBudget}: before a connection is opened, idle ones are closed, each
 * the least recently used of its shard, the shards in turn, until the sockets open and being opened fit the
 * budget's total; so the crawl's
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
    /** Sockets of the total per shard: a pool's scan per request stays this short, about. */
    static final int SOCKETS_PER_SHARD = 16;
    static final int MAX_SHARDS = 64;

    private final ThreadPoolExecutor threads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 5, TimeUnit.SECONDS,
            new SynchronousQueue<>(), runnable -> {
                Thread thread = new Thread(runnable, "okhttp-pool-sweeper");
                thread.setDaemon(true);
                return thread;
            });
    private final TaskRunner runner = new TaskRunner(this, Logger.getLogger(PoolSweeper.class.getName()));
    /** The shards' pools, as OkHttp sees them ({@code OkHttpClient.Builder.connectionPool}), and as they are. */
    private final ConnectionPool[] pools;
    private final RealConnectionPool[] shards;
    /**
     * Connections a call has acquired and the pools have not reported closed: the pooled ones, counted without
     * walking the pools' lists ({@code ConnectionPool.connectionCount} walks one, a cache miss a connection: 7 % of a
     * broad crawl's CPU samples when summed over the shards for every connect). A connection whose close went
     * unreported stays counted, so the count errs towards closing more; {@link #makeRoom} drops those when it finds
     * nothing idle to close.
     */
    private final Set<Connection> pooled = ConcurrentHashMap.newKeySet();
    /** Connects under way, and connects ended whose connection is not yet in the pool: each holds a socket. */
    private final AtomicInteger connecting = new AtomicInteger();
    /** Calls whose connect ended and whose connection is not yet acquired (then pooled): still in {@link #connecting}. */
    private final Set<Call> unpooled = ConcurrentHashMap.newKeySet();
    /** The shard whose least recently used idle connection is closed next to make room. */
    private final AtomicInteger evictNext = new AtomicInteger();
    private final Bound bound = new Bound();
    private final int maxOpen;
    private final long keepAliveNanos;

    /**
     * One pool (no shards) of up to {@code maxIdleConnections} idle connections, each kept at most {@code keepAlive},
     * with no bound on the sockets open but the requests' own.
     */
    PoolSweeper(int maxIdleConnections, Duration keepAlive) {
        this(maxIdleConnections, keepAlive, Integer.MAX_VALUE, 1);
    }

    /** Pools, {@link #shardsFor} the budget's total of them, that keep the sockets open within {@code budget}. */
    PoolSweeper(SocketBudget budget) {
        this(budget, shardsFor(budget.total()));
    }

    /** {@code shards} pools that keep the sockets open (in use and idle, all shards) within {@code budget}. */
    PoolSweeper(SocketBudget budget, int shards) {
        this(budget.idle(), budget.keepAlive(), budget.total(), shards);
    }

    private PoolSweeper(int maxIdleConnections, Duration keepAlive, int maxOpen, int shardCount) {
        if (shardCount < 1) {
            throw new IllegalArgumentException("a pool needs at least 1 shard, not " + shardCount);
        }
        this.maxOpen = maxOpen;
        this.keepAliveNanos = keepAlive.toNanos();
        this.shards = new RealConnectionPool[shardCount];
        this.pools = new ConnectionPool[shardCount];
        for (int i = 0; i < shardCount; i++) {
            shards[i] = new RealConnectionPool(runner, maxIdleConnections, keepAliveNanos, TimeUnit.NANOSECONDS, bound);
            pools[i] = new ConnectionPool(shards[i]);
        }
    }

    /**
     * Shards for a total of {@code maxOpen} sockets: one per {@link #SOCKETS_PER_SHARD} (at least 1, at most
     * {@link #MAX_SHARDS}), so a request scans a few dozen pooled connections, not hundreds.
     */
    static int shardsFor(int maxOpen) {
        return Math.max(1, Math.min(MAX_SHARDS, maxOpen / SOCKETS_PER_SHARD));
    }

    /** How many pools the connections are spread over, by host. */
    int shards() {
        return shards.length;
    }

    /** The shard of {@code host}'s connections: the same for a host every time. */
    int shardOf(String host) {
        int h = host.hashCode() * 0x9E3779B9;
        return Math.floorMod(h ^ (h >>> 16), shards.length);
    }

    /** Sockets open in the pools (in use and idle) and being opened for them. */
    int open() {
        return pooled.size() + connecting.get();
    }

    /**
     * Closes idle connections, each the least recently used of its shard, the shards in turn, until the sockets open
     * (this connect among them) are within the total, or a whole round of the shards found none idle. A shard is made
     * to close its oldest idle connection by asking it to sweep at a "now" past every idle connection's keep-alive.
     */
    private void makeRoom() {
        int idleless = 0;
        while (open() > maxOpen && idleless < shards.length) {
            RealConnectionPool shard = shards[Math.floorMod(evictNext.getAndIncrement(), shards.length)];
            if (shard.closeConnections(System.nanoTime() + keepAliveNanos + 1) == 0L) {
                idleless = 0; // it closed one, or lost a race for one: look again
            } else {
                idleless++;
            }
        }
        if (open() > maxOpen) { // none idle: a close the pools did not report may be counted still
            pooled.removeIf(connection -> connection.socket().isClosed());
        }
    }

    /** Closes every idle connection of every shard. */
    void evictAll() {
        for (ConnectionPool pool : pools) {
            pool.evictAll();
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
            if (connection != null) {
                pooled.add(connection); // before the connect's count goes: never an instant uncounted
            }
            if (unpooled.remove(call)) {
                connecting.decrementAndGet();
            }
        }

        /** A pool closed it: evicted, found unhealthy, or released by its last call with no new exchanges allowed. */
        @Override
        public void connectionClosed(Connection connection) {
            pooled.remove(connection);
        }
    }

    /** The listener the pool reports connects and acquisitions to: for tests that play OkHttp's part. */
    ConnectionListener listener() {
        return bound;
    }

    /** The pool of {@code shard}, to give {@code OkHttpClient.Builder.connectionPool}. */
    ConnectionPool pool(int shard) {
        return pools[shard];
    }

    /** The pool of a sweeper of one shard. */
    ConnectionPool pool() {
        if (pools.length != 1) {
            throw new IllegalStateException("this sweeper has " + pools.length + " pools: use pool(shardOf(host))");
        }
        return pools[0];
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
        evictAll();
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
