package org.sievecrawler.fetch;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import okhttp3.HttpUrl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a request does when the process is out of file descriptors ({@code EMFILE}, "Too many open files": the
 * crawl's own doing, not the server's): back-pressure, not a failure. The idle connections are closed, the request
 * waits (from {@link #WAIT_MIN} doubling to {@link #WAIT_MAX}) and is sent again; each wait is counted and logged,
 * at WARN at most once every {@link #WARNING_EVERY}, else at DEBUG.
 *
 * <p>Thread-safe.
 */
final class DescriptorPressure {
    private static final Logger LOG = LoggerFactory.getLogger(HttpFetcher.class);
    static final Duration WAIT_MIN = Duration.ofMillis(50);
    static final Duration WAIT_MAX = Duration.ofSeconds(2);
    private static final Duration WARNING_EVERY = Duration.ofSeconds(10);

    private final SocketBudget budget;
    private final Runnable closeIdle;
    private final LongAdder waits = new LongAdder();
    /** When the last warning was logged, by {@link System#nanoTime()}. */
    private final AtomicLong lastWarning = new AtomicLong(System.nanoTime() - WARNING_EVERY.toNanos());

    /**
     * @param budget the sockets the fetcher may hold, named in the warning
     * @param closeIdle closes the fetcher's idle connections
     */
    DescriptorPressure(SocketBudget budget, Runnable closeIdle) {
        this.budget = budget;
        this.closeIdle = closeIdle;
    }

    /** The wait after {@code wait}: twice it, at most {@link #WAIT_MAX}. */
    static Duration next(Duration wait) {
        Duration twice = wait.multipliedBy(2);
        return twice.compareTo(WAIT_MAX) <= 0 ? twice : WAIT_MAX;
    }

    /**
     * After a request for {@code url} found the process out of file descriptors: closes the idle connections and
     * waits {@code wait}.
     *
     * @return whether to send the request again: false when the thread was interrupted (its flag restored)
     */
    boolean await(HttpUrl url, Duration wait) {
        waits.increment();
        closeIdle.run();
        long now = System.nanoTime();
        long last = lastWarning.get();
        boolean warn = now - last >= WARNING_EVERY.toNanos() && lastWarning.compareAndSet(last, now);
        (warn ? LOG.atWarn() : LOG.atDebug()).log("the process is out of file descriptors (\"Too many open files\","
                + " limit {}) opening a connection for {}: closed the idle connections, sending it again in {} ms (not"
                + " a failure of the host); if this repeats, lower fetch.max-connections (now {}) or raise the limit"
                + " (ulimit -n)", budget.descriptorLimit(), url, wait.toMillis(), budget.total());
        try {
            Thread.sleep(wait.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The waits so far. */
    long waits() {
        return waits.sum();
    }
}
