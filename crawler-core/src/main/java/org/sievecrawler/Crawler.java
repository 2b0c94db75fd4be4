package org.sievecrawler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import okhttp3.HttpUrl;
import org.sievecrawler.changes.ChangeCounts;
import org.sievecrawler.changes.ChangeSet;
import org.sievecrawler.checkpoint.Checkpoint;
import org.sievecrawler.checkpoint.CheckpointException;
import org.sievecrawler.checkpoint.CheckpointStore;
import org.sievecrawler.checkpoint.Checkpointer;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.checkpoint.CrawlLock;
import org.sievecrawler.checkpoint.CrawlStart;
import org.sievecrawler.checkpoint.ResumeCommand;
import org.sievecrawler.frontier.CompletedUrls;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.history.EarlierCrawl;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.input.Folders;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.link.SeedHosts;
import org.sievecrawler.link.Seeds;
import org.sievecrawler.link.UrlNormalizer;
import org.sievecrawler.pipeline.FetcherThreads;
import org.sievecrawler.politeness.HostKey;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileChange;
import org.sievecrawler.profile.ScopeConfig;
import org.sievecrawler.progress.CrawlStats;
import org.sievecrawler.progress.CrawlSummary;
import org.sievecrawler.progress.ProgressLine;
import org.sievecrawler.progress.ProgressReporter;
import org.sievecrawler.seed.SeedFeed;
import org.sievecrawler.seed.SeedFile;
import org.sievecrawler.seed.SeedPosition;
import org.sievecrawler.shell.Program;
import org.sievecrawler.sieve.CorruptFilterException;
import org.sievecrawler.sieve.PendingUrl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node crawl, built from a {@link CrawlProfile}: the composition root. {@link #run()} claims the output
 * folder, opens the fetch side ({@link Fetching}) and the frontier, and runs them to the crawl's end on
 * {@code fetch.threads} named fetcher threads, with checkpoints, then writes the summary:
 *
 * <pre>
 *   seeds (the profile's; a seed file streamed by SeedFeed) -> Frontier (Sieve, spill, politeness, leases, journal)
 *         -> Fetching: FetchWorker -> PageSteps: checks -> fetch -> archive -> parse (ParsePool) -> links -> record
 *         -> lease closed with its record and links -> Frontier -> its Recorder: pages.jsonl, counters
 *   records -> pages.jsonl and counters, exchanges -> WARC, progress lines (Fetching); checkpoints (Checkpointer)
 *   at the end: a recrawl's changes.jsonl (ChangeSet), summary.json, then report.html (CrawlReport; a failure to
 *   write either view is a warning)
 * </pre>
 *
 * <p>Before it: the seeds ({@link Seeds}; a seed file copied into the folder once, {@link SeedFile}, and read on
 * while the crawl runs, from where its checkpoint says on resume), the heap the Sieve needs
 * ({@link org.sievecrawler.profile.SieveConfig#heapShortfall}), and what the crawl does with its output folder
 * ({@link CrawlStart}: begin, begin afresh, go on), and for a recrawl ({@code --since DIR}) the earlier crawl's
 * records sorted into the folder and its URLs written as the seed file ({@link EarlierCrawl}), whose pages the
 * fetch step then asks for conditionally. The fetcher threads and the end of the crawl:
 * {@link FetcherThreads}.
 *
 * <p>A crawl ends when the frontier is exhausted (nothing pending, no lease open), at {@code limits.max-pages} or
 * {@code limits.max-duration}, or on {@link #stop()}: no new URL is taken, requests in flight get a grace
 * period ({@value #STOP_GRACE_SECONDS} s) to finish and be recorded; those still running then are cancelled, not
 * recorded, and their URLs put back: the final checkpoint (state STOPPED) holds them, and a resume fetches them.
 * Nothing in flight is lost or recorded as an error. Then the output is flushed and the summary written. Every
 * thread it starts, it stops (a fetcher that does not end once its request is cancelled, e.g. in a slow host name
 * lookup, is left behind, a daemon that records nothing more).
 *
 * <p>Thread-safe: {@link #stop()} and {@link #halt()} may be called from any thread (e.g. a signal handler),
 * before or while {@link #run()} runs on another. A Crawler runs once.
 */
public final class Crawler {
    private static final Logger LOG = LoggerFactory.getLogger(Crawler.class);
    /**
     * How long the requests in flight at the end of a crawl (a stop, a limit) may go on before they are cancelled and
     * their URLs put back, to be fetched on resume.
     */
    public static final long STOP_GRACE_SECONDS = FetcherThreads.STOP_GRACE_SECONDS;

    private final CrawlProfile profile;
    private final Clock clock;
    private final CrawlStats stats = new CrawlStats();
    private final Start start;
    /** How long requests in flight at the end of the crawl may go on. */
    private final Duration stopGrace;
    /** The fetch side once it is open, for {@link #stop()} and {@link #halt()}. */
    private final AtomicReference<Fetching> running = new AtomicReference<>();
    /** Whether {@link #stop()} was called, perhaps before {@link #running} was set. */
    private final AtomicBoolean stopRequested = new AtomicBoolean();
    /** This program as the user started it, for the commands the crawl's messages suggest. */
    private final Program program;
    /** A new crawl's seed file ({@code --seeds FILE}), streamed besides the profile's seeds; empty for none. */
    private final Optional<Path> seedFile;
    /** The folder of the earlier crawl a new recrawl starts from ({@code --since DIR}); empty for none. */
    private final Optional<Path> since;
    /** Memory for sorting the earlier crawl's records, at most: 64 MB, or an eighth of the heap when less. */
    private static final long HISTORY_SORT_BYTES = Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 8);

    /** What a crawl does with its output folder: begin there, begin afresh, or go on. */
    public enum Start {
        /** A new crawl; refused if the folder holds an earlier crawl's output ({@link CrawlFolder#earlierOutput()}). */
        NEW,
        /** A new crawl that first deletes an earlier crawl's files in the folder ({@link CrawlFolder#clear()}). */
        OVERWRITE,
        /** The crawl in the folder goes on from its checkpoint. */
        RESUME
    }

    /** A new crawl ({@link Start#NEW}) whose messages name the {@code crawler} command. */
    public static Crawler newCrawl(CrawlProfile profile) {
        return new Crawler(profile, Optional.empty(), Start.NEW, Program.CRAWLER, FetcherThreads.STOP_GRACE);
    }

    /**
     * A crawl that goes on from the checkpoint in {@code profile.output().dir()}; {@code profile} is the one
     * {@link CheckpointStore#readProfile()} gives, its limits possibly raised.
     */
    public static Crawler resuming(CrawlProfile profile) {
        return new Crawler(profile, Optional.empty(), Start.RESUME, Program.CRAWLER, FetcherThreads.STOP_GRACE);
    }

    /**
     * A crawl that begins as {@code start} says, whose messages name {@code program} in the commands they suggest
     * ("resume with: PROGRAM crawl --resume DIR"): the program as the user started it.
     */
    public static Crawler of(CrawlProfile profile, Start start, Program program) {
        return new Crawler(profile, Optional.empty(), start, program, FetcherThreads.STOP_GRACE);
    }

    /**
     * As {@link #of(CrawlProfile, Start, Program)}, a new crawl also streaming the seeds of {@code seedFile}
     * (copied into the crawl's folder first, {@link SeedFile}) after the profile's: a resume reads its copy.
     */
    public static Crawler of(CrawlProfile profile, Optional<Path> seedFile, Start start, Program program) {
        return new Crawler(profile, seedFile, Optional.empty(), start, program, FetcherThreads.STOP_GRACE);
    }

    /**
     * As {@link #of(CrawlProfile, Optional, Start, Program)}, a new crawl that is a recrawl of the crawl in
     * {@code since} (empty for none): its records are sorted into the new folder's history/ ({@link EarlierCrawl}),
     * its seeds and every URL it made a request for are streamed as seeds (after {@code seedFile}'s), and each page it
     * recorded is asked for with its validators. A resumed recrawl finds its history again by itself.
     */
    public static Crawler of(CrawlProfile profile, Optional<Path> seedFile, Optional<Path> since, Start start,
            Program program) {
        return new Crawler(profile, seedFile, since, start, program, FetcherThreads.STOP_GRACE);
    }

    /**
     * A crawl on the system clock whose requests in flight at its end get {@code stopGrace}
     * ({@link FetcherThreads#STOP_GRACE} but in tests).
     */
    Crawler(CrawlProfile profile, Start start, Program program, Duration stopGrace) {
        this(profile, Optional.empty(), start, program, stopGrace);
    }

    /** As {@link #Crawler(CrawlProfile, Start, Program, Duration)}, a new crawl streaming {@code seedFile} too. */
    Crawler(CrawlProfile profile, Optional<Path> seedFile, Start start, Program program, Duration stopGrace) {
        this(profile, seedFile, Optional.empty(), start, program, stopGrace);
    }

    /** As above, a recrawl of {@code since} when given. */
    Crawler(CrawlProfile profile, Optional<Path> seedFile, Optional<Path> since, Start start, Program program,
            Duration stopGrace) {
        this.profile = profile;
        this.seedFile = seedFile;
        this.since = since;
        this.clock = Clock.systemUTC();
        this.start = start;
        this.stopGrace = stopGrace;
        this.program = program;
    }

    /**
     * Runs the crawl to its end and returns its summary (also written to summary.json).
     *
     * @throws CrawlException if the output cannot be written or no seed is usable; the message says which.
     *     {@link CrawlException#refused()} when another crawl holds the folder, when a new crawl would mix its
     *     output with an earlier crawl's ({@link Start#NEW}), or when a resume finds no valid checkpoint or a
     *     finished crawl
     */
    public CrawlSummary run() throws CrawlException {
        return run(() -> { });
    }

    /**
     * {@link #run()}, calling {@code claimed} once the output folder is this crawl's (locked, checked, an earlier
     * crawl's files deleted with {@link Start#OVERWRITE}) and before the crawl writes anything there: the command
     * line opens crawl.log then, so a refused crawl leaves the folder as it was.
     */
    public CrawlSummary run(Runnable claimed) throws CrawlException {
        Path out = createOutputDir(profile.output().dir());
        try {
            Claim claim = claim(out, claimed);
            try (Fetching fetching = Fetching.open(profile, clock,
                    new Fetching.Setup(claim.lock(), claim.seedHosts(), stats, stopGrace,
                            "resume with: " + ResumeCommand.of(program, out), claim.earlier()))) {
                running.set(fetching);
                if (stopRequested.get()) { // stop() came before there was anything to stop
                    fetching.stop();
                }
                return crawl(out, claim, fetching);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        } catch (CheckpointException e) {
            throw CrawlException.refused(e.getMessage(), e);
        } catch (IOException e) {
            throw new CrawlException("the crawl's output in " + out + " failed: " + FileErrors.message(e), e);
        }
    }

    /**
     * The output folder {@code out} made this crawl's, before anything is opened there: the lock, the seeds, the
     * heap, what the crawl does with the folder ({@link CrawlStart}), then {@code claimed}, then on resume
     * pages.jsonl and the counters as the crawl left them. The lock is released if the crawl is refused.
     *
     * @param seeds the profile's seeds, normalized
     * @param seedFile the crawl's seed file and where its stream goes on ({@link SeedPosition#NONE} for none)
     * @param seedHosts the seeds' hosts and origins: the profile's, and a seed file's as it is read
     * @param restored the checkpoint a resume goes on from, null for a new crawl
     * @param recorded the URLs pages.jsonl records after that checkpoint (none for a new crawl)
     * @param earlier a recrawl's earlier crawl, null for none
     * @param shownSeedFile the seed file's name in messages: as given, or a recrawl's seeds
     */
    private record Claim(Instant startedAt, CrawlLock lock, Seeds seeds, SeedPosition seedFile, SeedHosts seedHosts,
            CheckpointStore checkpoints, Checkpoint restored, CompletedUrls recorded, EarlierCrawl earlier,
            Optional<Path> shownSeedFile) {
    }

    private Claim claim(Path out, Runnable claimed) throws CrawlException, CheckpointException, IOException {
        CrawlLock lock = CrawlLock.acquire(out);
        Instant startedAt = clock.instant();
        EarlierCrawl earlier = null;
        try {
            Seeds seeds = Seeds.normalize(profile.seeds(), new UrlNormalizer(profile.scope().ignoreParams()));
            seeds.problems().forEach(LOG::warn);
            if (seeds.urls().isEmpty() && seedFile.isEmpty() && since.isEmpty() && start != Start.RESUME) {
                throw new CrawlException(seeds.whyNone());
            }
            Optional<String> shortfall = profile.sieve().heapShortfall(Runtime.getRuntime().maxMemory());
            if (shortfall.isPresent()) { // refused before the filter (or a checkpoint's copy of it) is allocated
                throw CrawlException.refused(shortfall.get(), null);
            }
            CheckpointStore checkpoints = new CheckpointStore(out, program);
            CrawlStart folder = new CrawlStart(out, profile.output().warcPrefix(), checkpoints, program);
            Checkpoint restored = null;
            switch (start) {
                case NEW -> folder.begin();
                case OVERWRITE -> folder.beginAfresh();
                case RESUME -> restored = folder.goOn(profile);
            }
            claimed.run();
            Optional<Path> seedsToStream = seedFile;
            if (restored != null) {
                earlier = EarlierCrawl.reopen(out).orElse(null);
            } else if (since.isPresent()) {
                long began = System.nanoTime();
                earlier = EarlierCrawl.build(since.get(), out, HISTORY_SORT_BYTES);
                seedsToStream = Optional.of(earlier.writeSeeds(seedFile));
                LOG.info("recrawl of {}: its {} recorded URLs read and sorted in {} ms{}; each page it fetched is asked"
                        + " for again with its validators", since.get(), earlier.history().size(),
                        (System.nanoTime() - began) / 1_000_000, earlier.history().skipped() == 0 ? ""
                                : " (" + earlier.history().skipped() + " lines that are no record left out)");
            }
            SeedPosition seedStream = seedStream(checkpoints, restored, seedsToStream);
            CompletedUrls recorded = restored == null ? CompletedUrls.none() // pages.jsonl and the counters as
                    : folder.restorePages(restored, stats);                  // the crawl left them
            Optional<SeedHosts> kept = seedStream.hasFile() && gathersSeedHosts() // a resume's, gathered before
                    ? SeedFile.readHosts(checkpoints.seedHostsFile(), seedStream) : Optional.empty();
            SeedHosts seedHosts = kept.orElseGet(SeedHosts::filling);
            seeds.urls().forEach(url -> seedHosts.add(HttpUrl.get(url)));
            if (!seedStream.hasFile() || !gathersSeedHosts() || kept.isPresent()) {
                seedHosts.complete();
            }
            return new Claim(startedAt, lock, seeds, seedStream, seedHosts, checkpoints, restored, recorded, earlier,
                    seedsToStream);
        } catch (InputFileException e) {
            try (EarlierCrawl unused = earlier) {
                lock.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw CrawlException.refused((start == Start.RESUME ? "" : "--seeds ") + e.getMessage(), e);
        } catch (CrawlException | CheckpointException | IOException | RuntimeException e) {
            try (EarlierCrawl unused = earlier) {
                lock.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * The seed file a new crawl copies into its folder, or the one a resumed crawl goes on reading (its copy checked
     * against the checkpoint); {@link SeedPosition#NONE} for a crawl without one.
     */
    private SeedPosition seedStream(CheckpointStore checkpoints, Checkpoint restored, Optional<Path> seedFile)
            throws InputFileException {
        if (restored != null) {
            if (restored.seeds().hasFile()) {
                SeedFile.verify(checkpoints.seedFile(), restored.seeds());
            }
            return restored.seeds();
        }
        if (seedFile.isEmpty()) {
            return SeedPosition.NONE;
        }
        Folders.make(checkpoints.seedFile().getParent());
        return SeedFile.copy(seedFile.get(), checkpoints.seedFile());
    }

    /** Whether the seeds' hosts are asked about: by the scope (same-as-seeds), or for private addresses. */
    private boolean gathersSeedHosts() {
        return profile.scope().hosts().contains(ScopeConfig.SAME_AS_SEEDS) || !profile.fetch().allowPrivateAddresses();
    }

    /**
     * Offers normalized {@code seeds} to {@code frontier} (a recrawl's at the depth the earlier crawl found them,
     * {@link EarlierCrawl#asFound}), then their hosts' sitemaps if scope.sitemaps says so.
     */
    private void offerSeeds(Frontier frontier, List<String> seeds, EarlierCrawl earlier) {
        if (earlier == null) {
            frontier.offerSeeds(seeds);
        } else {
            frontier.offer(earlier.asFound(seeds));
        }
        if (profile.scope().sitemaps()) { // after the seeds: a host's pages first, then its sitemap
            frontier.offer(seeds.stream().map(HostKey::of).distinct()
                    .map(host -> PendingUrl.sitemap(HostKey.sitemapUrl(host), 0, null)).toList());
        }
    }

    /**
     * The crawl itself, its output open: the frontier, the fetchers ({@link Fetching}), checkpoints and the
     * summary.
     */
    private CrawlSummary crawl(Path out, Claim claim, Fetching fetching) throws CrawlException, CheckpointException,
            IOException {
        Checkpoint restored = claim.restored();
        SeedPosition seedStream = claim.seedFile();
        try (Frontier frontier = openFrontier(out.resolve(CrawlFolder.FRONTIER), claim, fetching);
                SeedFeed feed = new SeedFeed(claim.checkpoints().seedFile(), claim.checkpoints().seedHostsFile(),
                        claim.shownSeedFile().map(Path::toString).orElse(claim.checkpoints().seedFile().toString()),
                        seedStream,
                        claim.seedHosts(), !claim.seedHosts().isComplete(),
                        seeds -> offerSeeds(frontier, seeds, claim.earlier()),
                        fetching::stop, new UrlNormalizer(profile.scope().ignoreParams()))) {
            Checkpointer checkpointer = new Checkpointer(claim.checkpoints(), frontier, state -> new Checkpoint(
                    Checkpoint.State.RUNNING, null, profile, state, stats.snapshot(), pagesLength(fetching),
                    feed.position()));
            if (restored == null) {
                // the profile's seeds, then the seed file's, streamed
                offerSeeds(frontier, claim.seeds().urls(), claim.earlier());
                checkpointer.write(null, null); // a crawl killed before the first interval is resumable too
                LOG.info("crawl started: {} seeds{}, {} fetcher threads, output {}", claim.seeds().urls().size(),
                        seedStream.hasFile() ? " and the seed file " + claim.shownSeedFile().orElseThrow() + " (" + seedStream
                                .fileBytes() + " bytes, streamed)" : "", profile.fetch().threads(), out);
            } else {
                List<ProfileChange> changes = ProfileChange.between(restored.profile(), profile);
                LOG.info("crawl resumed: {} URLs pending ({} spilled), {} decided before, {} fetcher threads,"
                        + " output {}{}{}", frontier.size(), frontier.spilled(), stats.decided(),
                        profile.fetch().threads(), out, seedStream.hasFile() && !seedStream.atEnd()
                                ? "; the seed file goes on from line " + (seedStream.lines() + 1) : "",
                        changes.isEmpty() ? "" : "; changed: " + changes.stream()
                                .map(ProfileChange::toString).collect(Collectors.joining(", ")));
                if (!changes.isEmpty()) { // recorded at once: a crash before the next checkpoint keeps them
                    checkpointer.write(null, null);
                }
            }
            feed.start();
            profile.fetch().placeholderContact().ifPresent(LOG::warn);
            LOG.info(fetching.sockets().describe());
            long fetchedBefore = stats.fetched(); // a resumed crawl's earlier runs: not this run's
            Instant startedAt = claim.startedAt();
            String reason;
            if (!profile.limits().maxDuration().isZero()) { // no robots.txt whose host's page would come too late
                frontier.endsAt(clock.instant().plus(profile.limits().maxDuration()));
            }
            try (Checkpointer periodic = checkpointer.every(profile.checkpoint().interval())) {
                reason = fetching.run(frontier, feed, startedAt); // fetchers end, parsing ends, the feed
            }                                                        // stops, the frontier is sealed
            fetching.closeLinks(); // the graph whole for the audit below
            if (feed.failure().isPresent()) { // the seed file could not be read: stopped where it was offered to
                checkpointer.write(Checkpoint.State.STOPPED, "failed");
                throw new CrawlException(feed.failure().get() + "; then resume with: "
                        + ResumeCommand.of(program, out), null);
            }
            if (profile.output().warc()) {
                LOG.info("WARC files: {}", fetching.warcFiles());
            }
            boolean finished = reason.equals("finished"); // one stopped at a limit goes on with a higher one
            checkpointer.write(finished ? Checkpoint.State.FINISHED : Checkpoint.State.STOPPED, reason);
            if (finished) {
                frontier.discard(); // nothing to resume: its journal and spill are of no more use
            }
            Optional<ChangeCounts> changes = changes(out, claim); // a recrawl's changes.jsonl, counted below
            CrawlSummary summary = fetching.summary(startedAt, reason, fetchedBefore,
                    Fetching.FrontierFigures.of(List.of(frontier))).with(changes);
            fetching.writeSummary(summary, program);
            return summary;
        }
    }

    /**
     * For a recrawl ({@code --since}, or one resumed): writes changes.jsonl ({@link ChangeSet}) from its records and
     * the earlier crawl's, and returns its counts; empty for any other crawl, or when it could not be written (a
     * warning says why: a view of the crawl's files, the crawl is not failed for it).
     */
    private Optional<ChangeCounts> changes(Path out, Claim claim) {
        EarlierCrawl earlier = claim.earlier();
        if (earlier == null) {
            return Optional.empty();
        }
        try {
            ChangeCounts counts = ChangeSet.write(out, earlier.history().file(), earlier.dir(),
                    Set.copyOf(claim.seeds().urls()), HISTORY_SORT_BYTES);
            LOG.info("changes: {}", out.resolve(ChangeSet.FILE));
            return Optional.of(counts);
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("the recrawl's {} could not be written: {}", ChangeSet.FILE, e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * The frontier in {@code dir}: new, or as the checkpoint the claim restored left it with the journal after it
     * replayed (a completion whose record pages.jsonl lost is fetched again).
     */
    private Frontier openFrontier(Path dir, Claim claim, Fetching fetching)
            throws CheckpointException, IOException {
        Frontier.Settings settings = Frontier.Settings.of(profile, dir).withAddresses(fetching.addresses());
        Frontier.Recorder recorder = fetching.recorder();
        Frontier frontier;
        if (claim.restored() == null) {
            frontier = Frontier.create(settings, clock, recorder);
        } else {
            try {
                frontier = Frontier.resume(settings, clock, recorder, claim.restored().frontier(),
                        claim.recorded()::contains);
            } catch (CorruptFilterException e) {
                throw new CheckpointException(e.getMessage(), e);
            }
        }
        if (profile.limits().maxPages() > 0) { // no robots.txt for a host the limit leaves no page of
            frontier.limitPages(profile.limits().maxPages() - stats.decided());
        }
        return frontier;
    }

    private static long pagesLength(Fetching fetching) {
        try {
            return fetching.pagesLength();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The crawl's live counters (for progress displays and benchmarks); thread-safe. */
    public CrawlStats stats() {
        return stats;
    }

    /**
     * The progress line now, while the fetchers run (empty before and after), for a display that polls it: as a
     * logged line, but {@code rate} is over this run, as {@code avg}. Reads the Sieve's gauges; thread-safe.
     */
    public Optional<ProgressLine> progressNow() {
        Fetching fetching = running.get();
        return fetching == null ? Optional.empty() : fetching.progressNow();
    }

    /**
     * Ends the crawl's output at once, for a process about to exit without waiting (a second Ctrl-C): pages.jsonl
     * is flushed and closed, so it holds whole lines only and no other is added; the last checkpoint written stays
     * the current one (one under way is committed whole or not at all), so a resume fetches again what was in
     * flight or recorded after it. No summary is written. Returns once the file is closed.
     */
    public void halt() {
        stop();
        Fetching fetching = running.get();
        if (fetching != null) {
            try {
                fetching.halt();
            } catch (IOException e) {
                LOG.warn("pages.jsonl could not be flushed at the halt: {}", e.getMessage());
            }
        }
    }

    /**
     * Asks the crawl to stop: no new URL is taken, requests in flight get the grace period to finish, those still
     * running then are cancelled and put back for the resume, the final checkpoint and the summary are written.
     */
    public void stop() {
        stopRequested.set(true);
        Fetching fetching = running.get();
        if (fetching != null) {
            fetching.stop();
        }
    }

    /** The output folder, made if need be: one that cannot be made or written refuses the crawl, a usage error. */
    private static Path createOutputDir(Path dir) throws CrawlException {
        try {
            Folders.make(dir);
            return dir;
        } catch (InputFileException e) {
            throw CrawlException.refused("output.dir " + e.getMessage(), e);
        }
    }
}
