package org.sievecrawler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;
import org.sievecrawler.checkpoint.SnapshotLock;
import org.sievecrawler.fetch.FailureKind;
import org.sievecrawler.fetch.FetchResult;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.fetch.HttpFetcher;
import org.sievecrawler.fetch.RetryPolicy;
import org.sievecrawler.fetch.RobotsResponse;
import org.sievecrawler.link.LinkDecision;
import org.sievecrawler.link.RedirectTarget;
import org.sievecrawler.parse.ParsedPage;
import org.sievecrawler.politeness.HostScheduler;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.Sieve;
import org.sievecrawler.sink.PageRecord;
import org.sievecrawler.sink.PageRecords;
import org.sievecrawler.sink.CrawlSink;
import org.sievecrawler.warc.WarcLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a fetcher thread does with each URL it takes from the Sieve: robots.txt tasks, the robots check,
 * the fetch, retries (handed back to the scheduler, never slept on, when the {@link RetryPolicy} says so), redirects
 * (their targets go through the same link decision as links, then to the Sieve), and one {@link PageRecord} per
 * decided URL, built by {@link PageRecords} and written to the {@link CrawlSink}. Fetched HTML goes to the parse
 * pool, which parses it, decides and offers its links and writes its record ({@link PageReader}). The steps a page
 * goes through are listed in one method, {@link #handle}.
 *
 * <p>With WARC output on, every exchange the fetcher captured (pages, redirects, error pages, retried attempts,
 * robots.txt) goes to the archive from the thread that fetched it, after the host's slot is released; the page's
 * record then carries where its response is. With {@code output.warc-metadata}, the parse pool adds a metadata
 * record of the page's outlinks.
 *
 * <p>Why a separate pool: fetching waits on the network, parsing burns CPU. With 16 fetcher threads doing both
 * on 2 cores, the runnable threads starved the JIT's compiler thread (the scanner stayed in profiling C1 code
 * for the whole of a short crawl) and thrashed the caches (parsing in the fetcher threads again, measured on
 * real pages: half the context switches, a third more CPU). The {@link ParsePool} has one thread per core and a
 * bounded backlog; when it is full, fetchers wait for room, which slows fetching to the speed of parsing while
 * keeping the CPU-bound threads as many as the cores.
 *
 * <p>Checkpoints: each step that moves a page task between the queue, the in-flight set and the output (poll,
 * retry, put-back, the links a page offers, its last record) holds the {@link SnapshotLock}'s shared side, so a
 * checkpoint sees every task in exactly one place. A task's last record ends it; a redirect offers its target
 * before recording itself for that reason.
 *
 * <p>The end of a crawl: a fetcher stops taking tasks once {@code stopping} says so and finishes the one it holds.
 * Requests still running when the crawl has waited long enough are cancelled ({@link #cancelInFlight()}); a
 * cancelled request is no failure of the server's: its task goes back to the queue, unrecorded, and the final
 * checkpoint holds it for the resume. Once the crawl writes its final checkpoint ({@link #seal()}), nothing more is
 * recorded, so a task is either recorded or in that checkpoint, never both. Threads are never interrupted: an
 * interrupt reaches a request only between two reads, and closes pages.jsonl's channel if it comes while a record
 * is written.
 *
 * <p>Thread-safe: one instance serves every fetcher and parse thread; all its collaborators are thread-safe.
 */
final class FetchWorker {
    private static final Logger LOG = LoggerFactory.getLogger(FetchWorker.class);
    private static final Duration IDLE_WAIT = Duration.ofMillis(200);
    /** Fetched pages that may wait for a parse thread, per core, and their bytes at most (see {@link ParsePool}). */
    private static final int PARSE_BACKLOG_PAGES_PER_CORE = 32;
    private static final long PARSE_BACKLOG_BYTES = 32L << 20;

    private final Settings settings;
    private final Sieve sieve;
    private final HostScheduler politeness;
    private final SnapshotLock gate;
    private final PageChecks checks;
    private final HttpFetcher fetcher;
    private final RetryPolicy retries;
    private final PageReader pages;
    /** Records, the archive (nothing with WARC off: the fetcher then captures no exchange) and counters. */
    private final CrawlSink output;
    private final LongPredicate limitReached;
    private final AtomicLong pagesTaken;
    /**
     * Page tasks between poll and done (their last record written, their links offered): what a checkpoint
     * saves as in flight, to be fetched again on resume. Robots.txt tasks are not held: a resume fetches
     * robots.txt anew.
     */
    private final Set<PendingUrl> inFlight = ConcurrentHashMap.newKeySet();
    /**
     * Fetchers between taking a task and having offered its links. The scheduler's in-flight count ends when
     * the request ends, before parsing; the crawl is out of work only when this is zero too.
     */
    private final AtomicInteger busy = new AtomicInteger();
    private final ParsePool parsers;
    /** An Error a parse thread met; the fetchers pass it on, which ends the crawl. */
    private final AtomicReference<Error> fatal = new AtomicReference<>();
    private final AtomicReference<IOException> parseFailure =
            new AtomicReference<>();
    /**
     * Set by {@link #seal()}: nothing is recorded and no page waiting for a parse thread is parsed any more. Set under
     * the gate's exclusive lock, read under its shared one.
     */
    private volatile boolean sealed;

    /** The profile's keys a fetcher reads, read once. */
    private record Settings(long maxPages, int maxRedirects, List<String> accept, long maxPageBytes,
            boolean warcMetadata) {
        static Settings of(CrawlProfile profile) {
            return new Settings(profile.limits().maxPages(), profile.fetch().maxRedirects(), profile.fetch().accept(),
                    profile.limits().maxPageBytes(), profile.output().warcMetadata());
        }
    }

    /**
     * @param profile the crawl's profile, read here once: its limits, redirects, accepted types and retries, its
     *     traps and robots.txt agent ({@link PageChecks})
     * @param pages the parse and link steps of fetched HTML pages
     * @param output where records, exchanges and counts go
     * @param limitReached told the number of URLs decided after each record, and {@code limits.max-pages} when a
     *     fetcher stops taking tasks for it
     */
    FetchWorker(CrawlProfile profile, Sieve sieve, HostScheduler politeness, SnapshotLock gate, HttpFetcher fetcher,
            PageReader pages, CrawlSink output, LongPredicate limitReached) {
        this.settings = Settings.of(profile);
        this.sieve = sieve;
        this.politeness = politeness;
        this.gate = gate;
        this.checks = new PageChecks(profile);
        this.fetcher = fetcher;
        this.retries = RetryPolicy.of(profile);
        this.pages = pages;
        this.output = output;
        this.limitReached = limitReached;
        this.pagesTaken = new AtomicLong(output.decided()); // a resumed crawl's max-pages counts what it did before
        int cores = Runtime.getRuntime().availableProcessors();
        this.parsers = new ParsePool(cores, PARSE_BACKLOG_PAGES_PER_CORE * cores, PARSE_BACKLOG_BYTES);
    }

    /**
     * Takes and handles URLs until the crawl has no work left or {@code stopping} says so.
     *
     * @throws UncheckedIOException when writing the output failed (here or in the parse pool)
     * @throws Error an Error a parse thread met (such as OutOfMemoryError), passed on to end the crawl
     */
    void runUntilDone(BooleanSupplier stopping) {
        while (!stopping.getAsBoolean()) {
            if (parseFailure.get() != null) {
                throw new UncheckedIOException(parseFailure.get());
            }
            if (fatal.get() != null) {
                throw fatal.get();
            }
            busy.incrementAndGet(); // before polling, so no moment shows neither in-flight nor busy
            PendingUrl task = poll();
            if (task == null) {
                busy.decrementAndGet();
                if (politeness.isIdle() && busy.get() == 0 && sieve.size() == 0) {
                    politeness.wakeAll(); // let the other fetchers see it too
                    return;
                }
                try {
                    politeness.awaitWork(IDLE_WAIT);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                continue;
            }
            try {
                if (!task.isRobots() && !takePage(task)) {
                    shared(() -> {
                        politeness.putBack(task);
                        inFlight.remove(task);
                    });
                    return;
                }
                handle(task);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                if (busy.decrementAndGet() == 0) {
                    politeness.wakeAll(); // waiting fetchers re-check for work or the end
                }
            }
        }
    }

    /** The next task, counted in flight in the same step so a checkpoint sees it in one place or the other. */
    private PendingUrl poll() {
        Lock lock = gate.shared();
        lock.lock();
        try {
            PendingUrl task = sieve.pollPending();
            if (task != null && !task.isRobots()) {
                inFlight.add(task);
            }
            return task;
        } finally {
            lock.unlock();
        }
    }

    /** The page tasks in flight now; consistent with the queue while the checkpoint's exclusive lock is held. */
    List<PendingUrl> inFlight() {
        return new ArrayList<>(inFlight);
    }

    private void shared(Runnable change) {
        Lock lock = gate.shared();
        lock.lock();
        try {
            change.run();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether {@code limits.max-pages} lets the crawl start {@code task}: the limit counts page tasks taken (a retry
     * is the same task again, not counted twice), so at most that many are started and at most that many recorded
     * (but for the out-of-scope targets of redirects, recorded without a task).
     */
    private boolean takePage(PendingUrl task) {
        long max = settings.maxPages();
        if (max > 0 && task.attempt() == 0 && pagesTaken.incrementAndGet() > max) {
            limitReached.test(max);
            return false;
        }
        return true;
    }

    /**
     * The steps of one URL, in order: a robots.txt task has its own ({@link #handleRobots}); a page is checked
     * ({@link PageChecks}: traps, unreachable hosts, robots.txt, the host's budget), fetched, its exchange archived,
     * and then, by what the fetch gave: a failure is retried or recorded, a redirect's target goes through the link
     * decision, an HTML page is parsed and its links decided on a parse thread ({@link #parsePage}); every end is a
     * record.
     */
    private void handle(PendingUrl task) throws IOException {
        if (task.isRobots()) {
            handleRobots(task);
            return;
        }
        Optional<PageRecord> refused = checks.refusal(task, politeness.unreachableReason(task.url()),
                politeness.rules(task.url()));
        if (refused.isPresent()) { // no request was made, so the host's delay does not start
            politeness.skipped(task);
            done(task, refused.get(), Optional.empty());
            return;
        }
        FetchResult result = fetcher.fetch(task.url());
        if (result instanceof FetchResult.Failure failure) {
            handleFailure(task, failure);
            return;
        }
        politeness.finished(task);
        if (result instanceof FetchResult.Redirect redirect) {
            handleRedirect(task, redirect, output.archive(redirect.exchange()));
            return;
        }
        FetchResult.Page page = (FetchResult.Page) result;
        Optional<WarcLocation> at = output.archive(page.exchange());
        if (page.status() >= 400) {
            done(task, PageRecords.httpError(task, page), at);
        } else if (!HttpFetcher.isParseable(page.contentType(), settings.accept())) {
            done(task, PageRecords.notHtml(task, page), at);
        } else {
            parseLater(task, page, at);
        }
    }

    /** A failed attempt: put back when the crawl cancelled it, else retried after a backoff, or recorded. */
    private void handleFailure(PendingUrl task, FetchResult.Failure failure) throws IOException {
        if (failure.kind() == FailureKind.CANCELLED) { // the crawl is ending: fetched again on resume
            shared(() -> {
                politeness.putBack(task);
                inFlight.remove(task);
            });
            return;
        }
        output.failedAttempt();
        RetryPolicy.Decision next = retries.afterFailure(task.attempt(), failure.kind(), failure.retryAfter());
        if (next instanceof RetryPolicy.Retry retry) {
            output.retried();
            output.archive(failure.exchange());
            shared(() -> {
                politeness.retry(task, retry.backoff());
                inFlight.remove(task);
            });
            return;
        }
        if (failure.kind().unreachable()) {
            politeness.unreachable(task, failure.kind().unreachableReason());
        } else {
            politeness.finished(task);
        }
        done(task, PageRecords.failure(task, failure, ((RetryPolicy.GiveUp) next).because()),
                output.archive(failure.exchange()));
    }

    /**
     * Fetches a host's robots.txt and reports the rules to the scheduler. A failure to reach the host is retried
     * like a page's (the crawl's retries and backoff, a few seconds in all by default) and then makes the host
     * unreachable; any other failure (a timeout, a 5xx) is the scheduler's to retry after
     * {@code politeness.robots-retry}.
     */
    private void handleRobots(PendingUrl task) throws IOException {
        RobotsResponse response = fetcher.fetchRobots(task.url());
        if (response.failure() == FailureKind.CANCELLED) { // the crawl is ending; a resume fetches robots.txt anew
            politeness.retryRobots(task, Duration.ZERO);
            return;
        }
        if (response.failed() || response.status() >= 500) {
            output.failedAttempt();
        }
        FailureKind failure = response.failure();
        if (failure != null && failure.unreachable()) {
            if (retries.afterFailure(task.attempt(), failure, null) instanceof RetryPolicy.Retry retry) {
                output.retried();
                politeness.retryRobots(task, retry.backoff());
            } else {
                LOG.info("{}: {}", task.url(), response.error());
                politeness.unreachable(task, failure.unreachableReason());
            }
        } else {
            politeness.robotsFetched(task, checks.robotsRules(task, response));
        }
        for (HttpExchange exchange : response.exchanges()) {
            output.archive(exchange);
        }
    }

    /** Hands the page to the parse pool; it counts as busy until its record is written. */
    private void parseLater(PendingUrl task, FetchResult.Page page, Optional<WarcLocation> at) {
        busy.incrementAndGet();
        parsers.submit(page.length(), () -> {
            try {
                if (sealed) {
                    return; // the final checkpoint holds the task in flight
                }
                parsePage(task, page, at);
            } catch (IOException e) {
                parseFailure.compareAndSet(null, e);
            } catch (UncheckedIOException e) { // e.g. the frontier's spill segments
                parseFailure.compareAndSet(null, e.getCause());
            } catch (RuntimeException e) { // a bug met on this page: it is recorded, the crawl goes on
                LOG.warn("parsing {} failed; recorded as an error, its links not followed", task.url(), e);
                recordParseBug(task, page, at, e);
            } catch (Error e) { // e.g. OutOfMemoryError: the crawl cannot go on safely
                fatal.compareAndSet(null, e);
            } finally {
                if (busy.decrementAndGet() == 0) {
                    politeness.wakeAll();
                }
            }
        });
    }

    private void recordParseBug(PendingUrl task, FetchResult.Page page, Optional<WarcLocation> at,
            RuntimeException bug) {
        try {
            done(task, PageRecords.parseBug(task, page, bug), at);
        } catch (IOException e) {
            parseFailure.compareAndSet(null, e);
        }
    }

    /**
     * Waits for the pages handed to the parse pool, then stops it.
     *
     * @throws IOException if writing a parsed page's record failed
     */
    void finishParsing() throws IOException {
        try {
            if (!parsers.finish(Duration.ofMinutes(1))) {
                LOG.warn("the parse threads did not end within a minute; the {} pages waiting for them are left"
                        + " unrecorded, to be fetched again on resume", parsers.abandon());
            }
        } catch (InterruptedException e) {
            parsers.abandon();
            Thread.currentThread().interrupt();
        }
        if (parseFailure.get() != null) {
            throw parseFailure.get();
        }
    }

    /**
     * Cancels the requests in flight and any made from now on (see {@link HttpFetcher#cancelCalls()}); their tasks
     * go back to the queue unrecorded. For a crawl that is ending and has waited for them long enough.
     */
    void cancelInFlight() {
        fetcher.cancelCalls();
    }

    /**
     * Records nothing more, from now on: a task still being fetched or parsed by a thread the crawl could not wait
     * for stays in flight, and so in the final checkpoint, written after this. Returns once a record being written
     * is written.
     */
    void seal() {
        gate.exclusive(() -> {
            sealed = true;
            return null;
        });
    }

    /**
     * The parse, link and record steps of an HTML page: parses it, archives its outlinks (with
     * {@code output.warc-metadata}), offers the links it may follow and records it.
     */
    private void parsePage(PendingUrl task, FetchResult.Page page, Optional<WarcLocation> at) throws IOException {
        ParsedPage parsed = pages.parse(page);
        if (at.isPresent() && settings.warcMetadata()) {
            output.archiveMetadata(task.url(), at.get(), PageReader.outlinks(parsed));
        }
        List<LinkDecision> decisions = pages.links(task, parsed);
        shared(() -> sieve.offerAll(accepted(decisions, task)));
        done(task, PageRecords.fetched(task, page, parsed, settings.maxPageBytes()), at);
    }

    /** The accepted links as URLs found on {@code from}, one batch for the Sieve; rejected ones are counted. */
    private List<PendingUrl> accepted(List<LinkDecision> decisions, PendingUrl from) {
        List<PendingUrl> urls = new ArrayList<>(decisions.size());
        for (LinkDecision decision : decisions) {
            if (decision instanceof LinkDecision.Accept accept) {
                urls.add(PendingUrl.link(accept.url(), from));
            } else {
                output.linkRejected(((LinkDecision.Reject) decision).reason().label());
            }
        }
        return urls;
    }

    private void handleRedirect(PendingUrl task, FetchResult.Redirect redirect, Optional<WarcLocation> at)
            throws IOException {
        RedirectTarget target = pages.redirect(task, redirect.location());
        if (target instanceof RedirectTarget.Unusable unusable) {
            done(task, PageRecords.unusableRedirect(task, redirect, unusable.detail()), at);
            return;
        }
        RedirectTarget.Resolved resolved = (RedirectTarget.Resolved) target;
        String to = resolved.url();
        int max = settings.maxRedirects();
        if (task.redirects() + 1 > max) {
            done(task, PageRecords.redirectChainTooLong(task, redirect, to, max), at);
            return;
        }
        // The target first, the redirect's own record last: that record ends the task (see done).
        if (resolved.scope() instanceof LinkDecision.Reject reject) {
            record(PageRecords.outOfScopeTarget(to, task, reject.detail()), null);
        } else {
            shared(() -> sieve.offer(PendingUrl.redirect(to, task)));
        }
        done(task, PageRecords.redirect(task, redirect, to), at);
    }

    /**
     * Writes {@code task}'s last record, with the place of its response in the archive if it was archived, and
     * ends it: after this, a checkpoint no longer holds it in flight.
     */
    private void done(PendingUrl task, PageRecord record, Optional<WarcLocation> at) throws IOException {
        record(at.map(place -> record.withWarc(place.file(), place.offset())).orElse(record), task);
    }

    /** Writes and counts a record; if {@code task} is not null, ends it in the same step. */
    private void record(PageRecord record, PendingUrl task) throws IOException {
        Lock lock = gate.shared();
        lock.lock();
        try {
            if (sealed) {
                return; // after the final checkpoint, which holds the task in flight
            }
            output.record(record);
            if (task != null) {
                inFlight.remove(task);
            }
        } finally {
            lock.unlock();
        }
        limitReached.test(output.decided());
    }
}
