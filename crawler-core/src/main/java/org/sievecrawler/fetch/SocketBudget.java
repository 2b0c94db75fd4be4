package org.sievecrawler.fetch;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;
import org.sievecrawler.profile.FetchConfig;
import org.sievecrawler.profile.PolitenessConfig;

/**
 * How many sockets the crawl's HTTP client may hold open, in use and idle, across all hosts, and how long an idle
 * one is kept: a bound that does not grow with the hosts a crawl touches. Immutable; {@link HttpFetcher} enforces
 * it (see {@link PoolSweeper}: idle connections beyond it are closed, the least recently used of a pool first,
 * before a new one is opened).
 *
 * <p>Why: against servers that keep connections alive (nginx for 75 s, as most of the web), a pool bounded only by
 * its keep-alive held about one socket per host touched: 9,700 descriptors at 10,000 hosts, and the process's limit
 * (20,000) at 100,000 hosts, where every request failed with "Too many open files"; and OkHttp scans its pool's one
 * list on every request, which took most of the CPU with a connection per host.
 *
 * <p>The total is {@code fetch.max-connections}, or when that is 0, {@code fetch.threads} (each thread holds one
 * socket while it fetches) plus the idle connections worth keeping ({@link HttpFetcher#idleConnections}: threads
 * times {@code politeness.max-connections-per-host}, at most 1,024), at most the process's file-descriptor limit
 * less a quarter of it (at least {@link #RESERVED_DESCRIPTORS}) for what else the crawl opens: the WARC and
 * pages.jsonl, the journal, the spill, logs, jars. A total below the threads makes the other threads wait for a
 * socket ({@link #inFlight}). An idle connection is kept twice {@code politeness.delay} (at least
 * {@link #MIN_KEEP_ALIVE}, at most {@link #MAX_KEEP_ALIVE}): a host asked again within its delay finds its
 * connection, one that will not be keeps none. OkHttp's pool can close idle connections only by age or by count
 * (it has no way to close one host's), so the keep-alive is the way to drop a host with nothing left to ask.
 *
 * @param total sockets open at most, in use and idle
 * @param inFlight requests on the wire at once at most: {@code fetch.threads}, or {@code total} if that is smaller
 * @param keepAlive how long an idle connection is kept before it is closed
 * @param descriptorLimit the process's file-descriptor limit it was derived from, or -1 when unknown
 */
public record SocketBudget(int total, int inFlight, Duration keepAlive, long descriptorLimit) {
    /** Descriptors left, at the least, for files, logs and jars when the total is derived. */
    static final int RESERVED_DESCRIPTORS = 256;
    static final Duration MIN_KEEP_ALIVE = Duration.ofSeconds(1);
    static final Duration MAX_KEEP_ALIVE = Duration.ofMinutes(5);

    public SocketBudget {
        if (total < 1 || inFlight < 1 || inFlight > total) {
            throw new IllegalArgumentException("a socket budget needs 1 <= inFlight (" + inFlight + ") <= total ("
                    + total + ")");
        }
    }

    /** The budget for {@code fetch} and {@code politeness} in a process whose descriptor limit is {@code limit}. */
    public static SocketBudget of(FetchConfig fetch, PolitenessConfig politeness, long limit) {
        int total = fetch.maxConnections() > 0 ? fetch.maxConnections() : derived(fetch, politeness, limit);
        Duration keepAlive = politeness.delay().multipliedBy(2);
        keepAlive = keepAlive.compareTo(MIN_KEEP_ALIVE) < 0 ? MIN_KEEP_ALIVE
                : keepAlive.compareTo(MAX_KEEP_ALIVE) > 0 ? MAX_KEEP_ALIVE : keepAlive;
        return new SocketBudget(total, Math.min(fetch.threads(), total), keepAlive, limit);
    }

    /** The budget for {@code fetch} and {@code politeness} in this process. */
    public static SocketBudget of(FetchConfig fetch, PolitenessConfig politeness) {
        return of(fetch, politeness, processDescriptorLimit());
    }

    private static int derived(FetchConfig fetch, PolitenessConfig politeness, long limit) {
        long wanted = (long) fetch.threads() + HttpFetcher.idleConnections(fetch, politeness);
        if (limit <= 0) {
            return (int) wanted;
        }
        long usable = limit - Math.max(RESERVED_DESCRIPTORS, limit / 4);
        return (int) Math.max(1, Math.min(wanted, usable));
    }

    /** The process's file-descriptor limit ({@code ulimit -n}), or -1 where the JVM cannot tell (not Unix). */
    public static long processDescriptorLimit() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : -1;
    }

    /** Idle connections kept at most: the total less the requests that may be in flight. */
    public int idle() {
        return total - inFlight;
    }

    /** One sentence for the crawl's log, e.g. "sockets: at most 32 open (16 in use, 16 idle for up to 2s) ...". */
    public String describe() {
        return "sockets: at most " + total + " open (" + inFlight + " in use by the fetcher threads, " + idle()
                + " idle for up to " + keepAlive.toMillis() / 1000.0 + "s)"
                + (descriptorLimit > 0 ? " of the process's " + descriptorLimit + " file descriptors" : "")
                + "; set fetch.max-connections to change it";
    }
}
