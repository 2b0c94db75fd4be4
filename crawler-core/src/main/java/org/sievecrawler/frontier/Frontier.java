package org.sievecrawler.frontier;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.politeness.AddressClocks;
import org.sievecrawler.politeness.HostBudget;
import org.sievecrawler.politeness.HostScheduler;
import org.sievecrawler.politeness.SchedulerLimits;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.profile.SieveConfig;
import org.sievecrawler.robots.RobotsCache;
import org.sievecrawler.robots.RobotsRules;
import org.sievecrawler.sieve.CorruptFilterException;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.Sieve;
import org.sievecrawler.sieve.SpillingQueue;
import org.sievecrawler.sink.PageRecord;

/**
 * The crawl's URL state, in one owner: the Sieve's Bloom filter layers, the pending URLs (in memory per host and
 * spilled to segment files), per-host politeness and robots.txt state, the leases in flight, the journal, the end
 * of the crawl and the consistency of checkpoints. Nothing else holds any of them.
 *
 * <pre>
 *   offerSeeds, PageLease.complete(links) --> Sieve (drops seen URLs) --> AdmissionBudget (counts a host's URLs
 *     past limits.max-pages-per-host, queues the others) --> SpillingQueue --> HostScheduler
 *   next() <-- a URL whose host may be fetched now, as a Lease, closed exactly once:
 *     PageLease.complete(record, links) | retry(backoff) | putBack()      RobotsLease.rules | retry | ...
 * </pre>
 *
 * <p>Decisions depend only on the sequence of admissions and completions: which URLs are new (the filter), which
 * wait (pending = admitted - completed) and which are leased. Each admission and completion is appended to the
 * {@link FrontierJournal} as it happens, with a plain write (no buffer in the JVM, so a kill -9 loses none); a
 * resume ({@link #resume}) starts from a checkpoint's {@link FrontierState} and replays the journal after it, so
 * it reproduces the crawl's frontier as it was at the kill, but for the leases in flight then, which are pending
 * again: a kill -9 fetches again only what was in flight. At most {@link Settings#maxLeases} ({@code fetch.threads})
 * leases are open at once, a page fetched and waiting for a parse thread included, so that is at most
 * {@code fetch.threads} pages; {@link #next(Duration)} waits for a lease to be closed. The order in which
 * pending URLs come out (which host is ready when) depends on the clock, and is not part of the state.
 *
 * <p>A completion writes the page's record (through the {@link Recorder}) before its journal entry: a kill between
 * the two fetches the page again (its record then appears twice, and it was in flight); the other order would lose
 * its record. Its links are admitted before both, so a resumed crawl never lacks a link of a recorded page.
 *
 * <p>Checkpoints: every change (an admission, a lease handed out or closed, a record) holds the shared side of one
 * lock; {@link #snapshot} holds the exclusive side for the moment it copies the state and starts a new journal
 * segment, then the checkpoint is written with the crawl running. {@link #seal()} ends all changes for the final
 * checkpoint: a lease closed after it changes nothing and stays in flight, so it is in that checkpoint, to be
 * fetched on resume.
 *
 * <p>The end of the crawl ({@link #exhausted()}) is exact: nothing pending and no lease open, read under the
 * exclusive side, so no admission or lease can be half done.
 *
 * <p>Thread-safe: any number of fetcher and parse threads; leases may be closed on another thread than the one
 * that took them.
 */
public final class Frontier implements LeaseSource, AutoCloseable {
    /** The journal's folder, inside the frontier's. */
    public static final String JOURNAL = "journal";
    private static final Duration DRAIN_POLL = Duration.ofMillis(50);

