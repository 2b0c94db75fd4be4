package org.sievecrawler.seed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.sievecrawler.escape.ControlCharacters;
import org.sievecrawler.frontier.Lease;
import org.sievecrawler.frontier.LeaseSource;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.input.LineReader;
import org.sievecrawler.input.TextLine;
import org.sievecrawler.link.LinkDecision;
import org.sievecrawler.link.SeedHosts;
import org.sievecrawler.link.SeedLine;
import org.sievecrawler.link.UrlNormalizer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * A seed file streamed into a running crawl: its lines read in order from a {@link SeedPosition}, each normalized,
 * and the usable ones handed to the crawl in batches of {@value #BATCH} (the crawl offers them to the Sieve), on a
 * thread named "seeds", so the first fetch comes as soon as the first batch is offered, whatever the file's length.
 * {@link #position()} says how far it got, at a batch's end, for each checkpoint.
 *
 * <p>The seeds' hosts: when the scope or the address guard needs them, a second thread, "seed-hosts", reads the
 * whole file once (from its start, also on resume when they were not kept, {@link SeedFile#readHosts}) into a
 * {@link SeedHosts}, completed at the file's end; a question about a host not found before then waits for it. The
 * "seeds" thread adds each seed's host too before offering it, so a seed's own fetch never waits.
 *
 * <p>Bad lines (not UTF-8, longer than {@link SeedFile#MAX_LINE_BYTES}, a space within the URL, not a usable
 * http(s) URL) are skipped: the first {@value #NAMED} are each logged as {@code FILE:LINE: problem ("value");
 * skipped}, the others counted, and the count is logged when the file's end is reached.
 *
 * <p>The crawl's end: {@link #feeding(LeaseSource)} is the crawl's lease source, exhausted only once the file was
 * read to its end. A failure to read the file (or the JVM out of memory while reading it) stops the feed, is
 * logged, and calls the {@code onFailure} action the crawl gave (which stops the crawl: a resume goes on from the
 * last checkpoint's position); {@link #failure()} then says why.
 *
 * <p>Thread-safe: {@link #position()}, {@link #finished()} and the counts from any thread; {@link #start()} and
 * {@link #close()} once each, from the crawl's thread. Every thread it starts ends at {@link #close()}.
 */
public final class SeedFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SeedFeed.class);
    /** Seeds offered at once. */
    static final int BATCH = 1000;
    /** How far {@link #hasSeed} looks for a first usable seed: 16 MiB. */
    public static final long SCAN_BYTES = 16L << 20;
    /** Bad lines named one by one; the rest are counted. */
    static final int NAMED = 20;

    private final Path file;
    /** Where the gathered hosts are kept for a resume ({@link SeedFile#writeHosts}). */
    private final Path hostsFile;
    private final String shownName;
    private final SeedPosition start;
    private final SeedHosts hosts;
    private final boolean gatherHosts;
    private final Consumer<List<String>> offer;
    private final Runnable onFailure;
    private final UrlNormalizer normalizer;
    /** Where bad lines are named: the log. */
    private final Consumer<String> problems;
    private final AtomicReference<SeedPosition> position;
    private final AtomicLong offered = new AtomicLong();
    private final AtomicLong badLines = new AtomicLong();
    private final AtomicReference<String> failure = new AtomicReference<>();
    private volatile boolean finished;
    private volatile boolean stopping;
    private Thread feeder;
    private Thread hostReader;

    /**
     * @param file the crawl's copy of its seed file
     * @param hostsFile where the hosts, once gathered from the whole file, are written for a resume
     * @param shownName how messages name the file (the user's path on a new crawl)
     * @param start the file's identity and where to go on from
     * @param hosts the seeds' hosts, gathered from the whole file when {@code gatherHosts}, then completed
     * @param gatherHosts whether the scope or the address guard asks about seed hosts; if not, {@code hosts} is
     *     left to the caller
     * @param offer offers a batch of normalized seeds to the crawl's frontier, on the "seeds" thread
     * @param onFailure what the crawl does when the file cannot be read: stop
     */
    public SeedFeed(Path file, Path hostsFile, String shownName, SeedPosition start, SeedHosts hosts,
            boolean gatherHosts, Consumer<List<String>> offer, Runnable onFailure) {
        this(file, hostsFile, shownName, start, hosts, gatherHosts, offer, onFailure, new UrlNormalizer());
    }

    /**
     * As {@link #SeedFeed(Path, Path, String, SeedPosition, SeedHosts, boolean, Consumer, Runnable)}, the seeds
     * normalized by {@code normalizer} (the crawl's: it removes {@code scope.ignore-params}).
     */
    public SeedFeed(Path file, Path hostsFile, String shownName, SeedPosition start, SeedHosts hosts,
            boolean gatherHosts, Consumer<List<String>> offer, Runnable onFailure, UrlNormalizer normalizer) {
        this.normalizer = normalizer;
        this.file = file;
        this.hostsFile = hostsFile;
        this.shownName = shownName;
        this.start = start;
        this.hosts = hosts;
        this.gatherHosts = gatherHosts;
        this.offer = offer;
        this.onFailure = onFailure;
        this.problems = LOG::warn;
        this.position = new AtomicReference<>(start);
        this.finished = start.atEnd();
    }

    /** Starts reading: the "seeds" thread, and the "seed-hosts" one if the hosts are gathered. */
    public void start() {
        if (gatherHosts) {
            hostReader = new Thread(this::gatherHosts, "seed-hosts");
            hostReader.setDaemon(true);
            hostReader.start();
        }
        if (!start.atEnd()) {
            feeder = new Thread(this::feed, "seeds");
            feeder.setDaemon(true);
            feeder.start();
        }
    }

    /** How far the file was offered: every line before the position's offset was. */
    public SeedPosition position() {
        return position.get();
    }

    /** Whether the feed ended: the file read to its end, stopped, or failed. */
    public boolean finished() {
        return finished;
    }

    /** Why reading the file failed, if it did. */
    public Optional<String> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** Seeds offered by this run (some the Sieve may have seen before). */
    public long offered() {
        return offered.get();
    }

    /** Lines skipped as bad by this run. */
    public long badLines() {
        return badLines.get();
    }

    /**
     * {@code frontier} as the crawl's lease source while this feed runs: exhausted only once the file was offered to
     * its end (or the feed ended otherwise) and the frontier is.
     */
    public LeaseSource feeding(LeaseSource frontier) {
        return new LeaseSource() {
            @Override
            public Lease next(Duration maxWait) throws InterruptedException {
                return frontier.next(maxWait);
            }

            @Override
            public boolean exhausted() {
                return finished && frontier.exhausted(); // finished first: every seed was offered before
            }

            @Override
            public void awaitWork(Duration maxWait) throws InterruptedException {
                frontier.awaitWork(maxWait);
            }

            @Override
            public void wakeAll() {
                frontier.wakeAll();
            }

            @Override
            public int requestsInFlight() {
                return frontier.requestsInFlight();
            }
        };
    }

    private void feed() {
        long started = System.nanoTime();
        try (LineReader lines = LineReader.open(file, start.offset(), start.lines(), SeedFile.MAX_LINE_BYTES)) {
            List<String> batch = new ArrayList<>(BATCH);
            TextLine line;
            while (!stopping && (line = lines.next()) != null) { // stopping first: no line read and left out
                String seed = seed(line);
                if (seed != null) {
                    if (gatherHosts) { // a seed's own fetch never waits for the "seed-hosts" thread to reach it
                        hosts.addNormalized(seed);
                    }
                    batch.add(seed);
                }
                if (batch.size() == BATCH) {
                    offer(batch, lines);
                    batch = new ArrayList<>(BATCH);
                }
            }
            offer(batch, lines);
            if (!stopping) {
                LOG.atLevel(badLines.get() > 0 ? Level.WARN : Level.INFO).log(
                        "seeds: {} read to its end: {} seeds offered{} in {} ms", shownName, offered.get(),
                        badLines.get() == 0 ? "" : ", " + badLines.get() + " bad lines skipped"
                                + (badLines.get() > NAMED ? " (the first " + NAMED + " named above)" : ""),
                        (System.nanoTime() - started) / 1_000_000);
            }
        } catch (InputFileException e) {
            fail("seeds: " + e.getMessage(), null);
        } catch (RuntimeException e) {
            fail("seeds: offering the seeds of " + shownName + " failed: " + e.getMessage(), e);
        } catch (OutOfMemoryError e) {
            fail("the JVM ran out of memory while offering the seeds of " + shownName + " (" + offered.get()
                    + " offered, heap -Xmx " + (Runtime.getRuntime().maxMemory() >> 20) + " MB); give the JVM more"
                    + " heap (-Xmx) or lower sieve.max-in-memory-urls", null);
        } finally {
            finished = true;
        }
    }

    /** Offers {@code batch} and moves the position past the lines read so far. */
    private void offer(List<String> batch, LineReader lines) {
        if (!batch.isEmpty()) {
            offer.accept(batch);
            offered.addAndGet(batch.size());
        }
        position.set(position.get().at(lines.offset(), lines.lineNumber()));
    }

    /** The normalized seed of {@code line}, or null for a blank or bad line (a bad one reported). */
    private String seed(TextLine line) {
        if (line instanceof TextLine.NotUtf8 bad) {
            return skip(line, "not UTF-8 text (a malformed byte sequence at byte " + bad.badByte() + " of the line)",
                    bad.shown());
        }
        if (line instanceof TextLine.TooLong tooLong) {
            return skip(line, "longer than " + SeedFile.MAX_LINE_BYTES + " bytes (" + tooLong.bytes() + ")",
                    tooLong.start() + "...");
        }
        SeedLine read = SeedLine.of(((TextLine.Text) line).text());
        if (read instanceof SeedLine.Bad bad) {
            return skip(line, bad.problem(), bad.value());
        }
        if (read instanceof SeedLine.Url url) {
            LinkDecision decision = normalizer.normalize(url.url());
            return decision instanceof LinkDecision.Accept accept ? accept.url()
                    : skip(line, "not a usable seed: " + ((LinkDecision.Reject) decision).detail(), url.url());
        }
        return null; // blank, or a comment alone
    }

    private String skip(TextLine line, String problem, String value) {
        if (badLines.incrementAndGet() <= NAMED) {
            problems.accept(shownName + ":" + line.number() + ": " + problem + " (\"" + ControlCharacters.escape(value)
                    + "\"); skipped" + (badLines.get() == NAMED ? "; further bad lines are counted, not named" : ""));
        }
        return null;
    }

    /**
     * Reads {@code file} from its start up to its first usable seed, within its first {@link #SCAN_BYTES}, for a
     * command that refuses a seed file without one before the crawl starts; the bad lines before it are named to
     * {@code problems} (the first {@value #NAMED}), as the feed names them.
     *
     * @return whether the file has a usable seed
     * @throws InputFileException naming the file when it cannot be read, is larger than {@link SeedFile#MAX_BYTES},
     *     or holds no usable seed in its first {@link #SCAN_BYTES}
     */
    public static boolean hasSeed(Path file, Consumer<String> problems) throws InputFileException {
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw InputFile.refusal(file, FileErrors.reason(file, e));
        }
        if (size > SeedFile.MAX_BYTES) {
            throw InputFile.refusal(file, "larger than " + SeedFile.MAX_BYTES + " bytes, the most a seed file may"
                    + " have (" + size + " bytes)");
        }
        SeedFeed scan = new SeedFeed(file, file.toString(), problems);
        try (LineReader lines = LineReader.open(file, 0, 0, SeedFile.MAX_LINE_BYTES, SCAN_BYTES)) {
            for (TextLine line = lines.next(); line != null; line = lines.next()) {
                if (scan.seed(line) != null) {
                    return true;
                }
            }
            if (lines.offset() < size) {
                throw InputFile.refusal(file, "no usable seed in its first " + SCAN_BYTES + " bytes; a seed file"
                        + " holds one URL a line");
            }
        }
        return false;
    }

    /** A feed that only reads lines: for {@link #hasSeed}. */
    private SeedFeed(Path file, String shownName, Consumer<String> problems) {
        this.normalizer = new UrlNormalizer();
        this.file = file;
        this.hostsFile = file;
        this.shownName = shownName;
        this.start = SeedPosition.NONE;
        this.hosts = SeedHosts.filling();
        this.gatherHosts = false;
        this.offer = batch -> { };
        this.onFailure = () -> { };
        this.problems = problems;
        this.position = new AtomicReference<>(start);
    }

    /** Reads the whole file into {@link #hosts}, then completes it (also when it fails: nothing waits forever). */
    private void gatherHosts() {
        long started = System.nanoTime();
        UrlNormalizer hostNormalizer = new UrlNormalizer();
        try (LineReader lines = LineReader.open(file, 0, 0, SeedFile.MAX_LINE_BYTES)) {
            TextLine line;
            while (!stopping && (line = lines.next()) != null) {
                if (line instanceof TextLine.Text text && SeedLine.of(text.text()) instanceof SeedLine.Url url
                        && hostNormalizer.normalize(url.url()) instanceof LinkDecision.Accept accept) {
                    hosts.addNormalized(accept.url());
                }
            }
            if (!stopping) {
                LOG.info("seeds: {} holds {} distinct seed hosts ({} MB of host and origin tables), gathered in {} ms",
                        shownName, hosts.hostCount(), hosts.bytes() >> 20, (System.nanoTime() - started) / 1_000_000);
                hosts.complete();
                SeedFile.writeHosts(hostsFile, start, hosts);
            }
        } catch (InputFileException e) {
            fail("seeds: " + e.getMessage(), null);
        } catch (IOException e) { // the hosts are complete: only a resume will gather them again
            LOG.warn("seeds: the seed hosts could not be kept for a resume, which will read the seed file again: {}",
                    e.getMessage());
        } catch (RuntimeException e) {
            fail("seeds: gathering the hosts of " + shownName + " failed: " + e.getMessage(), e);
        } catch (OutOfMemoryError e) {
            fail("the JVM ran out of memory while gathering the seed hosts of " + shownName + " ("
                    + hosts.hostCount() + " hosts, heap -Xmx " + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MB); give the JVM more heap (-Xmx)", null);
        } finally {
            hosts.complete();
        }
    }

    private void fail(String message, Throwable cause) {
        if (failure.compareAndSet(null, message)) {
            LOG.error("{}; the crawl stops, its checkpoint keeps how far the seeds were offered", message,
                    cause instanceof RuntimeException ? cause : null);
            onFailure.run();
        }
    }

    /** Asks the feed to stop after the batch under way; returns at once. */
    public void stop() {
        stopping = true;
    }

    /** Stops reading and waits for both threads to end; the hosts are completed. */
    @Override
    public void close() {
        stop();
        join(feeder);
        join(hostReader);
        hosts.complete();
    }

    private static void join(Thread thread) {
        if (thread == null) {
            return;
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
