package org.sievecrawler.politeness;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.robots.HostRobots;
import org.sievecrawler.robots.RobotsRules;
import org.sievecrawler.sieve.PendingQueue;
import org.sievecrawler.sieve.PendingUrl;

/**
 * The per-host politeness scheduler behind the {@link org.sievecrawler.sieve.Sieve}'s {@code poll}: pending
 * URLs wait in one FIFO per host (scheme, host and port), and {@link #poll()} hands out a URL of whichever
 * host may be fetched now, so a fetcher never waits on a busy or delayed host while another host has work.
 *
 * <p>Rules, per host: at most {@code max-connections-per-host} requests in flight, and at least
 * {@code delay} from the end of one request to the start of the next. A robots.txt Crawl-delay raises the
 * delay and, since it means "seconds between successive requests", limits the host to one request at a time.
 *
 * <p>Each host's robots.txt goes through its life cycle in a {@link HostRobots} (with robots.txt respected: fetched
 * first, its rules for 24 hours, an unavailable one retried, then given up), which the scheduler asks what the host
 * may do: while robots.txt is due, the scheduler hands out a {@link PendingUrl.Purpose#ROBOTS} task and no page of
 * that host until {@link #robotsFetched} (or {@link #retryRobots}) reports back; {@link #rules} are what it found.
 *
 * <p>A host found unreachable ({@link #unreachable}: it did not resolve or refused connections, after the crawl's
 * retries) stays so for the rest of the crawl: its robots.txt is not fetched, and its URLs, queued or added later,
 * are handed out at once, without the politeness delay, since no request is made to it any more; the crawl records
 * them as unreachable ({@link #unreachableReason}).
 *
 * <p>Every URL handed out must be reported back exactly once: {@link #finished} (a request was made),
 * {@link #skipped} (none was), {@link #retry} (another attempt later), {@link #robotsFetched},
 * {@link #retryRobots} or {@link #unreachable}.
 *
 * <p>Threads: safe for any number of threads; one lock guards all state (a few operations per page).
 * Time comes from the injected {@link Clock}; {@link #awaitWork} waits in real time.
 *
 * <p>Implementation: a min-heap of tickets ordered by the time a host is ready; a host holds at most one
 * current ticket, and a ticket made stale by a later change is dropped when it reaches the top.
 */
public final class HostScheduler implements PendingQueue {
    private final PolitenessConfig config;
    private final Clock clock;
    private final Monitor monitor;
    private final ReentrantLock lock;
    private final Condition changed;
    private final Map<String, Host> hosts = new HashMap<>();
    private final UnreachableHosts unreachableHosts = new UnreachableHosts();
    private final PriorityQueue<Ticket> tickets =
            new PriorityQueue<>(Comparator.comparingLong(Ticket::readyAt).thenComparingLong(Ticket::sequence));
    private long ticketSequence;
    private int queued;
    private int inFlight;
    /** No request before this time, epoch ms: the first allowed time of every new host. */
    private final long startAt;
    /** Politeness per IP address as well ({@code politeness.per: ip}), else nothing. */
    private AddressClocks addresses = AddressClocks.perHost();

    /** A scheduler with a monitor of its own, whose hosts may be asked at once. */
    public HostScheduler(PolitenessConfig config, Clock clock) {
        this(config, clock, Instant.EPOCH, new Monitor());
    }

    /**
     * A scheduler that makes no request to any host, robots.txt included, before {@code startAt} (for hosts another
     * process may have asked just before), and shares {@code monitor} (its lock and the condition fetchers wait on)
     * with others, so that one wait ({@link #awaitAny}) hears a host of any of them become ready.
     */
    public HostScheduler(PolitenessConfig config, Clock clock, Instant startAt, Monitor monitor) {
        this.config = config;
        this.clock = clock;
        this.startAt = startAt.toEpochMilli();
        this.monitor = monitor;
        this.lock = monitor.lock;
        this.changed = monitor.changed;
    }

    /**
     * Applies the delay and connections of {@code politeness.per: ip} per address too, hosts' addresses from
     * {@code clocks} (see {@link AddressClocks}); call it before any URL is added.
     */
    public HostScheduler perAddress(AddressClocks clocks) {
        this.addresses = clocks;
        return this;
    }