    /**
     * What a frontier is made of.
     *
     * @param sieve the Bloom filter's sizing and the pending URLs kept in memory
     * @param politeness the per-host rules
     * @param maxLeases leases open at once at most ({@code fetch.threads}): a page fetched and waiting for a parse
     *     thread holds its lease, so this bounds what a kill -9 can cost, not only the requests in flight
     * @param dir the frontier's folder (spill segments, and the journal in {@value #JOURNAL}/)
     * @param maxUrlsPerHost URLs of one host admitted at most ({@code limits.max-pages-per-host}; see
     *     {@link AdmissionBudget}); 0 for no limit
     * @param addresses the addresses of hosts' names, for {@code politeness.per: ip} ({@link AddressClocks})
     */
    public record Settings(SieveConfig sieve, PolitenessConfig politeness, int maxLeases, Path dir,
            long maxUrlsPerHost, AddressClocks.Resolver addresses) {
        public Settings {
            Objects.requireNonNull(addresses, "addresses");
            if (maxLeases < 1) {
                throw new IllegalArgumentException("maxLeases must be >= 1, was " + maxLeases);
            }
            if (maxUrlsPerHost < 0) {
                throw new IllegalArgumentException("maxUrlsPerHost must be >= 0 (0 = no limit), was "
                        + maxUrlsPerHost);
            }
        }

        /** Settings whose hosts' addresses are unknown (with {@code politeness.per: ip}, each host is its own). */
        public Settings(SieveConfig sieve, PolitenessConfig politeness, int maxLeases, Path dir, long maxUrlsPerHost) {
            this(sieve, politeness, maxLeases, dir, maxUrlsPerHost, name -> null);
        }

        /** These settings, hosts' addresses for {@code politeness.per: ip} given by {@code resolver}. */
        public Settings withAddresses(AddressClocks.Resolver resolver) {
            return new Settings(sieve, politeness, maxLeases, dir, maxUrlsPerHost, resolver);
        }

        /** The scheduler of these settings' politeness, on {@code clock}. */
        HostScheduler hostScheduler(Clock clock) {
            return new HostScheduler(politeness, clock, schedulerLimits()).perAddress(AddressClocks.of(politeness, addresses));
        }

        /** Settings with no budget per host. */
        public Settings(SieveConfig sieve, PolitenessConfig politeness, int maxLeases, Path dir) {
            this(sieve, politeness, maxLeases, dir, 0);
        }

        /** The settings of a crawl with {@code profile}, its frontier in {@code dir}. */
        public static Settings of(CrawlProfile profile, Path dir) {
            return new Settings(profile.sieve(), profile.politeness(), profile.fetch().threads(), dir,
                    profile.limits().maxPagesPerHost());
        }

        /** What the host scheduler holds and hands out at once: a host's share of the memory, robots.txt's of the threads. */
        SchedulerLimits schedulerLimits() {
            return SchedulerLimits.of(sieve.maxInMemoryUrls(), maxLeases);
        }

        /** The budget of URLs per host these settings give, its counts from {@code state} if there is one. */
        HostBudget hostBudget(Optional<FrontierState> state) {
            HostBudget budget = new HostBudget(maxUrlsPerHost);
            state.ifPresent(s -> budget.restore(s.admittedPerHost()));
            return budget;
        }
    }

    /** Where a completed page's record goes: pages.jsonl and the counters. Called under the frontier's lock. */
    @FunctionalInterface
    public interface Recorder {
        void record(PageRecord record) throws IOException;

        /**
         * Forces the records written so far to disk: before a checkpoint counting them is committed, so that a
         * power loss cannot leave fewer records than the checkpoint says. Nothing by default (no file).
         */
        default void sync() throws IOException {
        }

        /**
         * A URL new to the Sieve was not queued: its host had admitted {@code limits.max-pages-per-host} URLs
         * already. Counted, not recorded one by one; nothing by default. Called under the frontier's lock.
         */
        default void overHostBudget(PendingUrl url) {
        }
    }

    private final Sieve sieve;
    private final HostScheduler hosts;
    private final SpillingQueue pending;
    private final Journal journal;
    private final Recorder recorder;
    private final Path dir;
    private final SnapshotLock gate = new SnapshotLock();
    private final OpenLeases leases;
    /** Where a completed page's links go: this frontier's Sieve (and journal), or an outbox. */
    private final Completion completion;
    /** URLs admitted per host, spent by the {@link AdmissionBudget} behind the Sieve; in every snapshot. */
    private final HostBudget hostBudget;

    /**
     * A frontier of these parts, its leases capped by {@code permits}, its pages' links sent to {@code elsewhere} or,
     * if empty, into {@code sieve}: {@link #create}, {@link #resume} or a frontier group makes one.
     */
    Frontier(Path dir, Sieve sieve, HostScheduler hosts, SpillingQueue pending, Journal journal, Recorder recorder,
            Semaphore permits, Optional<LinkOutbox> elsewhere, HostBudget hostBudget) {
        this.dir = dir;
        this.hostBudget = hostBudget;
        this.sieve = sieve;
        this.hosts = hosts;
        this.pending = pending;
        this.journal = journal;
        this.recorder = recorder;
        this.leases = new OpenLeases(permits, hosts::wakeAll); // waiting fetchers re-check for work or the end
        this.completion = elsewhere.<Completion>map(outbox -> new Completion.Elsewhere(outbox, recorder, leases))
                .orElseGet(() -> new Completion.IntoSieve(sieve, journal, recorder, leases));
    }

