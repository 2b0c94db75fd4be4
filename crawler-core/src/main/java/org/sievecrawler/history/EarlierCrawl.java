package org.sievecrawler.history;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.sievecrawler.checkpoint.CheckpointException;
import org.sievecrawler.checkpoint.CheckpointStore;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.fetch.Validators;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.input.Folders;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;
import org.sievecrawler.warc.Recapture;

/**
 * The earlier crawl a recrawl ({@code crawl --since DIR}) starts from: its folder, and its records sorted by URL in
 * the new crawl's {@value CrawlFolder#HISTORY}/ folder ({@link CrawlHistory}), with the earlier folder's path beside
 * them ({@value #FROM}) so that a resumed recrawl finds both again.
 *
 * <p>It gives the recrawl its seeds ({@link #writeSeeds}: the earlier crawl's seeds, then every URL it made a request
 * for, so pages still there are revisited wherever links now lead), each page's validators for a conditional request
 * ({@link #validators}), and where the earlier crawl archived the page ({@link #recapture}), for a revisit record.
 *
 * <p>Thread-safe: lookups from any number of fetcher threads.
 */
public final class EarlierCrawl implements AutoCloseable {
    /** The file, in the history folder, naming the earlier crawl's folder. */
    static final String FROM = "from.txt";
    /** The seeds the recrawl streams, written into the history folder. */
    static final String SEEDS = "seeds.txt";
    /** The outcomes of records that made a request: their URLs are revisited. */
    private static final Set<String> REQUESTED = Set.of(Outcome.FETCHED.label(), Outcome.TRUNCATED.label(),
            Outcome.NOT_HTML.label(), Outcome.HTTP_ERROR.label(), Outcome.REDIRECT.label(), Outcome.ERROR.label(),
            Outcome.UNREACHABLE.label(), Outcome.NOT_MODIFIED.label());
    private static final String OUTCOME_FIELD = "\"outcome\":\"";

    private final Path dir;
    private final Path historyDir;
    private final CrawlHistory history;

    private EarlierCrawl(Path dir, Path historyDir, CrawlHistory history) {
        this.dir = dir;
        this.historyDir = historyDir;
        this.history = history;
    }

    /**
     * Reads the crawl in {@code earlier} into {@code out}'s history folder (sorting its pages.jsonl by URL with at
     * most {@code sortBytes} in memory).
     *
     * @throws IOException when {@code earlier} is not the folder of a crawl, or naming the file that could not be
     *     read or written
     */
    public static EarlierCrawl build(Path earlier, Path out, long sortBytes) throws IOException {
        if (!Files.isRegularFile(earlier.resolve(CrawlFolder.PAGES))) {
            throw new IOException(earlier + " holds no " + CrawlFolder.PAGES + ": not the folder of a crawl");
        }
        Path historyDir = out.resolve(CrawlFolder.HISTORY);
        Folders.make(historyDir);
        Path from = earlier.toAbsolutePath().normalize();
        Files.writeString(historyDir.resolve(FROM), from + "\n", StandardCharsets.UTF_8);
        return new EarlierCrawl(from, historyDir, CrawlHistory.build(earlier, historyDir, sortBytes));
    }

    /**
     * The earlier crawl of the recrawl in {@code out}, as {@link #build} left it there; empty when the crawl in
     * {@code out} is no recrawl.
     *
     * @throws IOException naming the file that could not be read
     */
    public static Optional<EarlierCrawl> reopen(Path out) throws IOException {
        Path historyDir = out.resolve(CrawlFolder.HISTORY);
        if (!Files.isRegularFile(historyDir.resolve(FROM))) {
            return Optional.empty();
        }
        Path from = Path.of(Files.readString(historyDir.resolve(FROM), StandardCharsets.UTF_8).strip());
        return Optional.of(new EarlierCrawl(from, historyDir, CrawlHistory.open(historyDir)));
    }

    /** The earlier crawl's folder. */
    public Path dir() {
        return dir;
    }

    /** Its records, sorted by URL. */
    public CrawlHistory history() {
        return history;
    }

