package org.sievecrawler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.sievecrawler.checkpoint.CheckpointException;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.checkpoint.CrawlLock;
import org.sievecrawler.fetch.HttpFetcher;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.frontier.LeaseSource;
import org.sievecrawler.link.LinkResolver;
import org.sievecrawler.link.LinkScope;
import org.sievecrawler.link.Seeds;
import org.sievecrawler.link.UrlNormalizer;
import org.sievecrawler.parse.PageParser;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.progress.CrawlStats;
import org.sievecrawler.progress.ProgressLine;
import org.sievecrawler.progress.ProgressReporter;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.warc.Archive;
import org.sievecrawler.warc.WarcArchive;

/**
 * The fetch side of a crawl whose frontier is owned elsewhere, such as the partitions of a cluster process: the
 * same fetcher threads and per-page pipeline as a single-node {@link Crawler} (checks, fetch, archive, parse,
 * links, record), taking leases from any {@link LeaseSource}, with its output in one folder: pages.jsonl (appended
 * to, so a process started again goes on with its file), WARC files, and a progress line every
 * {@code progress.interval}. The folder is locked while this is open, so two processes never share it.
 *
 * <pre>
 *   LeaseSource --lease--> FetchWorker: checks -> fetch -> archive -> parse -> links -> record --> lease closed
 * </pre>
 *
 * <p>Thread-safe: {@link #stop()} from any thread while {@link #run} runs on another. Runs once. Out of scope:
 * where leases come from and where links go (the source's frontiers), checkpoints, the summary.
 */
public final class Fetching implements AutoCloseable {
    private final CrawlProfile profile;
    private final Clock clock;
    private final Path out;
    private final CrawlLock lock;
    private final HttpFetcher fetcher;
    private final JsonlSink pages;
    private final Archive archive;
    private final FolderSink output;
    private final CrawlStats stats = new CrawlStats();
    private final PageParser parser = new PageParser();
    private final LinkResolver links;
    private final FetcherThreads fetchers;

    /** What a progress line says of the frontier, read when the line is written. */
    public record Gauges(long queued, long seen, double falsePositiveRate, int hosts) {
    }

    private Fetching(CrawlProfile profile, Clock clock, Path out, CrawlLock lock, HttpFetcher fetcher,
            JsonlSink pages, Archive archive, LinkResolver links) {
        this.profile = profile;
        this.clock = clock;
        this.out = out;
        this.lock = lock;
        this.fetcher = fetcher;
        this.pages = pages;
        this.archive = archive;
        this.output = new FolderSink(pages, archive, stats);
        this.links = links;
        this.fetchers = new FetcherThreads(profile.fetch().threads(), profile.limits().maxPages(),
                profile.limits().maxDuration(), Crawler.STOP_GRACE);
    }

    /**
     * Opens the output in {@code profile.output().dir()} (created if need be, locked) and the HTTP client. The
     * profile's seeds, if any, set the scope's seed hosts, as in a single-node crawl.
     *
     * @throws CrawlException naming the folder when it cannot be created, written or locked (refused when another
     *     process holds it)
     */
    public static Fetching open(CrawlProfile profile, Clock clock) throws CrawlException {
        Path out = profile.output().dir();
        CrawlLock lock = null;
        try {
            Files.createDirectories(out);
            lock = CrawlLock.acquire(out);
            UrlNormalizer normalizer = new UrlNormalizer();
            Seeds seeds = Seeds.normalize(profile.seeds(), normalizer);
            LinkResolver links = new LinkResolver(normalizer,
                    new LinkScope(profile.scope(), seeds.urls(), profile.fetch().allowPrivateAddresses()));
            boolean warc = profile.output().warc();
            HttpFetcher fetcher = new HttpFetcher(profile.fetch(), profile.limits(), seeds.origins(), clock, warc,
                    HttpFetcher.idleConnections(profile.fetch(), profile.politeness()));
            JsonlSink pages = JsonlSink.open(out.resolve(CrawlFolder.PAGES));
            Archive archive = warc ? WarcArchive.open(profile, clock) : Archive.NONE;
            return new Fetching(profile, clock, out, lock, fetcher, pages, archive, links);
        } catch (CheckpointException e) {
            throw CrawlException.refused(e.getMessage(), e);
        } catch (IOException | UncheckedIOException e) {
            closeQuietly(lock);
            throw new CrawlException("the output in " + out + " cannot be opened: " + e.getMessage(), e);
        }
    }

    /** Where the records of completed pages go: pages.jsonl and the counters. */
    public Frontier.Recorder recorder() {
        return output::record;
    }

    /** The live counters. */
    public CrawlStats stats() {
        return stats;
    }

    /**
     * Runs {@code fetch.threads} fetchers on {@code source} until {@link #stop()}, a limit, or a failure, with a
     * progress line every {@code progress.interval} ({@code gauges} read for each); returns why it ended
     * ("stopped", "max-pages", "max-duration", "failed", or "finished" if the source was exhausted).
     *
     * @throws CrawlException when a fetcher failed (the output, a bug, the JVM out of memory)
     */
    public String run(LeaseSource source, Supplier<Gauges> gauges) throws CrawlException {
        FetchWorker worker = new FetchWorker(profile, source, fetcher, new PageReader(parser, links, profile), output,
                fetchers::limitReached);
        Instant startedAt = clock.instant();
        AtomicReference<Instant> previousLine = new AtomicReference<>(startedAt);
        try (ProgressReporter progress = new ProgressReporter(profile.progress().interval(), 0,
                previous -> line(gauges.get(), source, startedAt, previousLine, previous))) {
            try {
                fetchers.run(worker, source);
            } finally {
                worker.finishParsing();
            }
            ProgressReporter.LOG.info(progress.next().toString());
            fetchers.rethrowFailure(out);
        } catch (IOException e) {
            throw new CrawlException("the crawl's output in " + out + " failed: " + e.getMessage(), e);
        }
        return fetchers.reason();
    }

    /** Asks the fetchers to stop: no new lease is taken, requests in flight get the grace period. */
    public void stop() {
        fetchers.stop();
    }

    /** Closes the HTTP client, pages.jsonl, the WARC files and the folder's lock. */
    @Override
    public void close() throws IOException {
        try (CrawlLock held = lock; JsonlSink file = pages; Archive warc = archive; HttpFetcher client = fetcher) {
            // closed in reverse order
        }
    }

    private ProgressLine line(Gauges gauges, LeaseSource source, Instant startedAt,
            AtomicReference<Instant> previousLine, long previousFetched) {
        long fetched = stats.fetched();
        Instant now = clock.instant();
        double elapsed = Math.max(0.001, Duration.between(startedAt, now).toMillis() / 1000.0);
        double interval = Math.max(0.001, Duration.between(previousLine.getAndSet(now), now).toMillis() / 1000.0);
        return new ProgressLine(fetched, (fetched - previousFetched) / interval, fetched / elapsed, gauges.queued(),
                gauges.seen(), gauges.falsePositiveRate(), parser.fallbackShare(), gauges.hosts(),
                source.requestsInFlight(), profile.fetch().threads(), stats.failedAttempts(), stats.retries(),
                stats.count(Outcome.ROBOTS_DISALLOWED), stats.bytes(), Math.round(elapsed));
    }

    private static void closeQuietly(CrawlLock lock) {
        if (lock != null) {
            try {
                lock.close();
            } catch (IOException e) {
                // the lock's file is released with the process anyway
            }
        }
    }
}