    /**
     * Waits until a host of any of {@code schedulers} may be ready (by the clock), work is added or released in any
     * of them, or {@code maxWait} passes. They must share one {@link Monitor}; with none, this sleeps {@code maxWait}.
     *
     * @throws IllegalArgumentException if they do not share one monitor
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public static void awaitAny(List<HostScheduler> schedulers, Duration maxWait) throws InterruptedException {
        if (schedulers.isEmpty()) {
            Thread.sleep(maxWait.toMillis());
            return;
        }
        Monitor monitor = schedulers.get(0).monitor;
        for (HostScheduler scheduler : schedulers) {
            if (scheduler.monitor != monitor) {
                throw new IllegalArgumentException("schedulers waited on together must share one monitor");
            }
        }
        monitor.await(maxWait, () -> {
            long until = Long.MAX_VALUE;
            for (HostScheduler scheduler : schedulers) {
                until = Math.min(until, scheduler.untilReady());
            }
            return until;
        });
    }

    @Override
    public void add(PendingUrl url) {
        lock.lock();
        try {
            Host host = hosts.computeIfAbsent(HostKey.of(url.url()), this::newHost);
            host.queue.addLast(url);
            queued++;
            if (!host.ticketed) {
                long now = clock.millis();
                wakeOneIfReady(schedule(host, now), now);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public PendingUrl poll() {
        lock.lock();
        try {
            long now = clock.millis();
            while (!tickets.isEmpty()) {
                Ticket ticket = tickets.peek();
                Host host = ticket.host;
                if (ticket.version != host.version) {
                    tickets.poll(); // stale
                    continue;
                }
                if (ticket.readyAt > now) {
                    return null;
                }
                tickets.poll();
                host.ticketed = false;
                if (addresses.unresolved(host.key)) { // per IP: its address first, without the lock (a lookup)
                    resolveUnlocked(host);
                    now = clock.millis();
                    continue;
                }
                PendingUrl task = take(host, now);
                if (task != null) {
                    addresses.started(host.key);
                }
                schedule(host, now);
                if (task != null) {
                    Ticket next = firstLiveTicket();
                    if (next != null) {
                        wakeOneIfReady(next.readyAt, now); // pass the wake-up on while work is ready
                    }
                    return task;
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int size() {
        lock.lock();
        try {
            return queued;
        } finally {
            lock.unlock();
        }
    }

    /** A request for {@code url} (handed out by {@link #poll}) ended now; the host's delay starts. */
    public void finished(PendingUrl url) {
        release(url, 0, true, null);
    }

    /** {@code url} was handed out but not taken after all (e.g. the crawl's page limit): back first, no delay. */
    public void putBack(PendingUrl url) {
        release(url, 0, false, url);
    }

    /** {@code url} was handed out but no request was made (e.g. refused by robots.txt): no delay. */
    public void skipped(PendingUrl url) {
        release(url, 0, false, null);
    }

    /**
     * The attempt at {@code url} ended now and it should be tried again, first of its host, no sooner than
     * {@code backoff} from now (the whole host waits: it is overloaded or unreachable).
     */
    public void retry(PendingUrl url, Duration backoff) {
        release(url, backoff.toMillis(), true, url.nextAttempt());
    }