    /**
     * A new, empty frontier in {@code dir} (the crawl's {@code frontier/} folder): spill segments and journal
     * segments an earlier crawl left there are deleted.
     *
     * @throws IOException naming the file or folder that could not be cleared or created
     */
    public static Frontier create(Settings settings, Clock clock, Recorder recorder) throws IOException {
        SieveConfig sieve = settings.sieve();
        HostScheduler hosts = settings.hostScheduler(clock);
        SpillingQueue spill = SpillingQueue.create(hosts, sieve.maxInMemoryUrls(), settings.dir(),
                SpillingQueue.SEGMENT_BYTES);
        FrontierJournal journal = FrontierJournal.create(settings.dir().resolve(JOURNAL));
        HostBudget budget = settings.hostBudget(Optional.empty());
        return new Frontier(settings.dir(), Sieve.create(sieve.layout(), sieve.expectedUrls(),
                sieve.falsePositiveRate(), sieve.onOverflow(), new AdmissionBudget(spill, budget, recorder::overHostBudget)), hosts, spill,
                journal, recorder, new Semaphore(settings.maxLeases()), Optional.empty(), budget);
    }

    /**
     * The frontier of a checkpoint ({@code state}) with the journal after it replayed: the URLs admitted since are
     * admitted again, and those completed since, wherever they wait (the checkpoint's leases and memory, the spill,
     * the replayed admissions), are dropped when they would enter a host's queue; but a URL completed since whose
     * record the crawl's output lost ({@code recorded} says it has none) is fetched again, with a warning.
     *
     * @throws CorruptFilterException naming the file if a spill segment the state needs is missing or damaged, or
     *     a journal segment before the last is damaged
     * @throws IOException naming the file that could not be read or written
     */
    public static Frontier resume(Settings settings, Clock clock, Recorder recorder, FrontierState state,
            Predicate<String> recorded) throws IOException {
        SieveConfig sieve = settings.sieve();
        Path dir = settings.dir();
        HostScheduler hosts = settings.hostScheduler(clock);
        Replay replay = Replay.since(state, dir.resolve(JOURNAL), recorded);
        SkipCompleted queue = new SkipCompleted(hosts, replay.completed());
        SpillingQueue spill = SpillingQueue.resume(queue, sieve.maxInMemoryUrls(), dir, SpillingQueue.SEGMENT_BYTES,
                state.spill());
        HostBudget budget = settings.hostBudget(Optional.of(state));
        Sieve restored = Sieve.restore(sieve.layout(), sieve.expectedUrls(), sieve.falsePositiveRate(),
                sieve.onOverflow(), new AdmissionBudget(spill, budget, recorder::overHostBudget), state.filters());
        spill.addInMemory(state.pending()); // in the filters and the budget already: not offered again
        restored.readmit(replay.admitted()); // spends the budget again, as the admissions did
        return new Frontier(dir, restored, hosts, spill, replay.journal(), recorder,
                new Semaphore(settings.maxLeases()), Optional.empty(), budget);
    }

    /**
     * Offers the seeds: those the filter has not seen are admitted (and journaled).
     *
     * @throws UncheckedIOException naming the journal segment that could not be written
     */
    public void offerSeeds(List<String> seeds) {
        offer(seeds.stream().map(PendingUrl::seed).toList());
    }

    /**
     * Offers {@code urls} in their order: those the filter has not seen are admitted (and journaled); returns how
     * many. A frontier fed from outside (one of a frontier group) takes its log this way, record by record.
     *
     * @throws UncheckedIOException naming the journal segment that could not be written
     */
    public int offer(List<PendingUrl> urls) {
        Lock lock = gate.shared();
        lock.lock();
        try {
            return admit(urls);
        } finally {
            lock.unlock();
        }
    }

    /** Admits those of {@code urls} the filter has not seen and journals them; returns how many. Shared lock held. */
    private int admit(List<PendingUrl> urls) {
        List<PendingUrl> admitted = new ArrayList<>(urls.size());
        sieve.offerAll(urls, admitted);
        journal.append(admitted, null);
        return admitted.size();
    }

