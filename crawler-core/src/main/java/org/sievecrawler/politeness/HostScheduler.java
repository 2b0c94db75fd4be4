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
import org.sievecrawler.robots.RobotsCache;
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
 * <p>Memory: a host is held while it has URLs queued or in flight, or its delay since its last request has not
 * passed; then it is parked, forgotten but for its robots.txt state, which waits in a {@link RobotsCache} of at most
 * {@code politeness.robots-cache-hosts} hosts (100,000 by default), least recently parked dropped first, for at most
 * 24 hours; a URL of a parked host brings it back, its rules (and Crawl-delay) from the cache if there, else its
 * robots.txt is fetched again. Measured ({@code crawler-bench}'s {@code HostFootprint}, 200,000 hosts, heap after GC,
 * 64-bit JVM with compressed references): ~900 bytes a held host with its robots.txt rules and one URL of ~60
 * characters queued, ~150 bytes each further queued URL, ~600 bytes a parked host while the cache keeps it (~60 MB
 * when full), nothing after. With a host's share of the memory bounded ({@link SchedulerLimits#maxQueuedPerHost}) the hosts held are at
 * most the in-memory URLs, whatever the number of hosts a crawl knows.
 *
 * <p>Threads: safe for any number of threads; one lock guards all state (a few operations per page).
 * Time comes from the injected {@link Clock}; {@link #awaitWork} waits in real time.
 *
 * <p>Rotation: of the hosts that are ready, the one ready first goes first (ties in the order they became ready), so a
 * ready host waits behind at most the hosts that were ready before it, and no fetcher idles while a host is ready.
 * Robots.txt tasks take at most {@link SchedulerLimits#maxRobotsInFlight} fetchers while a page of another host is
 * ready: thousands of new hosts do not hold back the pages of known ones (with no page ready, robots.txt takes any).
 * A host's robots.txt is asked for when its first URL is in memory, that is when it comes up from the spill. With a
 * page limit ({@link #limitPages}), robots.txt is handed out only for hosts the limit leaves a page for.
 *
 * <p>Implementation: three min-heaps of tickets ({@link Tickets}), ordered by the time a host is ready; a host
 * holds at most one current ticket, and a ticket made stale by a later change is dropped when it reaches the top.
 */
public final class HostScheduler implements PendingQueue {
    private final PolitenessConfig config;
    private final Clock clock;
    private final Monitor monitor;
    private final SchedulerLimits limits;
    private final ReentrantLock lock;
    private final Condition changed;
    private final Map<String, Host> hosts = new HashMap<>();
    private final UnreachableHosts unreachableHosts = new UnreachableHosts();
    private final Tickets tickets = new Tickets();
    /** Robots.txt tasks handed out and not yet reported back. */
    private int robotsInFlight;
    /** Hosts whose robots.txt was fetched and whose first page was not yet handed out (see SchedulerLimits). */
    private int awaitingFirstPage;
    /** Idle hosts (nothing queued, nothing in flight) by the time their delay has passed: then they are parked. */
    private final PriorityQueue<Idle> idle = new PriorityQueue<>(Comparator.comparingLong(Idle::until));
    /** The robots.txt state of parked hosts, and the robots.txt counts. */
    private final RobotsCache robotsCache;
    /** Host queues made: hosts seen, and hosts back from parking. */
    private long hostsMade;
    private int queued;
    private int inFlight;
    /** No request before this time, epoch ms: the first allowed time of every new host. */
    private final long startAt;
    /** The page limit ({@link #limitPages}) and the end ({@link #endsAt}) as they close the ticket heaps. */
    private final LimitGate limit = new LimitGate();
    /** Politeness per IP address as well ({@code politeness.per: ip}), else nothing. */
    private AddressClocks addresses = AddressClocks.perHost();
    /** Politeness per IP: hosts {@link #poll} found with their address unknown, for {@link #resolveAddresses}. */
    private final ArrayDeque<Host> toResolve = new ArrayDeque<>();
    /** {@code toResolve}'s size, read without the lock by {@link #resolveAddresses}. */
    private volatile int toResolveCount;

    /** A scheduler with a monitor of its own, whose hosts may be asked at once. */
    public HostScheduler(PolitenessConfig config, Clock clock) {
        this(config, clock, Instant.EPOCH, new Monitor(), SchedulerLimits.NONE);
    }

    /** A scheduler with a monitor of its own, whose hosts may be asked at once, within {@code limits}. */
    public HostScheduler(PolitenessConfig config, Clock clock, SchedulerLimits limits) {
        this(config, clock, Instant.EPOCH, new Monitor(), limits);
    }

    /**
     * A scheduler that makes no request to any host, robots.txt included, before {@code startAt} (for hosts another
     * process may have asked just before), and shares {@code monitor} (its lock and the condition fetchers wait on)
     * with others, so that one wait ({@link #awaitAny}) hears a host of any of them become ready.
     */
    public HostScheduler(PolitenessConfig config, Clock clock, Instant startAt, Monitor monitor) {
        this(config, clock, startAt, monitor, SchedulerLimits.NONE);
    }

    /** As {@link #HostScheduler(PolitenessConfig, Clock, Instant, Monitor)}, within {@code limits}. */
    public HostScheduler(PolitenessConfig config, Clock clock, Instant startAt, Monitor monitor,
            SchedulerLimits limits) {
        this.limits = limits;
        this.config = config;
        this.robotsCache = new RobotsCache(config, config.robotsCacheHosts());
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
     * Hands out first attempts of at most {@code pages} pages, and robots.txt only for hosts it can then hand a page
     * of: {@code limits.max-pages} less the pages a resumed crawl decided before, for a crawl that stops at it (when
     * its fetchers have taken the last, see {@code FetchWorker}). Call it before the first poll.
     *
     * <p>The rule ({@link LimitGate}), so that no robots.txt is fetched for a host the crawl never asks a page of: a
     * host holds one page of the limit from its robots.txt handed out (again too, after a failure) to its first page
     * handed out, and no first attempt goes out past the limit. Without a limit ({@code Long.MAX_VALUE}, the default)
     * nothing changes.
     *
     * <p>What this does not cover: a crawl stopped by a signal may leave the robots.txt requests then in flight, and
     * the hosts then waiting their delay after robots.txt for their first page (at most
     * {@link SchedulerLimits#maxAwaitingFirstPage}), with no page (a stop by time: see {@link #endsAt}); so may a host
     * whose robots.txt disallows every queued URL, or which turns out unreachable; and a crawl ended by its records
     * ({@code RecordStep}) before its pages were all taken, which out-of-scope redirect targets (recorded without a
     * page of their own) may do.
     */
    public void limitPages(long pages) {
        lock.lock();
        try {
            limit.limitPages(pages);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The crawl ends at {@code end} ({@code limits.max-duration} from the fetchers' start): from {@code politeness.delay}
     * before it, no robots.txt is handed out, since its host's first page could not follow it before the end (the
     * delay after robots.txt); pages go on. What a crawl stopped by time may still leave is the robots.txt requests
     * started just before that (their host's first page then comes up just after the end, by the time robots.txt
     * took). Call it before the fetchers start.
     */
    public void endsAt(Instant end) {
        lock.lock();
        try {
            limit.robotsUntil(end.toEpochMilli() - config.delay().toMillis());
        } finally {
            lock.unlock();
        }
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
            enqueue(hosts.computeIfAbsent(HostKey.of(url.url()), this::newHost), url);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Adds {@code url} unless its host holds {@link SchedulerLimits#maxQueuedPerHost} URLs already: then false, and the
     * caller keeps it (the spill) to offer again later.
     */
    @Override
    public boolean offer(PendingUrl url) {
        lock.lock();
        try {
            String key = HostKey.of(url.url());
            Host host = hosts.get(key);
            if (host != null && host.queue.size() >= limits.maxQueuedPerHost()) {
                return false;
            }
            enqueue(host == null ? hosts.computeIfAbsent(key, this::newHost) : host, url);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Adds {@code url} last to {@code host}'s queue and tickets the host if it was not. Lock held. */
    private void enqueue(Host host, PendingUrl url) {
        host.queue.addLast(url);
        queued++;
        if (!host.ticketed) {
            long now = clock.millis();
            wakeOneIfReady(schedule(host, now), now);
        }
    }

    @Override
    public PendingUrl poll() {
        lock.lock();
        try {
            long now = clock.millis();
            park(now);
            while (true) {
                boolean robotsMay = robotsInFlight < limits.maxRobotsInFlight()
                        && awaitingFirstPage < limits.maxAwaitingFirstPage();
                Host host = tickets.next(now, robotsMay, open());
                if (host == null) {
                    return null;
                }
                host.ticketed = false;
                if (addresses.unresolved(host.key)) { // per IP: its address first, looked up outside every lock
                    if (!host.resolving) {
                        host.resolving = true;
                        toResolve.addLast(host);
                        toResolveCount = toResolve.size();
                        changed.signal(); // a waiting fetcher comes to resolve it (untilReady is 0 now)
                    }
                    continue;
                }
                PendingUrl task = take(host, now);
                if (task != null) {
                    addresses.started(host.key);
                }
                schedule(host, now);
                if (task != null) {
                    wakeOneIfReady(tickets.firstReadyAt(open()), now); // pass the wake-up on while work is ready
                    return task;
                }
            }
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
        release(url, 0, true, null, false);
    }

    /** {@code url} was handed out but not taken after all (e.g. the crawl's page limit): back first, no delay. */
    public void putBack(PendingUrl url) {
        release(url, 0, false, url, url.attempt() == 0);
    }

    /** {@code url} was handed out but no request was made (e.g. refused by robots.txt): no delay. */
    public void skipped(PendingUrl url) {
        release(url, 0, false, null, false);
    }

    /**
     * The attempt at {@code url} ended now and it should be tried again, first of its host, no sooner than
     * {@code backoff} from now (the whole host waits: it is overloaded or unreachable).
     */
    public void retry(PendingUrl url, Duration backoff) {
        release(url, backoff.toMillis(), true, url.nextAttempt(), false);
    }

    /**
     * The robots.txt task for a host could not reach the host; it is fetched again, first of the host's tasks,
     * no sooner than {@code backoff} from now. Its attempt number ({@link PendingUrl#attempt()}) goes up by one.
     */
    public void retryRobots(PendingUrl robotsTask, Duration backoff) {
        lock.lock();
        try {
            Tickets.Open before = open();
            long now = clock.millis();
            Host host = reportedBack(robotsTask);
            addressEnded(host, now, host.delayMillis);
            host.robots.retry(now, backoff);
            awaitFirstPage(host); // its robots.txt may have reached the host: it keeps its page of the limit
            wakeOneIfReady(schedule(host, now), now);
            wakeAllIfOpened(before);
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
            Host host = reportedBack(task);
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
            Tickets.Open before = open();
            long now = clock.millis();
            Host host = reportedBack(robotsTask);
            if (host.robots.fetched(rules, now, host.queue.size())) {
                followRules(host, rules);
            }
            awaitFirstPage(host); // robots.txt again first if it answered 5xx: the host keeps its page of the limit
            host.nextAllowed = Math.max(host.nextAllowed, now + host.delayMillis);
            addressEnded(host, now, host.delayMillis);
            wakeOneIfReady(schedule(host, now), now);
            wakeAllIfOpened(before);
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

    /**
     * Hosts seen so far: host queues made, less those of hosts back from parking that found their robots.txt state in
     * the cache (a host back after its state was dropped counts again).
     */
    public int hostCount() {
        lock.lock();
        try {
            return (int) Math.min(Integer.MAX_VALUE, hostsMade - robotsCache.counts().hits());
        } finally {
            lock.unlock();
        }
    }

    /** Hosts held now, with URLs queued or in flight or within their delay; the others are parked. */
    public int activeHosts() {
        lock.lock();
        try {
            return hosts.size();
        } finally {
            lock.unlock();
        }
    }

    /** The robots.txt cache's counts: requests started, hits, evictions, expiries, parked hosts' rules held. */
    public RobotsCache.Counts robotsCounts() {
        lock.lock();
        try {
            return robotsCache.counts();
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
        if (!toResolve.isEmpty()) {
            return 0; // hosts wait for a fetcher to look up their address
        }
        long readyAt = tickets.firstReadyAt(open());
        return readyAt < 0 ? Long.MAX_VALUE : readyAt - clock.millis();
    }

    /** Wakes every thread in {@link #awaitWork}, e.g. to stop. */
    public void wakeAll() {
        monitor.wakeAll();
    }

    /**
     * Reports a handed-out URL back: the host waits {@code waitMillis}, or its politeness delay if longer and
     * {@code requestMade}; {@code again}, if not null, goes back first in the host's queue; {@code uncount}: its
     * start no longer counts toward the page limit (it is handed out again).
     */
    private void release(PendingUrl url, long waitMillis, boolean requestMade, PendingUrl again, boolean uncount) {
        lock.lock();
        try {
            Tickets.Open before = open();
            if (uncount) {
                limit.unstarted();
            }
            long now = clock.millis();
            Host host = reportedBack(url);
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
            wakeAllIfOpened(before);
        } finally {
            lock.unlock();
        }
    }

    /** The host of {@code task}, a task handed out and now reported back: no longer in flight. Lock held. */
    private Host reportedBack(PendingUrl task) {
        Host host = hosts.get(HostKey.of(task.url()));
        host.inFlight--;
        inFlight--;
        if (task.isRobots()) {
            robotsInFlight--;
        }
        return host;
    }

    /** The task {@code host} hands out now, or null. Called with the lock held and the host's ticket taken. */
    private PendingUrl take(Host host, long now) {
        if (host.unreachable == null && !addresses.mayStart(host.key, now)) {
            return null; // its address is busy or in its delay: schedule() asks it again
        }
        if (needsRobots(host, now)) {
            if (!host.awaitingFirstPage && !open().robots()) {
                return null; // come due since its ticket (rules expired): schedule() tickets it for the robots heap
            }
            PendingUrl robotsTask = host.robots.start(now); // null while a failed one waits for its retry time
            if (robotsTask != null) {
                host.inFlight++;
                inFlight++;
                robotsInFlight++;
                notAwaitingFirstPage(host); // its page of the limit is held by its robots.txt in flight now
            }
            return robotsTask;
        }
        if (host.unreachable != null && !host.queue.isEmpty()) { // no request is made: no limit, no delay
            return takePage(host);
        }
        if (host.robots.fetching() || host.queue.isEmpty()
                || host.inFlight >= host.maxConnections || host.nextAllowed > now) {
            return null;
        }
        return takePage(host);
    }

    /** Hands out {@code host}'s first queued URL. Lock held. */
    private PendingUrl takePage(Host host) {
        PendingUrl url = host.queue.pollFirst();
        queued--;
        host.inFlight++;
        inFlight++;
        if (url.attempt() == 0) {
            limit.started();
        }
        notAwaitingFirstPage(host);
        return url;
    }

    /**
     * {@code host}, its robots.txt reported back, holds a page of the limit until its first page is handed out (or
     * its robots.txt again, after a failure), if it has a URL queued. Lock held.
     */
    private void awaitFirstPage(Host host) {
        if (!host.queue.isEmpty() && !host.awaitingFirstPage) {
            host.awaitingFirstPage = true;
            awaitingFirstPage++;
        }
    }

    /** {@code host} no longer waits for its first page after its robots.txt (handed out, or none left). Lock held. */
    private void notAwaitingFirstPage(Host host) {
        if (host.awaitingFirstPage) {
            host.awaitingFirstPage = false;
            awaitingFirstPage--;
        }
    }

    /**
     * Issues {@code host}'s next ticket if it has work it can hand out now or later. Lock held.
     *
     * @return the time the ticket is ready, or -1 if none was issued
     */
    private long schedule(Host host, long now) {
        long readyAt;
        if (host.queue.isEmpty()) {
            notAwaitingFirstPage(host);
            if (host.inFlight == 0 && !host.idle) {
                host.idle = true;
                idle.add(new Idle(host, Math.max(now, host.nextAllowed)));
            }
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
        readyAt = Math.max(readyAt, 0);
        tickets.issue(host, readyAt, host.awaitingFirstPage ? Tickets.Kind.FIRST_PAGE // robots.txt again, or its page
                : needsRobots(host, now) ? Tickets.Kind.ROBOTS : Tickets.Kind.PAGE);
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
     * Which ticket heaps the page limit ({@link #limitPages}) and the end ({@link #endsAt}) leave open: robots.txt
     * while the pages started and the pages held (robots.txt in flight, hosts awaiting their first page) are below the
     * limit, until a delay before the end; other pages while the same holds. Lock held.
     */
    private Tickets.Open open() {
        return limit.open((long) robotsInFlight + awaitingFirstPage, clock::millis);
    }

    /** Wakes every waiting fetcher if a heap the page limit closed {@code before} is open now. Lock held. */
    private void wakeAllIfOpened(Tickets.Open before) {
        Tickets.Open now = open();
        if ((now.robots() && !before.robots()) || (now.pages() && !before.pages())) {
            changed.signalAll();
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
     * Politeness per IP: looks up the addresses of the hosts {@link #poll} found with none yet, one by one with no lock
     * held (a lookup may take seconds), and schedules each host again. A fetcher calls it before it polls, outside
     * the frontier's checkpoint lock, so a slow lookup holds up neither a checkpoint nor the other fetchers; with
     * {@code politeness.per: host} it returns at once. Until then such a host gets no ticket ({@link #poll} moves on to
     * the next), and a fetcher waiting for work is not kept waiting ({@link #awaitWork} returns at once).
     */
    public void resolveAddresses() {
        while (toResolveCount > 0) {
            Host host;
            lock.lock();
            try {
                host = toResolve.pollFirst();
                toResolveCount = toResolve.size();
            } finally {
                lock.unlock();
            }
            if (host == null) {
                return;
            }
            try {
                addresses.resolve(host.key);
            } finally { // a resolver that failed leaves the host unresolved: polled, it comes back here
                lock.lock();
                try {
                    host.resolving = false;
                    long now = clock.millis();
                    if (hosts.get(host.key) == host && !host.ticketed) {
                        wakeOneIfReady(schedule(host, now), now);
                    }
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /** Whether {@code host}'s next task is its robots.txt, or it is being fetched: never an unreachable host's. */
    private boolean needsRobots(Host host, long now) {
        return host.unreachable == null && host.robots.due(now);
    }

    /**
     * Forgets the hosts that have been idle since their delay passed, by {@code now}: their robots.txt state goes to
     * the robots cache, their politeness clock is of no more use (their next request may go at once). A host busy
     * again is skipped (it comes back here when it is idle next). Lock held.
     */
    private void park(long now) {
        while (!idle.isEmpty() && idle.peek().until() <= now) {
            Host host = idle.poll().host();
            host.idle = false;
            if (hosts.get(host.key) != host || !host.queue.isEmpty() || host.inFlight > 0) {
                continue;
            }
            if (host.nextAllowed > now) { // released again since, with a later delay
                host.idle = true;
                idle.add(new Idle(host, host.nextAllowed));
                continue;
            }
            hosts.remove(host.key);
            host.version++; // no ticket of it is live (nothing queued): made sure
            robotsCache.park(host.key, host.robots);
            addresses.forget(host.key); // resolved again if it comes back; its address's clock stays while it runs
        }
    }

    /** A queue for host {@code key}, new or back from parking (its robots.txt state from the cache, if there). */
    private Host newHost(String key) {
        HostRobots robots = robotsCache.take(key, clock.millis());
        Host host = new Host(key, robots);
        hostsMade++;
        host.nextAllowed = startAt;
        host.delayMillis = config.delay().toMillis();
        host.maxConnections = config.maxConnectionsPerHost();
        if (robots.rulesHold()) {
            followRules(host, robots.rules());
        }
        host.unreachable = unreachableHosts.reason(key);
        if (host.unreachable != null) {
            robots.hostUnreachable();
        }
        return host;
    }

    /** Sets {@code host}'s delay and connections as its robots.txt {@code rules} ask (Crawl-delay). */
    private void followRules(Host host, RobotsRules rules) {
        host.delayMillis = Math.max(config.delay().toMillis(), rules.crawlDelay().toMillis());
        host.maxConnections = rules.crawlDelay().isZero() ? config.maxConnectionsPerHost() : 1;
    }

    /** An idle host, to be parked at {@code until} (epoch ms) if it is still idle then. */
    private record Idle(Host host, long until) {
    }

}