    /**
     * The robots.txt task for a host could not reach the host; it is fetched again, first of the host's tasks,
     * no sooner than {@code backoff} from now. Its attempt number ({@link PendingUrl#attempt()}) goes up by one.
     */
    public void retryRobots(PendingUrl robotsTask, Duration backoff) {
        lock.lock();
        try {
            long now = clock.millis();
            Host host = hosts.get(HostKey.of(robotsTask.url()));
            host.inFlight--;
            inFlight--;
            addressEnded(host, now, host.delayMillis);
            host.robots.retry(now, backoff);
            wakeOneIfReady(schedule(host, now), now);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The task {@code task} (robots.txt or a page) found its host unreachable after the crawl's retries, for
     * {@code reason} (e.g. "connection refused"): the host is unreachable from now on, and its URLs are handed out
     * at once for the crawl to record as such.
     */
    public void unreachable(PendingUrl task, String reason) {
        lock.lock();
        try {
            long now = clock.millis();
            Host host = hosts.get(HostKey.of(task.url()));
            host.inFlight--;
            inFlight--;
            addressEnded(host, now, host.delayMillis);
            if (host.unreachable == null && unreachableHosts.add(host.key, reason, host.queue.size())) {
                host.unreachable = reason;
            }
            host.robots.hostUnreachable();
            host.nextAllowed = now;
            schedule(host, now);
            changed.signalAll(); // its URLs are ready for any fetcher, and the crawl may be out of work
        } finally {
            lock.unlock();
        }
    }

    /**
     * Why the host of {@code url} is unreachable, or null while it is not known to be. Asked for every URL handed
     * out, so it takes no lock: while no host is down it is one read.
     */
    public String unreachableReason(String url) {
        return unreachableHosts.reason(url);
    }

    /** The hosts found unreachable so far, by host key (sorted), with why. */
    public Map<String, String> unreachableHosts() {
        return unreachableHosts.all();
    }

    /** The robots.txt task for a host ended now with {@code rules}. */
    public void robotsFetched(PendingUrl robotsTask, RobotsRules rules) {
        lock.lock();
        try {
            long now = clock.millis();
            Host host = hosts.get(HostKey.of(robotsTask.url()));
            host.inFlight--;
            inFlight--;
            if (host.robots.fetched(rules, now, host.queue.size())) {
                host.delayMillis = Math.max(config.delay().toMillis(), rules.crawlDelay().toMillis());
                host.maxConnections = rules.crawlDelay().isZero() ? config.maxConnectionsPerHost() : 1;
            }
            host.nextAllowed = Math.max(host.nextAllowed, now + host.delayMillis);
            addressEnded(host, now, host.delayMillis);
            wakeOneIfReady(schedule(host, now), now);
        } finally {
            lock.unlock();
        }
    }

    /** The robots rules that apply to {@code url} now (allow-all when robots.txt is not respected). */
    public RobotsRules rules(String url) {
        if (!config.respectRobots()) {
            return HostRobots.NOT_RESPECTED;
        }
        lock.lock();
        try {
            Host host = hosts.get(HostKey.of(url));
            return host == null ? HostRobots.notFetchedYet(HostKey.of(url)) : host.robots.rules();
        } finally {
            lock.unlock();
        }
    }

    /** Whether nothing is pending and nothing is in flight: the crawl has run out of work. */
    public boolean isIdle() {
        lock.lock();
        try {
            return queued == 0 && inFlight == 0;
        } finally {
            lock.unlock();
        }
    }

    /** Requests handed out and not yet reported back. */
    public int inFlight() {
        lock.lock();
        try {
            return inFlight;
        } finally {
            lock.unlock();
        }
    }

    /** Every URL waiting, host by host, each host's in its order (robots.txt tasks are made anew, not held). */
    public List<PendingUrl> queuedUrls() {
        lock.lock();
        try {
            List<PendingUrl> urls = new ArrayList<>(queued);
            for (Host host : hosts.values()) {
                urls.addAll(host.queue);
            }
            return urls;
        } finally {
            lock.unlock();
        }
    }

    /** Hosts seen so far. */
    public int hostCount() {
        lock.lock();
        try {
            return hosts.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until some host may be ready (by the clock), work is added or released, or {@code maxWait} passes.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public void awaitWork(Duration maxWait) throws InterruptedException {
        awaitAny(List.of(this), maxWait);
    }

    /**
     * Waits until work is added or released (a signal on the monitor), or {@code maxWait} passes, whether or not a
     * host is ready: for a caller that waits for something other than a ready host (leases to be closed).
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public void awaitChange(Duration maxWait) throws InterruptedException {
        monitor.awaitChange(maxWait);
    }

    /**
     * Milliseconds until the first host is ready (0 or less: one is), {@code Long.MAX_VALUE} if none has work. Lock
     * held.
     */
    private long untilReady() {
        Ticket next = firstLiveTicket();
        return next == null ? Long.MAX_VALUE : next.readyAt - clock.millis();
    }

    /** Wakes every thread in {@link #awaitWork}, e.g. to stop. */
    public void wakeAll() {
        monitor.wakeAll();
    }

    /**
     * Reports a handed-out URL back: the host waits {@code waitMillis}, or its politeness delay if longer and
     * {@code requestMade}; {@code again}, if not null, goes back first in the host's queue.
     */
    private void release(PendingUrl url, long waitMillis, boolean requestMade, PendingUrl again) {
        lock.lock();
        try {
            long now = clock.millis();
            Host host = hosts.get(HostKey.of(url.url()));
            host.inFlight--;
            inFlight--;
            long wait = requestMade ? Math.max(waitMillis, host.delayMillis) : waitMillis;
            host.nextAllowed = Math.max(host.nextAllowed, now + wait);
            addressEnded(host, now, requestMade ? host.delayMillis : 0);
            if (again != null) {
                host.queue.addFirst(again);
                queued++;
            }
            wakeOneIfReady(schedule(host, now), now);
            if (queued == 0 && inFlight == 0) {
                changed.signalAll(); // out of work: let every waiting fetcher see it
            }
        } finally {
            lock.unlock();
        }
    }

    /** The task {@code host} hands out now, or null. Called with the lock held and the host's ticket taken. */
    private PendingUrl take(Host host, long now) {
        if (host.unreachable == null && !addresses.mayStart(host.key, now)) {
            return null; // its address is busy or in its delay: schedule() asks it again
        }
        if (needsRobots(host, now)) {
            PendingUrl robotsTask = host.robots.start(now); // null while a failed one waits for its retry time
            if (robotsTask != null) {
                host.inFlight++;
                inFlight++;
            }
            return robotsTask;
        }
        if (host.unreachable != null && !host.queue.isEmpty()) { // no request is made: no limit, no delay
            PendingUrl url = host.queue.pollFirst();
            queued--;
            host.inFlight++;
            inFlight++;
            return url;
        }
        if (host.robots.fetching() || host.queue.isEmpty()
                || host.inFlight >= host.maxConnections || host.nextAllowed > now) {
            return null;
        }
        PendingUrl url = host.queue.pollFirst();
        queued--;
        host.inFlight++;
        inFlight++;
        return url;
    }

    /**
     * Issues {@code host}'s next ticket if it has work it can hand out now or later. Lock held.
     *
     * @return the time the ticket is ready, or -1 if none was issued
     */
    private long schedule(Host host, long now) {
        long readyAt;
        if (host.queue.isEmpty()) {
            return -1;
        }
        if (host.unreachable != null) {
            readyAt = now;
        } else if (needsRobots(host, now)) {
            if (host.robots.fetching()) {
                return -1;
            }
            readyAt = host.robots.startAt(Math.max(now, host.nextAllowed));
            if (host.inFlight > 0) {
                return -1; // an expired host finishes its requests first; release() schedules it again
            }
        } else {
            if (host.inFlight >= host.maxConnections) {
                return -1;
            }
            readyAt = host.nextAllowed;
        }
        if (host.unreachable == null) {
            readyAt = addresses.readyAt(host.key, readyAt, now);
            if (readyAt < 0) {
                return -1; // its address has its connections in flight: addressEnded() schedules it again
            }
        }
        host.version++;
        host.ticketed = true;
        readyAt = Math.max(readyAt, 0);
        tickets.add(new Ticket(host, readyAt, host.version, ticketSequence++));
        return readyAt;
    }

    /**
     * Wakes one waiting fetcher if a ticket is ready by {@code now}: one, not all, so a finished request
     * does not stampede every idle thread onto the lock. Lock held.
     */
    private void wakeOneIfReady(long readyAt, long now) {
        if (readyAt >= 0 && readyAt <= now) {
            changed.signal();
        }
    }

    /**
     * Politeness per IP: a task of {@code host} ended at {@code now}, its address waits {@code delayMillis}, and the
     * hosts that waited for the address's connections are scheduled again. Lock held.
     */
    private void addressEnded(Host host, long now, long delayMillis) {
        for (String waiting : addresses.ended(host.key, now, delayMillis)) {
            Host other = hosts.get(waiting);
            if (other != null && !other.ticketed) {
                wakeOneIfReady(schedule(other, now), now);
            }
        }
    }

    /**
     * Politeness per IP: resolves {@code host}'s address with the lock released (a lookup may take seconds), then
     * schedules it again. Lock held on entry and on return.
     */
    private void resolveUnlocked(Host host) {
        lock.unlock();
        try {
            addresses.resolve(host.key);
        } finally {
            lock.lock();
        }
        schedule(host, clock.millis());
    }

    /** Whether {@code host}'s next task is its robots.txt, or it is being fetched: never an unreachable host's. */
    private boolean needsRobots(Host host, long now) {
        return host.unreachable == null && host.robots.due(now);
    }

    private Ticket firstLiveTicket() {
        while (!tickets.isEmpty() && tickets.peek().version != tickets.peek().host.version) {
            tickets.poll();
        }
        return tickets.peek();
    }

    private Host newHost(String key) {
        Host host = new Host(key, new HostRobots(key, config));
        host.nextAllowed = startAt;
        host.delayMillis = config.delay().toMillis();
        host.maxConnections = config.maxConnectionsPerHost();
        return host;
    }

    /** A host's queue, politeness state and robots.txt; guarded by the scheduler's lock. */
    private static final class Host {
        final String key;
        final ArrayDeque<PendingUrl> queue = new ArrayDeque<>();
        final HostRobots robots;
        int inFlight;
        long nextAllowed;
        long delayMillis;
        int maxConnections;
        /** Why the host cannot be reached, once the crawl knows it; null while it may be reachable. */
        String unreachable;
        long version;
        boolean ticketed;

        Host(String key, HostRobots robots) {
            this.key = key;
            this.robots = robots;
        }
    }

    private record Ticket(Host host, long readyAt, long version, long sequence) {
    }
}