    /**
     * Writes the recrawl's seeds to the history folder and returns the file: the earlier crawl's seeds (its
     * profile's and its seed file's), {@code extra}'s lines (a seed file given to the recrawl), then every URL of
     * the history whose record made a request ({@link #REQUESTED}: not robots.txt refusals, traps, sitemaps).
     *
     * @throws IOException naming the file that could not be read or written
     */
    public Path writeSeeds(Optional<Path> extra) throws IOException {
        Path seeds = historyDir.resolve(SEEDS);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(seeds), 1 << 16)) {
            CheckpointStore checkpoints = new CheckpointStore(dir);
            try {
                for (String seed : checkpoints.readProfile().seeds()) {
                    out.write((seed + '\n').getBytes(StandardCharsets.UTF_8));
                }
            } catch (CheckpointException e) {
                // no checkpoint (a crawl killed before its first): its seeds are among its records
            }
            copy(checkpoints.seedFile(), out);
            if (extra.isPresent()) {
                copy(extra.get(), out);
            }
            try (BufferedReader lines = Files.newBufferedReader(history.file(), StandardCharsets.UTF_8)) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    int tab = line.indexOf('\t');
                    if (tab > 0 && REQUESTED.contains(outcome(line))) {
                        out.write((line.substring(0, tab) + '\n').getBytes(StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return seeds;
    }

    /** Appends {@code file}'s bytes as they are (the seed file's reader checks them, line by line), then a line end. */
    private static void copy(Path file, OutputStream out) throws IOException {
        if (!Files.isRegularFile(file)) {
            return;
        }
        Files.copy(file, out);
        out.write('\n'); // a last line without its end stays a line of its own
    }

    /** The outcome label of a history line (written by this crawler: {@code "outcome":"label"}), or "". */
    private static String outcome(String line) {
        int at = line.indexOf(OUTCOME_FIELD);
        if (at < 0) {
            return "";
        }
        int from = at + OUTCOME_FIELD.length();
        int to = line.indexOf('"', from);
        return to < 0 ? "" : line.substring(from, to);
    }

    /**
     * The earlier record of {@code url}, if the earlier crawl recorded one.
     *
     * @throws IOException naming the history file when it cannot be read
     */
    public Optional<PageRecord> lookup(String url) throws IOException {
        return history.lookup(url);
    }

    /**
     * The recrawl's seeds {@code urls} as the frontier takes them: each at the depth and with the referrer the
     * earlier crawl recorded it with, so {@code scope.max-depth} reaches no further than it did and a page keeps where
     * it was found; a URL the earlier crawl did not record (a seed given to the recrawl) is a seed. A history that
     * cannot be read makes every URL a seed.
     */
    public List<PendingUrl> asFound(List<String> urls) {
        List<PendingUrl> pending = new ArrayList<>(urls.size());
        for (String url : urls) {
            PageRecord earlier = null;
            try {
                earlier = history.lookup(url).orElse(null);
            } catch (IOException e) {
                earlier = null; // as a seed: the request is made all the same
            }
            pending.add(earlier == null || earlier.depth() <= 0 ? PendingUrl.seed(url) // a depth < 0: hostile
                    : new PendingUrl(url, earlier.depth(), earlier.referrer(), 0, 0, PendingUrl.Purpose.PAGE));
        }
        return pending;
    }

    /**
     * What a conditional request for a page sends ({@code If-None-Match}, {@code If-Modified-Since}): the
     * {@code earlier} record's validators when it got a whole body or a 304, else none (an error page's, or a body
     * cut at limits.max-page-bytes, would keep a page that changed).
     */
    public static Validators validators(PageRecord earlier) {
        boolean whole = earlier.outcome() == Outcome.FETCHED || earlier.outcome() == Outcome.NOT_HTML
                || earlier.outcome() == Outcome.NOT_MODIFIED;
        return whole ? new Validators(earlier.etag(), earlier.lastModified()) : Validators.NONE;
    }

    /**
     * Where the earlier crawl archived {@code earlier}'s URL, for the recrawl's record of it: a revisit of that
     * capture when the answer is {@code notModified} (304) or its payload is the same.
     */
    public Recapture recapture(PageRecord earlier, boolean notModified) {
        Path file = earlier.warcFile() == null || earlier.warcFile().contains("/") || earlier.warcFile().contains("\\")
                || earlier.warcFile().startsWith(".") ? null : dir.resolve(earlier.warcFile());
        return new Recapture(file, file == null ? -1 : earlier.warcOffset(), notModified);
    }

    @Override
    public void close() throws IOException {
        history.close();
    }
}