    /** {@link #next(Duration)} without waiting for a lease to be closed. */
    public Lease next() {
        try {
            return next(Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * The next URL some host may be fetched for now, leased to the caller; null when none may be now, or after
     * {@link #seal()}. While {@link Settings#maxLeases} are open, waits up to {@code maxWait} for one to be closed
     * (then null if none was). Does not wait for a host to be ready: wait with {@link #awaitWork}, and ask
     * {@link #exhausted()} whether any will come.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     * @throws UncheckedIOException naming the spill segment that could not be read
     */
    @Override
    public Lease next(Duration maxWait) throws InterruptedException {
        hosts.resolveAddresses(); // politeness.per: ip: lookups outside the checkpoint lock
        if (!leases.reserve(maxWait)) {
            return null;
        }
        Lease lease = null;
        Lock lock = gate.shared();
        lock.lock();
        try {
            PendingUrl url = gate.sealed() || leases.draining() ? null : pending.poll();
            if (url != null) {
                PageLease page = url.isRobots() ? null : new PageLease(this, url);
                lease = page == null ? new RobotsLease(this, url) : page;
                leases.opened(page);
            }
            return lease;
        } finally {
            lock.unlock();
            if (lease == null) {
                leases.unreserve();
            }
        }
    }

    /**
     * Whether the crawl is out of work: nothing pending and no lease open, so nothing can be admitted any more.
     * Exact: a lease open or a URL pending answers no at once; when neither is seen, both are read again while no
     * change is under way (the checkpoint lock's exclusive side), so a lease being closed with its links or a URL
     * being leased is never half seen.
     */
    @Override
    public boolean exhausted() {
        if (leases.open() > 0 || pending.size() > 0) {
            return false; // the common answer while the crawl runs, without stopping every thread
        }
        return gate.exclusive(() -> pending.size() == 0 && leases.open() == 0);
    }

    /**
     * Waits until some host may be ready, work is added or released, or {@code maxWait} passes.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    @Override
    public void awaitWork(Duration maxWait) throws InterruptedException {
        hosts.awaitWork(maxWait);
    }

    /**
     * Hands out the first attempts of at most {@code pages} pages, and a host's robots.txt only when a page of it can
     * follow within them ({@link HostScheduler#limitPages}): {@code limits.max-pages} less the pages decided before.
     */
    public void limitPages(long pages) {
        hosts.limitPages(pages);
    }

    /**
     * The crawl ends at {@code end} ({@code limits.max-duration}): no robots.txt is handed out from a politeness delay
     * before it ({@link HostScheduler#endsAt}).
     */
    public void endsAt(Instant end) {
        hosts.endsAt(end);
    }

    /** Whether it may hand out a lease: not drained, not sealed (a frontier group waits on those). */
    boolean handsOut() {
        return !leases.draining() && !gate.sealed();
    }

    HostScheduler hosts() {
        return hosts;
    }

    /** Wakes every thread in {@link #awaitWork}, e.g. to stop. */
    @Override
    public void wakeAll() {
        hosts.wakeAll();
    }

    /**
     * Copies the state while no change is under way, starting a new journal segment at that point, and returns
     * {@code with} applied to it (also under the lock: the caller reads what must be consistent with it, e.g. the
     * counters and the length of pages.jsonl). Then write the checkpoint, {@link #sync()} before committing it, and
     * call {@link #checkpointed} once it is committed.
     *
     * @throws UncheckedIOException naming the journal segment that could not be started
     */
    public <T> T snapshot(Function<FrontierState, T> with) {
        return gate.exclusive(() -> {
            List<PendingUrl> urls = leases.pageUrls(hosts.size());
            urls.addAll(hosts.queuedUrls());
            try {
                int segment = journal.rotate();
                return with.apply(new FrontierState(sieve.copyFilters(), urls, pending.position(), segment,
                        hostBudget.counts()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /**
     * Forces the spill segment being written and the records to disk: before a checkpoint naming their positions is
     * committed.
     *
     * @throws UncheckedIOException naming the file that could not be synced
     */
    public void sync() {
        pending.sync();
        try {
            recorder.sync();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A checkpoint holding {@code state} is committed: the spill segments read before it and the journal segments
     * before its own are deleted.
     *
     * @throws IOException naming the segment that could not be deleted
     */
    public void checkpointed(FrontierState state) throws IOException {
        pending.releaseBefore(state.spill().readSegment());
        journal.deleteBefore(state.journalSegment());
    }

    /**
     * Ends all changes, for the final checkpoint: from now on no lease is handed out, and closing one changes
     * nothing (it stays in flight, so the checkpoint taken next holds it). Returns once a change under way is done.
     */
    public void seal() {
        gate.seal();
    }

    /**
     * Hands out no more leases and waits up to {@code maxWait} until those open are closed (for a frontier whose
     * links go to an outbox, until they are durable): so a snapshot taken next holds no page in flight. Returns
     * whether none is open.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public boolean drain(Duration maxWait) throws InterruptedException {
        leases.drain();
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (leases.open() > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            // not awaitWork: it returns at once while a host is ready, and a drained frontier hands out nothing;
            // the last lease's closing signals (OpenLeases.closed), the poll only covers a signal sent before the wait
            hosts.awaitChange(Duration.ofNanos(Math.min(left, DRAIN_POLL.toNanos())));
        }
        return true;
    }

    /** Leases open: handed out and not yet closed, pages whose links are not yet acknowledged included. */
    public int openLeases() {
        return leases.open();
    }

    /** Pending URLs, in memory and spilled. */
    public int size() {
        return pending.size();
    }

    /** URLs spilled to disk, not yet read back. */
    public long spilled() {
        return pending.spilled();
    }

    /** Requests in flight: leases handed out whose request has not ended. */
    @Override
    public int requestsInFlight() {
        return hosts.inFlight();
    }

    /** Page leases open: handed out and not yet closed (fetching or parsing). */
    public int leasedPages() {
        return leases.pages();
    }

    /** Hosts seen so far. */
    public int hostCount() {
        return hosts.hostCount();
    }

    /** What the robots.txt cache counted: requests started, hits, evictions, expiries ({@link RobotsCache}). */
    public RobotsCache.Counts robotsCounts() {
        return hosts.robotsCounts();
    }

    /** The hosts found unreachable so far, by host key (sorted), with why. */
    public Map<String, String> unreachableHosts() {
        return hosts.unreachableHosts();
    }

    /** n*, the Sieve's estimate of the distinct URLs it has seen. */
    public double estimatedSeen() {
        return sieve.estimatedSeen();
    }

    /** The probability, now, that a new URL is wrongly dropped as seen. */
    public double falsePositiveRate() {
        return sieve.falsePositiveRate();
    }

    /** Flushes and closes the spill and the journal. */
    @Override
    public void close() throws IOException {
        try {
            pending.close();
        } finally {
            journal.close();
        }
    }

    /**
     * Closes the frontier and deletes its folder (spill and journal): for a crawl that finished, with nothing left to
     * resume.
     *
     * @throws IOException naming the file that could not be deleted
     */
    public void discard() throws IOException {
        close();
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.delete(file);
                } catch (IOException e) {
                    throw new IOException("cannot delete " + file + " of the finished crawl's frontier: "
                            + FileErrors.reason(file, e), e);
                }
            }
        }
    }

    RobotsRules rules(String url) {
        return hosts.rules(url);
    }

    String unreachableReason(String url) {
        return hosts.unreachableReason(url);
    }

    void requestEnded(PendingUrl task) {
        hosts.finished(task);
    }

    void hostUnreachable(PendingUrl task, String reason) {
        hosts.unreachable(task, reason);
    }

    void complete(PageLease lease, boolean noRequest, List<PageRecord> records, List<PendingUrl> links)
            throws IOException {
        if (noRequest) {
            hosts.skipped(lease.task());
        }
        gate.change(() -> completion.complete(lease, records, links)); // sealed: stays leased, in the checkpoint
    }

    void retry(PageLease lease, Duration backoff) {
        change(() -> {
            hosts.retry(lease.task(), backoff);
            leases.pageLeft(lease);
        });
    }

    void putBack(PageLease lease) {
        change(() -> {
            hosts.putBack(lease.task());
            leases.pageLeft(lease);
        });
    }

    void robotsFetched(PendingUrl task, RobotsRules rules, List<PendingUrl> sitemaps) {
        change(() -> {
            if (!sitemaps.isEmpty()) { // offered before the lease closes: the crawl is never seen out of work
                admit(sitemaps);
            }
            hosts.robotsFetched(task, rules);
        });
    }

    void retryRobots(PendingUrl task, Duration backoff) {
        change(() -> hosts.retryRobots(task, backoff));
    }

    void robotsHostUnreachable(PendingUrl task, String reason) {
        change(() -> hosts.unreachable(task, reason));
    }

    /** Closes a lease with {@code change} under the shared lock; after {@link #seal()}, nothing changes. */
    private void change(Runnable change) {
        gate.change(() -> {
            change.run();
            leases.closed();
        });
    }
}
