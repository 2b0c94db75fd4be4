package org.sievecrawler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.sievecrawler.audit.Audit;
import org.sievecrawler.checkpoint.CheckpointException;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.checkpoint.CrawlLock;
import org.sievecrawler.fetch.HttpFetcher;
import org.sievecrawler.fetch.SocketBudget;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.history.EarlierCrawl;
import org.sievecrawler.frontier.FrontierGroup;
import org.sievecrawler.frontier.LeaseSource;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.input.Folders;
import org.sievecrawler.learn.Learner;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.learn.LearnedRules;
import org.sievecrawler.learn.RulesFile;
import org.sievecrawler.link.LinkResolver;
import org.sievecrawler.link.LinkScope;
import org.sievecrawler.link.RejectReason;
import org.sievecrawler.link.SeedHosts;
import org.sievecrawler.link.Seeds;
import org.sievecrawler.link.UrlNormalizer;
import org.sievecrawler.parse.PageParser;
import org.sievecrawler.pipeline.FetchWorker;
import org.sievecrawler.pipeline.FetcherThreads;
import org.sievecrawler.pipeline.PageSteps;
import org.sievecrawler.pipeline.RobotsSteps;
import org.sievecrawler.politeness.AddressClocks;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.progress.Canonicalized;
import org.sievecrawler.progress.CrawlStats;
import org.sievecrawler.progress.CrawlSummary;
import org.sievecrawler.progress.ProgressLine;
import org.sievecrawler.progress.ProgressLog;
import org.sievecrawler.progress.ProgressReporter;
import org.sievecrawler.report.CrawlReport;
import org.sievecrawler.robots.RobotsCache;
import org.sievecrawler.seed.SeedFeed;
import org.sievecrawler.shell.Program;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.graph.LinkGraph;
import org.sievecrawler.graph.LinksFile;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.warc.Archive;
import org.sievecrawler.warc.WarcArchive;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetch side of a crawl whose frontiers are owned elsewhere, such as a {@link FrontierGroup}'s: the
 * same fetcher threads and per-page pipeline as a single-node {@link Crawler} (checks, fetch, archive, parse,
 * links, record), taking leases from any {@link LeaseSource}, with its output in one folder: pages.jsonl (appended
 * to, so a process started again goes on with its file), WARC files, rules.jsonl (the rules learned,
 * {@link RulesFile}), and a progress line every
 * {@code progress.interval} (also appended to progress.jsonl). The folder is locked while this is open, so two
 * processes never share it.
 *
 * <pre>
 *   LeaseSource --lease--> FetchWorker --> PageSteps: checks -> fetch -> archive -> parse -> links -> record
 *                                      --> lease closed --> Frontier --> recorder(): pages.jsonl, counters
 * </pre>
 *
 * <p>A single-node {@link Crawler} runs its one frontier on it too: it opens it in a folder it already holds
 * ({@link #open(CrawlProfile, Clock, Setup)}) and runs it with {@link #run(Frontier, Instant)}.
 *
 * <p>Thread-safe: {@link #stop()} and {@link #halt()} from any thread while {@link #run} runs on another. Runs
 * once. Out of scope: where leases come from and where links go (the source's frontiers), checkpoints, the
 * summary.
 */
public final class Fetching implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Fetching.class);
    private final CrawlProfile profile;
    private final Clock clock;
    private final Path out;
    /** How a user goes on after the JVM ran out of memory ({@link Setup#goOn()}). */
    private final String goOn;
    private final CrawlLock lock;
    private final HttpFetcher fetcher;
    private final JsonlSink pages;
    private final Archive archive;
    private final FolderSink output;
    private final CrawlStats stats;
    private final PageParser parser = new PageParser();
    private final LinkResolver links;
    private final FetcherThreads fetchers;
    /** The earlier crawl of a recrawl, or null. */
    private final EarlierCrawl earlier;
    /** rules.jsonl and the log: where the learner tells the rules it learns and undoes. */
    private final RulesFile rules;
    /** What the crawl learns from its pages ({@code scope.learn-duplicates}): duplicate rules, applied to its URLs. */
    private final Learner learner;
    /** The progress line now while {@link #run} runs, else empty; for a live display. */
    private volatile Supplier<Optional<ProgressLine>> live = Optional::empty;

    /**
     * What a progress line says of the frontier, read when the line is written: with {@code badRecords} when the
     * frontier is fed by records others write ({@link FrontierGroup}), the records it refused as bad.
     */
    public record Gauges(long queued, long seen, double falsePositiveRate, int hosts, OptionalLong badRecords) {
        public Gauges {
            Objects.requireNonNull(badRecords, "badRecords");
        }

        /** The gauges of a frontier that reads no records (a single-node crawl's). */
        public Gauges(long queued, long seen, double falsePositiveRate, int hosts) {
            this(queued, seen, falsePositiveRate, hosts, OptionalLong.empty());
        }
    }

    /**
     * What the fetch side of a crawl starts from in a folder its caller holds.
     *
     * @param lock the folder's lock, held: closed with the {@link Fetching}, or at once if it cannot be opened
     * @param seeds the seeds' hosts and origins: the scope's seed hosts and the origins the fetcher may reach on a
     *     private address (still being filled while a seed file is read)
     * @param stats the crawl's counters (a resumed crawl's as it left them), counted on by the records
     * @param stopGrace how long the requests in flight at the end may go on before they are cancelled
     * @param goOn how a user goes on after the JVM ran out of memory, the end of that failure's message: the
     *     command that resumes a single-node crawl, or how its caller's process goes on
     * @param earlier the earlier crawl of a recrawl ({@code crawl --since}), closed with the {@link Fetching}; null
     *     for none
     */
    record Setup(CrawlLock lock, SeedHosts seeds, CrawlStats stats, Duration stopGrace, String goOn,
            EarlierCrawl earlier) {
        Setup(CrawlLock lock, SeedHosts seeds, CrawlStats stats, Duration stopGrace, String goOn) {
            this(lock, seeds, stats, stopGrace, goOn, null);
        }
    }

    private Fetching(CrawlProfile profile, Clock clock, Setup setup, HttpFetcher fetcher, JsonlSink pages,
            Archive archive, LinkGraph graph) {
        this.profile = profile;
        this.clock = clock;
        this.out = profile.output().dir();
        this.lock = setup.lock();
        this.fetcher = fetcher;
        this.pages = pages;
        this.archive = archive;
        this.stats = setup.stats();
        this.output = new FolderSink(pages, archive, stats, graph);
        this.links = new LinkResolver(new UrlNormalizer(profile.scope().ignoreParams()),
                new LinkScope(profile.scope(), setup.seeds(), profile.fetch().allowPrivateAddresses()));
        this.fetchers = new FetcherThreads(profile.fetch().threads(), profile.limits().maxPages(),
                profile.limits().maxDuration(), setup.stopGrace());
        this.goOn = setup.goOn();
        this.earlier = setup.earlier();
        this.rules = new RulesFile(out.resolve(RulesFile.FILE), clock);
        this.learner = profile.scope().learnDuplicates() ? Learner.learning(rules) : Learner.off();
        restoreRules();
    }

    /**
     * Puts back the rules an earlier run in this folder learned and undid (a resume, a cluster process started
     * again): read from its rules.jsonl, without logging or writing them again. A file that cannot be read is
     * passed over with a warning: the crawl learns its rules afresh.
     */
    private void restoreRules() {
        if (!learner.learns()) {
            return;
        }
        try {
            RulesFile.Read read = RulesFile.read(rules.path());
            for (RulesFile.Entry entry : read.entries()) {
                learner.restore(entry.rule(), entry.undone());
            }
            if (!read.entries().isEmpty() || read.skipped() > 0) {
                LOG.info("{} rules learned by an earlier run put back from {} ({} in force){}", read.entries().stream()
                        .filter(e -> !e.undone()).count(), rules.path(), read.inForce().size(), read.skipped() == 0
                        ? "" : "; " + read.skipped() + " lines that are no rule passed over");
            }
        } catch (IOException e) {
            LOG.warn("the rules of an earlier run in {} cannot be read ({}); the crawl learns them again",
                    rules.path(), FileErrors.reason(rules.path(), e));
        }
    }

    /** What the crawl learned from its pages, and what each rule did. */
    Learner learner() {
        return learner;
    }

    /**
     * Opens the output in {@code profile.output().dir()} (created if need be, locked) and the HTTP client. The
     * profile's seeds, if any, set the scope's seed hosts, as in a single-node crawl. {@code goOn} ends the message
     * of a failure for want of memory: how the user goes on (e.g. starts the process again).
     *
     * @throws CrawlException naming the folder when it cannot be created, written or locked (refused when another
     *     process holds it)
     */
    public static Fetching open(CrawlProfile profile, Clock clock, String goOn) throws CrawlException {
        Path out = profile.output().dir();
        SeedHosts seeds = SeedHosts.of(
                Seeds.normalize(profile.seeds(), new UrlNormalizer(profile.scope().ignoreParams())).urls());
        try {
            Folders.make(out);
            CrawlLock lock = CrawlLock.acquire(out);
            return open(profile, clock, new Setup(lock, seeds, new CrawlStats(), FetcherThreads.STOP_GRACE, goOn));
        } catch (CheckpointException e) {
            throw CrawlException.refused(e.getMessage(), e);
        } catch (InputFileException e) {
            throw CrawlException.refused("output.dir " + e.getMessage(), e);
        } catch (IOException e) {
            throw new CrawlException("the output in " + out + " cannot be opened: " + FileErrors.reason(out, e), e);
        } catch (UncheckedIOException e) {
            throw new CrawlException("the output in " + out + " cannot be opened: " + FileErrors.reason(out,
                    e.getCause()), e);
        }
    }

    /**
     * Opens the HTTP client, pages.jsonl (appended to) and the WARC output in {@code profile.output().dir()},
     * which the caller holds with {@code setup.lock()}: closed with this, or at once when something cannot be
     * opened (as is what was opened before it).
     *
     * @throws IOException when pages.jsonl or the WARC output cannot be opened
     */
    static Fetching open(CrawlProfile profile, Clock clock, Setup setup) throws IOException {
        List<AutoCloseable> opened = new ArrayList<>(List.of(setup.lock()));
        if (setup.earlier() != null) {
            opened.add(setup.earlier());
        }
        try {
            boolean warc = profile.output().warc();
            HttpFetcher fetcher = keep(opened, new HttpFetcher(profile.fetch(), profile.limits(),
                    new HttpFetcher.Settings(setup.seeds(), clock, warc,
                            SocketBudget.of(profile.fetch(), profile.politeness()), System.getenv())));
            JsonlSink pages = keep(opened, JsonlSink.open(profile.output().dir().resolve(CrawlFolder.PAGES)));
            Archive archive = warc ? WarcArchive.open(profile, clock) : Archive.NONE;
            LinkGraph graph = profile.output().links()
                    ? keep(opened, LinksFile.open(profile.output().dir())) : LinkGraph.NONE;
            return new Fetching(profile, clock, setup, fetcher, pages, archive, graph);
        } catch (IOException | RuntimeException e) {
            closeAll(opened, e);
            throw e;
        }
    }

    /** The sockets the crawl's HTTP client may hold open. */
    public SocketBudget sockets() {
        return fetcher.sockets();
    }

    /**
     * Where the records of completed pages go, the one writer of records: pages.jsonl and the counters; synced for a
     * checkpoint. The frontier calls it when a lease closes; the steps have no other way to write a record.
     */
    public Frontier.Recorder recorder() {
        return output.recorder();
    }

    /** The live counters. */
    public CrawlStats stats() {
        return stats;
    }

    /** The length of pages.jsonl now: its whole lines, for a checkpoint. */
    long pagesLength() throws IOException {
        return pages.length();
    }

    /** The WARC files written so far (none with {@code output.warc} off). */
    List<Path> warcFiles() {
        return archive.files();
    }

    /** What the parser did so far: pages scanned, pages it fell back on jsoup for, and why. */
    CrawlSummary.Parsing parsing() {
        return new CrawlSummary.Parsing(parser.scannedPages(), parser.fallbackPages(), parser.fallbackReasons());
    }

    /** Connections the HTTP client found stale and made again. */
    long reconnects() {
        return fetcher.reconnects();
    }

    /** The addresses of host names through the HTTP client's DNS cache, for {@code politeness.per: ip}. */
    public AddressClocks.Resolver addresses() {
        return fetcher.dns()::address;
    }

    /** What the HTTP client's DNS cache did. */
    CrawlSummary.Dns dns() {
        var counts = fetcher.dns().counts();
        return new CrawlSummary.Dns(counts.lookups(), counts.hits(), counts.negativeHits(), counts.failures());
    }

    /** Times a request waited for file descriptors ({@link HttpFetcher#descriptorWaits()}). */
    long descriptorWaits() {
        return fetcher.descriptorWaits();
    }

    /**
     * Runs {@code fetch.threads} fetchers on {@code source} until {@link #stop()}, a limit, or a failure, with a
     * progress line every {@code progress.interval} ({@code gauges} read for each); returns why it ended
     * ("stopped", "max-pages", "max-duration", "failed", or "finished" if the source was exhausted).
     *
     * @throws CrawlException when a fetcher failed (the output, a bug, the JVM out of memory)
     */
    public String run(LeaseSource source, Supplier<Gauges> gauges) throws CrawlException {
        return run(source, gauges, clock.instant(), () -> { }, Optional.empty());
    }

    /**
     * As {@link #run(LeaseSource, Supplier)}, for a source that waits for work from elsewhere (frontiers fed from
     * outside): once a progress line finds nothing fetched since the last, nothing queued and nothing in flight,
     * it is followed by {@code idleNote}, and no line is written until work comes ({@link ProgressReporter}).
     */
    public String run(LeaseSource source, Supplier<Gauges> gauges, String idleNote) throws CrawlException {
        return run(source, gauges, clock.instant(), () -> { }, Optional.of(idleNote));
    }

    /**
     * {@link #run(LeaseSource, Supplier)} on a single-node crawl's one {@code frontier}, which gives the gauges, fed
     * by {@code seeds} (the crawl is out of work only once they were all offered); once the fetchers and parse
     * threads end, the feed is stopped and the frontier sealed, before the last progress line (a thread left behind
     * records nothing after the final checkpoint). The progress line's elapsed time and average count from
     * {@code startedAt}, when the crawl started.
     */
    String run(Frontier frontier, SeedFeed seeds, Instant startedAt) throws CrawlException {
        return run(seeds.feeding(frontier), () -> new Gauges(frontier.size(), Math.round(frontier.estimatedSeen()),
                frontier.falsePositiveRate(), frontier.hostCount()), startedAt, () -> {
                    seeds.close();
                    frontier.seal();
                }, Optional.empty());
    }

    private String run(LeaseSource source, Supplier<Gauges> gauges, Instant startedAt, Runnable fetchersEnded,
            Optional<String> idleNote) throws CrawlException {
        PageSteps pageSteps = new PageSteps(profile, fetcher, parser, links, output, fetchers::limitReached,
                earlier, learner);
        FetchWorker worker = new FetchWorker(source, pageSteps, new RobotsSteps(profile, fetcher, links, output),
                profile.limits().maxPages(), stats.decided(), fetchers::limitReached);
        long fetchedBefore = stats.fetched(); // a resumed crawl's earlier runs: not this run's average
        AtomicReference<Instant> previousLine = new AtomicReference<>(startedAt);
        // a line as of the start, with no state of the logged lines: its rate is over this run, as avg
        live = () -> Optional.of(line(gauges.get(), source, startedAt, fetchedBefore,
                new AtomicReference<>(startedAt), fetchedBefore));
        try (ProgressLog progressLog = ProgressLog.append(out.resolve(CrawlFolder.PROGRESS), clock);
                ProgressReporter progress = new ProgressReporter(profile.progress().interval(), fetchedBefore,
                        previous -> line(gauges.get(), source, startedAt, fetchedBefore, previousLine, previous),
                        progressLog, idleNote)) {
            try {
                fetchers.run(worker, source);
            } finally {
                live = Optional::empty;
                worker.finishParsing(); // every thread the fetchers started ends with them
                fetchersEnded.run();
            }
            ProgressReporter.LOG.info(progress.next().toString());
            fetchers.rethrowFailure(goOn);
        } catch (IOException e) {
            throw new CrawlException("the crawl's output in " + out + " failed: " + e.getMessage(), e);
        }
        return fetchers.reason();
    }

    /**
     * The progress line now, while {@link #run} runs (empty before the fetchers start and once they ended), for a
     * live display: like a logged line, but its {@code rate} is over this run, as {@code avg} (the logged lines'
     * interval is theirs alone). Reads the gauges each call; thread-safe.
     */
    Optional<ProgressLine> progressNow() {
        return live.get();
    }

    /** Asks the fetchers to stop: no new lease is taken, requests in flight get the grace period. */
    public void stop() {
        fetchers.stop();
    }

    /**
     * Ends the output at once, for a process about to exit without waiting: {@link #stop()}, then pages.jsonl is
     * flushed and closed, so it holds whole lines only and no other is added. Returns once the file is closed.
     *
     * @throws IOException when pages.jsonl could not be flushed
     */
    void halt() throws IOException {
        stop();
        pages.close(); // waits for a line being appended; later appends fail, the process ends anyway
        closeLinks();
    }

    /**
     * Ends the link graph (links.tsv.zst, with {@code output.links}): its last compressed block is written, so the
     * audit reads every edge. For when no page is fetched or parsed any more ({@link #run} returned); closing again
     * does nothing.
     */
    void closeLinks() throws IOException {
        if (output.graph() instanceof LinksFile links) {
            links.close();
        }
    }

    /**
     * What the summary says of the frontier the fetchers took leases from (or, for a cluster process, of the
     * frontiers of the partitions it owned at its end).
     */
    public record FrontierFigures(double seen, double falsePositiveRate, long pending,
            Map<String, String> unreachableHosts, RobotsCache.Counts robots) {
        public FrontierFigures {
            unreachableHosts = Map.copyOf(unreachableHosts);
        }

        /**
         * The figures of {@code frontiers} now: seen, pending, unreachable hosts and robots.txt counts summed (each
         * host is in one frontier), the highest false-positive rate; of none, all zero.
         */
        public static FrontierFigures of(Collection<Frontier> frontiers) {
            double seen = 0;
            double rate = 0;
            long pending = 0;
            Map<String, String> unreachable = new TreeMap<>();
            RobotsCache.Counts robots = RobotsCache.Counts.NONE;
            for (Frontier frontier : frontiers) {
                seen += frontier.estimatedSeen();
                rate = Math.max(rate, frontier.falsePositiveRate());
                pending += frontier.size();
                unreachable.putAll(frontier.unreachableHosts());
                robots = robots.plus(frontier.robotsCounts());
            }
            return new FrontierFigures(seen, rate, pending, unreachable, robots);
        }
    }

    /**
     * The crawl's summary now: its counters, the fetcher's and parser's figures, the rules learned ({@code learned},
     * with {@code scope.learn-duplicates}) and {@code frontier}'s figures, for a run
     * that started at {@code startedAt} and ended for {@code reason}, its average over the responses after
     * {@code fetchedBefore} (a resumed crawl's earlier runs excluded).
     */
    public CrawlSummary summary(Instant startedAt, String reason, long fetchedBefore, FrontierFigures frontier) {
        return new CrawlSummary(startedAt, Duration.between(startedAt, clock.instant()), reason, stats.decided(),
                stats.fetched(), stats.fetched() - fetchedBefore, stats.bytes(), stats.outcomes(), stats.statuses(),
                stats.linkRejections(), profile.sieve().expectedUrls(), frontier.seen(),
                frontier.falsePositiveRate(), frontier.pending(), parsing(), stats.failedAttempts(), stats.retries(),
                reconnects(), descriptorWaits(), dns(), frontier.unreachableHosts(), stats.sitemapUrls(),
                frontier.robots()).with(Optional.of(new Canonicalized(stats.paramsIgnoredCount())))
                .with(learner.learns() ? Optional.of(LearnedRules.of(learner)) : Optional.empty());
    }

    /**
     * Writes {@code summary} to summary.json, then audit.json and report.html (views of the crawl's files: when they
     * cannot be written the crawl is not failed for it; a warning gives the command that writes them again, started
     * by {@code program}), and logs the summary's final line. For when nothing is recorded any more.
     *
     * @throws IOException if summary.json could not be written
     */
    public void writeSummary(CrawlSummary summary, Program program) throws IOException {
        summary.writeTo(out.resolve(CrawlFolder.SUMMARY));
        try {
            LOG.info("audit: {}", Audit.write(out, Audit.sections(out)));
            LOG.info("report: {}", CrawlReport.write(out));
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("the crawl's report could not be written: {}; to try again: {}", e.getMessage(),
                    program.command("report", out.toString()));
        }
        ProgressReporter.LOG.info(summary.line());
    }

    /**
     * Closes the HTTP client, pages.jsonl, the WARC files, the earlier crawl's records, rules.jsonl and the folder's
     * lock.
     */
    @Override
    public void close() throws IOException {
        try (CrawlLock held = lock; JsonlSink file = pages; Archive warc = archive; HttpFetcher client = fetcher;
                LinksFile links = output.graph() instanceof LinksFile f ? f : null; EarlierCrawl history = earlier;
                RulesFile learned = rules) {
            // closed in reverse order
        }
    }

    /**
     * The progress line now: {@code rate} over the time since the previous line (the last line's interval may be
     * short), {@code avg} over this run's responses and time, {@code fetched} the crawl's total.
     */
    private ProgressLine line(Gauges gauges, LeaseSource source, Instant startedAt, long fetchedBefore,
            AtomicReference<Instant> previousLine, long previousFetched) {
        long fetched = stats.fetched();
        Instant now = clock.instant();
        double elapsed = Math.max(0.001, Duration.between(startedAt, now).toMillis() / 1000.0);
        double interval = Math.max(0.001, Duration.between(previousLine.getAndSet(now), now).toMillis() / 1000.0);
        return new ProgressLine(fetched, (fetched - previousFetched) / interval, (fetched - fetchedBefore) / elapsed,
                gauges.queued(), gauges.seen(), gauges.falsePositiveRate(), parser.fallbackShare(), gauges.hosts(),
                source.requestsInFlight(), profile.fetch().threads(), stats.failedAttempts(), stats.retries(),
                stats.count(Outcome.ROBOTS_DISALLOWED), stats.bytes(), Math.round(elapsed), gauges.badRecords(),
                stats.linkRejections().getOrDefault(RejectReason.OVER_HOST_BUDGET.label(), 0L));
    }

    private static <T extends AutoCloseable> T keep(List<AutoCloseable> opened, T resource) {
        opened.add(resource);
        return resource;
    }

    /** Closes what was opened before {@code failure}, the last first; what closing throws is added to it. */
    private static void closeAll(List<AutoCloseable> opened, Exception failure) {
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception e) {
                failure.addSuppressed(e);
            }
        }
    }
}
