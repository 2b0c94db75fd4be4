package org.sievecrawler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongPredicate;
import org.sievecrawler.fetch.FailureKind;
import org.sievecrawler.fetch.FetchResult;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.fetch.HttpFetcher;
import org.sievecrawler.fetch.RetryPolicy;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.frontier.LeaseSource;
import org.sievecrawler.frontier.Lease;
import org.sievecrawler.frontier.PageLease;
import org.sievecrawler.frontier.RobotsLease;
import org.sievecrawler.link.LinkDecision;
import org.sievecrawler.link.RedirectTarget;
import org.sievecrawler.link.RejectReason;
import org.sievecrawler.parse.ParsedPage;
import org.sievecrawler.politeness.HostKey;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.robots.RobotsRules;
import org.sievecrawler.robots.RobotsStep;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sitemap.SitemapContent;
import org.sievecrawler.sitemap.SitemapException;
import org.sievecrawler.sitemap.SitemapReader;
import org.sievecrawler.sink.CrawlSink;
import org.sievecrawler.sink.PageRecord;
import org.sievecrawler.sink.PageRecords;
import org.sievecrawler.warc.WarcLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a fetcher thread does with each URL the {@link Frontier} leases it. A page goes through these steps, listed in
 * {@link #handle}:
 *
 * <pre>
 *   checks (trap, unreachable host, robots.txt, host budget: {@link PageChecks}) -> fetch -> archive the exchange
 *     -> failure: retried ({@link RetryPolicy}) or recorded
 *     -> redirect: its target through the same link decision as links ({@link PageReader}), then recorded
 *     -> page: parsed on a parse thread, its links decided ({@link PageReader}) -> recorded with its links
 * </pre>
 *
 * Every end is one {@link PageRecord} (built by {@link PageRecords}) that closes the page's lease, with the links
 * to admit as one batch; a host's robots.txt has its own lease and steps ({@link #handleRobots}). Records, exchanges
 * and counts go to the {@link CrawlSink}.
 *
 * <p>A sitemap ({@link PendingUrl.Purpose#SITEMAP}: one robots.txt names, a seed host's {@code /sitemap.xml} with
 * {@code scope.sitemaps}, or one a sitemap index lists) is a page of a special kind: it has a page lease, so the
 * host's politeness delay and connection limit, robots.txt and traps apply as to any request, and it takes the host's
 * sitemap budget ({@code scope.max-sitemaps-per-host}) instead of its pages'. Its body is read up to
 * {@code scope.max-sitemap-bytes} whatever its Content-Type, and read in the fetcher thread ({@link #readSitemap}),
 * not parsed as HTML. So that sitemaps of that size cannot fill the heap, only so many are fetched and read at once
 * ({@link #sitemapsAtOnce}: one per 8 times {@code scope.max-sitemap-bytes} of heap, at least one); a fetcher with
 * another sitemap waits for a slot, holding its lease.
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
 * <p>The end of a crawl: a fetcher stops taking leases once {@code stopping} says so, or once the frontier is
 * exhausted, and finishes the one it holds. Requests still running when the crawl has waited long enough are
 * cancelled ({@link #cancelInFlight()}); a cancelled request is no failure of the server's: its lease is put back,
 * unrecorded, and the final checkpoint holds it for the resume. Threads are never interrupted: an interrupt reaches
 * a request only between two reads, and closes pages.jsonl's channel if it comes while a record is written.
 *
 * <p>Thread-safe: one instance serves every fetcher and parse thread; all its collaborators are thread-safe.
 */
final class FetchWorker {
    private static final Logger LOG = LoggerFactory.getLogger(FetchWorker.class);
    private static final Duration IDLE_WAIT = Duration.ofMillis(200);
    /** Fetched pages that may wait for a parse thread, per core, and their bytes at most (see {@link ParsePool}). */
    private static final int PARSE_BACKLOG_PAGES_PER_CORE = 32;
    private static final long PARSE_BACKLOG_BYTES = 32L << 20;
    /**
     * The share of the heap sitemaps may take while fetched and read, as a divisor: a sitemap costs up to about twice
     * its bytes at once (its body, and the copy made when the body is read in; its URLs are bounded by
     * {@link SitemapReader#MAX_URLS}), so {@code heap / (8 * scope.max-sitemap-bytes)} of them at once, at least one,
     * take at most a quarter of the heap: one at once under {@code -Xmx256m} at 50 MB, ten under {@code -Xmx4g}.
     */
    private static final int SITEMAP_HEAP_SHARE = 8;

    private final Settings settings;
    private final LeaseSource frontier;
    private final PageChecks checks;
    private final HttpFetcher fetcher;
    private final RobotsStep robots;
    private final RetryPolicy retries;
    private final PageReader pages;
    /** Records, the archive (nothing with WARC off: the fetcher then captures no exchange) and counters. */
    private final CrawlSink output;
    private final LongPredicate limitReached;
    private final AtomicLong pagesTaken;
    private final ParsePool parsers;
    private final SitemapReader sitemaps;
    /** Sitemaps being fetched and read now, at most {@link #sitemapsAtOnce}; the others wait for a slot. */
    private final Semaphore sitemapSlots;
    /** An Error a parse thread met; the fetchers pass it on, which ends the crawl. */
    private final AtomicReference<Error> fatal = new AtomicReference<>();
    private final AtomicReference<IOException> parseFailure = new AtomicReference<>();

    /** The profile's keys a fetcher reads, read once. */
    private record Settings(long maxPages, int maxRedirects, List<String> accept, long maxPageBytes,
            boolean warcMetadata, long maxSitemapBytes) {
        static Settings of(CrawlProfile profile) {
            return new Settings(profile.limits().maxPages(), profile.fetch().maxRedirects(), profile.fetch().accept(),
                    profile.limits().maxPageBytes(), profile.output().warcMetadata(),
                    profile.scope().maxSitemapBytes());
        }
    }

    /**
     * @param profile the crawl's profile, read here once: its limits, redirects, accepted types and retries, its
     *     traps ({@link PageChecks}) and robots.txt agent ({@link RobotsStep})
     * @param frontier where URLs are leased from and go back to, with their records and links
     * @param pages the parse and link steps of fetched HTML pages
     * @param output where records, exchanges and counts go
     * @param limitReached told the number of URLs decided after each record, and {@code limits.max-pages} when a
     *     fetcher stops taking leases for it
     */
    FetchWorker(CrawlProfile profile, LeaseSource frontier, HttpFetcher fetcher, PageReader pages, CrawlSink output,
            LongPredicate limitReached) {
        this.settings = Settings.of(profile);
        this.frontier = frontier;
        this.checks = new PageChecks(profile);
        this.fetcher = fetcher;
        this.robots = new RobotsStep(profile, fetcher);
        this.retries = RetryPolicy.of(profile);
        this.pages = pages;
        this.output = output;
        this.limitReached = limitReached;
        this.pagesTaken = new AtomicLong(output.decided()); // a resumed crawl's max-pages counts what it did before
        int cores = Runtime.getRuntime().availableProcessors();
        this.parsers = new ParsePool(cores, PARSE_BACKLOG_PAGES_PER_CORE * cores, PARSE_BACKLOG_BYTES);
        this.sitemaps = new SitemapReader(settings.maxSitemapBytes());
        this.sitemapSlots = new Semaphore(sitemapsAtOnce(Runtime.getRuntime().maxMemory(),
                settings.maxSitemapBytes()));
    }

    /** How many sitemaps are fetched and read at once in a heap of {@code maxHeap} bytes (see {@link #SITEMAP_HEAP_SHARE}). */
    static int sitemapsAtOnce(long maxHeap, long maxSitemapBytes) {
        return (int) Math.max(1, Math.min(1024, maxHeap / SITEMAP_HEAP_SHARE / maxSitemapBytes));
    }

    /**
     * Takes and handles leases until the frontier is exhausted or {@code stopping} says so.
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
            Lease lease;
            try {
                lease = frontier.next(IDLE_WAIT); // waits while fetch.threads leases are open
                if (lease == null) {
                    if (frontier.exhausted()) {
                        frontier.wakeAll(); // let the other fetchers see it too
                        return;
                    }
                    frontier.awaitWork(IDLE_WAIT);
                    continue;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                if (lease instanceof RobotsLease robots) {
                    handleRobots(robots);
                } else if (takePage((PageLease) lease)) {
                    handle((PageLease) lease);
                } else {
                    ((PageLease) lease).putBack();
                    return;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * Whether {@code limits.max-pages} lets the crawl start {@code lease}: the limit counts pages taken (a retry is
     * the same page again, not counted twice), so at most that many are started and at most that many recorded
     * (but for the out-of-scope targets of redirects, recorded without a lease).
     */
    private boolean takePage(PageLease lease) {
        long max = settings.maxPages();
        if (max > 0 && lease.task().attempt() == 0 && pagesTaken.incrementAndGet() > max) {
            limitReached.test(max);
            return false;
        }
        return true;
    }

    /**
     * The steps of one page, in order: checked ({@link PageChecks}: traps, unreachable hosts, robots.txt, the
     * host's budget), fetched, its exchange archived, and then, by what the fetch gave: a failure is retried or
     * recorded ({@link #handleFailure}), a redirect's target goes through the link decision
     * ({@link #handleRedirect}), an HTML page is parsed and its links decided on a parse thread
     * ({@link #parsePage}); every end is a record that closes the lease.
     */
    private void handle(PageLease lease) throws IOException {
        PendingUrl task = lease.task();
        Optional<PageRecord> refused = checks.refusal(task, lease.hostDown(), lease.robots());
        if (refused.isPresent()) { // no request was made, so the host's delay does not start
            lease.complete(refused.get());
            return;
        }
        if (!task.isSitemap()) {
            fetched(lease, fetcher.fetch(task.url()));
            return;
        }
        try {
            sitemapSlots.acquire(); // held from the request until its URLs are admitted: the body is garbage then
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            lease.putBack();
            return;
        }
        try {
            fetched(lease, fetcher.fetch(task.url(), settings.maxSitemapBytes()));
        } finally {
            sitemapSlots.release();
        }
    }

    /** The steps of {@link #handle} after the fetch. */
    private void fetched(PageLease lease, FetchResult result) throws IOException {
        PendingUrl task = lease.task();
        if (result instanceof FetchResult.Failure failure) {
            handleFailure(lease, failure);
            return;
        }
        lease.requestEnded();
        if (result instanceof FetchResult.Redirect redirect) {
            handleRedirect(lease, redirect, output.archive(redirect.exchange()));
            return;
        }
        FetchResult.Page page = (FetchResult.Page) result;
        Optional<WarcLocation> at = output.archive(page.exchange());
        if (page.status() >= 400) {
            done(lease, PageRecords.httpError(task, page), at, List.of());
        } else if (task.isSitemap()) {
            readSitemap(lease, page, at);
        } else if (!HttpFetcher.isParseable(page.contentType(), settings.accept())) {
            done(lease, PageRecords.notHtml(task, page), at, List.of());
        } else {
            parseLater(lease, page, at);
        }
    }

    /** A failed attempt: put back when the crawl cancelled it, else retried after a backoff, or recorded. */
    private void handleFailure(PageLease lease, FetchResult.Failure failure) throws IOException {
        if (failure.kind() == FailureKind.CANCELLED) { // the crawl is ending: fetched again on resume
            lease.putBack();
            return;
        }
        output.failedAttempt();
        PendingUrl task = lease.task();
        RetryPolicy.Decision next = retries.afterFailure(task.attempt(), failure.kind(), failure.retryAfter());
        if (next instanceof RetryPolicy.Retry retry) {
            output.retried();
            output.archive(failure.exchange());
            lease.retry(retry.backoff());
            return;
        }
        if (failure.kind().unreachable()) {
            lease.hostUnreachable(failure.kind().unreachableReason(failure.detail()));
        } else {
            lease.requestEnded();
        }
        done(lease, PageRecords.failure(task, failure, ((RetryPolicy.GiveUp) next).because()),
                output.archive(failure.exchange()), List.of());
    }

    /**
     * The robots.txt step ({@link RobotsStep}: fetched, then retried, its host unreachable, or read into rules), and
     * what its outcome does: closes the lease (with the sitemaps the rules name), counts, and archives the exchanges.
     */
    private void handleRobots(RobotsLease lease) throws IOException {
        RobotsStep.Outcome outcome = robots.take(lease.url(), lease.attempt());
        if (outcome instanceof RobotsStep.PutBack) { // the crawl is ending; a resume fetches robots.txt anew
            lease.putBack();
            return;
        }
        if (outcome.response().failedAttempt()) {
            output.failedAttempt();
        }
        if (outcome instanceof RobotsStep.Retry retry) {
            output.retried();
            lease.retry(retry.backoff());
        } else if (outcome instanceof RobotsStep.HostUnreachable down) {
            lease.hostUnreachable(down.reason());
        } else {
            RobotsRules rules = ((RobotsStep.Read) outcome).rules();
            lease.rules(rules, namedSitemaps(lease.url(), rules.sitemaps()));
        }
        for (HttpExchange exchange : outcome.response().exchanges()) {
            output.archive(exchange);
        }
    }

    /**
     * The sitemaps a host's robots.txt (at {@code robotsUrl}) names, as sitemap tasks at depth 0 with robots.txt as
     * their referrer: those the scope accepts and that are on the host itself (a robots.txt naming another host's
     * sitemaps is not followed there: that host's own robots.txt speaks for it); the others are counted as
     * rejected links.
     */
    private List<PendingUrl> namedSitemaps(String robotsUrl, List<String> named) {
        if (named.isEmpty()) {
            return List.of();
        }
        String host = HostKey.of(robotsUrl);
        List<PendingUrl> tasks = new ArrayList<>(named.size());
        for (PendingUrl sitemap : accepted(pages.listed(robotsUrl, named, 0),
                url -> PendingUrl.sitemap(url, 0, robotsUrl))) {
            if (HostKey.of(sitemap.url()).equals(host)) {
                tasks.add(sitemap);
            } else {
                output.linkRejected(RejectReason.SITEMAP_OF_OTHER_HOST.label());
            }
        }
        return tasks;
    }

    /**
     * The read step of a sitemap (a 2xx or 3xx-without-Location answer), in the fetcher thread: its URLs (pages one
     * level deeper, or an index's sitemaps at its own depth) go through the same scope and Sieve as links, and it is
     * recorded with outcome {@code sitemap} and the number of URLs it lists; one cut at
     * {@code scope.max-sitemap-bytes} or in no sitemap format is recorded as an error, none of its URLs followed.
     */
    private void readSitemap(PageLease lease, FetchResult.Page page, Optional<WarcLocation> at) throws IOException {
        PendingUrl task = lease.task();
        SitemapContent content;
        try {
            content = sitemaps.read(task.url(), page.body(), page.length(), page.truncated());
        } catch (SitemapException e) {
            LOG.info("{}", e.getMessage());
            done(lease, PageRecords.unreadableSitemap(task, page, e.getMessage()), at, List.of());
            return;
        }
        if (content.cut()) {
            LOG.info("sitemap {} lists {} URLs, more than the {} a sitemap may list: the first {} are read", task.url(),
                    content.listed(), SitemapReader.MAX_URLS, content.found());
        }
        List<PendingUrl> found = accepted(pages.listed(task.url(), content.pages(), task.depth() + 1),
                url -> PendingUrl.link(url, task));
        found.addAll(accepted(pages.listed(task.url(), content.sitemaps(), task.depth()),
                url -> PendingUrl.sitemap(url, task.depth(), task.url())));
        done(lease, PageRecords.sitemap(task, page, content.found(), content.listed()), at, found);
    }

    /** Hands the page to the parse pool; its lease stays open (the crawl is not out of work) until it is recorded. */
    private void parseLater(PageLease lease, FetchResult.Page page, Optional<WarcLocation> at) {
        parsers.submit(page.length(), () -> {
            try {
                parsePage(lease, page, at);
            } catch (IOException e) {
                parseFailure.compareAndSet(null, e);
            } catch (UncheckedIOException e) { // e.g. the frontier's spill or journal segments
                parseFailure.compareAndSet(null, e.getCause());
            } catch (RuntimeException e) { // a bug met on this page: it is recorded, the crawl goes on
                LOG.warn("parsing {} failed; recorded as an error, its links not followed", lease.url(), e);
                recordParseBug(lease, page, at, e);
            } catch (Error e) { // e.g. OutOfMemoryError: the crawl cannot go on safely
                fatal.compareAndSet(null, e);
            }
        });
    }

    private void recordParseBug(PageLease lease, FetchResult.Page page, Optional<WarcLocation> at,
            RuntimeException bug) {
        try {
            if (!lease.isClosed()) {
                done(lease, PageRecords.parseBug(lease.task(), page, bug), at, List.of());
            }
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
     * Cancels the requests in flight and any made from now on (see {@link HttpFetcher#cancelCalls()}); their leases
     * are put back unrecorded. For a crawl that is ending and has waited for them long enough.
     */
    void cancelInFlight() {
        fetcher.cancelCalls();
    }

    /**
     * The parse, link and record steps of an HTML page: parses it, archives its outlinks (with
     * {@code output.warc-metadata}), and records it with the links it may follow.
     */
    private void parsePage(PageLease lease, FetchResult.Page page, Optional<WarcLocation> at) throws IOException {
        PendingUrl task = lease.task();
        ParsedPage parsed = pages.parse(page);
        if (at.isPresent() && settings.warcMetadata()) {
            output.archiveMetadata(task.url(), at.get(), PageReader.outlinks(parsed));
        }
        List<PendingUrl> links = accepted(pages.links(task, parsed), url -> PendingUrl.link(url, task));
        done(lease, PageRecords.fetched(task, page, parsed, settings.maxPageBytes()), at, links);
    }

    /** The accepted links as URLs found on {@code from}, one batch for the frontier; rejected ones are counted. */
    private List<PendingUrl> accepted(List<LinkDecision> decisions, Function<String, PendingUrl> task) {
        List<PendingUrl> urls = new ArrayList<>(decisions.size());
        for (LinkDecision decision : decisions) {
            if (decision instanceof LinkDecision.Accept accept) {
                urls.add(task.apply(accept.url()));
            } else {
                output.linkRejected(((LinkDecision.Reject) decision).reason().label());
            }
        }
        return urls;
    }

    private void handleRedirect(PageLease lease, FetchResult.Redirect redirect, Optional<WarcLocation> at)
            throws IOException {
        PendingUrl task = lease.task();
        RedirectTarget target = pages.redirect(task, redirect.location());
        if (target instanceof RedirectTarget.Unusable unusable) {
            done(lease, PageRecords.unusableRedirect(task, redirect, unusable.detail()), at, List.of());
            return;
        }
        RedirectTarget.Resolved resolved = (RedirectTarget.Resolved) target;
        String to = resolved.url();
        int max = settings.maxRedirects();
        if (task.redirects() + 1 > max) {
            done(lease, PageRecords.redirectChainTooLong(task, redirect, to, max), at, List.of());
            return;
        }
        PageRecord record = withWarc(PageRecords.redirect(task, redirect, to), at);
        if (resolved.scope() instanceof LinkDecision.Reject reject) {
            lease.completeWithTarget(PageRecords.outOfScopeTarget(to, task, reject.detail()), record);
        } else {
            lease.complete(record, List.of(PendingUrl.redirect(to, task)));
        }
        limitReached.test(output.decided());
    }

    /**
     * Closes {@code lease} with its last record (with the place of its response in the archive if it was archived)
     * and the links to admit.
     */
    private void done(PageLease lease, PageRecord record, Optional<WarcLocation> at, List<PendingUrl> links)
            throws IOException {
        lease.complete(withWarc(record, at), links);
        limitReached.test(output.decided());
    }

    private static PageRecord withWarc(PageRecord record, Optional<WarcLocation> at) {
        return at.map(place -> record.withWarc(place.file(), place.offset())).orElse(record);
    }
}
