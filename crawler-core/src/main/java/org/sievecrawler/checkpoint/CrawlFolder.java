package org.sievecrawler.checkpoint;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.sievecrawler.graph.LinksFile;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.warc.WarcArchive;

/**
 * The files a crawl keeps in its output folder, by name: {@code pages.jsonl}, {@code summary.json},
 * {@code crawl.log}, {@code progress.jsonl}, {@code report.html}, {@code audit.json}, {@code changes.jsonl},
 * {@code rules.jsonl}, {@code checkpoint/},
 * {@code frontier/}, {@code links.tsv.zst} (the link graph) and the WARC files {@code PREFIX-*.warc.gz} (or
 * {@code .warc.zst}); and what a new crawl must know of them: whether an
 * earlier crawl left its output there ({@link #earlierOutput()}), so the two are never mixed, and how to start
 * afresh ({@link #clear()}), deleting those files and no other.
 *
 * <p>Not thread-safe; used by the crawl holding the folder's {@link CrawlLock}, before it starts. Which earlier
 * crawl may be resumed, and what a crawl does with the folder, is {@link CrawlStart}'s to say.
 */
public final class CrawlFolder {
    public static final String PAGES = "pages.jsonl";
    public static final String SUMMARY = "summary.json";
    public static final String LOG = "crawl.log";
    /** The progress lines as JSON, one a line ({@link org.sievecrawler.progress.ProgressLog}). */
    public static final String PROGRESS = "progress.jsonl";
    /** The report page ({@link org.sievecrawler.report.CrawlReport}). */
    public static final String REPORT = "report.html";
    /** What the crawl found about the site ({@link org.sievecrawler.audit.Audit}). */
    public static final String AUDIT = "audit.json";
    /** What changed since the earlier crawl, for a recrawl ({@link org.sievecrawler.changes.ChangeSet}). */
    public static final String CHANGES = "changes.jsonl";
    /** The rules the crawl learned and undid ({@link org.sievecrawler.learn.RulesFile}). */
    public static final String RULES = "rules.jsonl";
    /**
     * The files a crawl writes beside its output that alone do not make an earlier crawl (a refused crawl leaves a
     * crawl.log), deleted with it by {@link #clear()}.
     */
    static final List<String> SIDE_FILES = List.of(LOG, PROGRESS, REPORT, AUDIT, CHANGES, RULES);
    /** Pending URLs spilled past sieve.max-in-memory-urls. */
    public static final String FRONTIER = "frontier";
    /** A recrawl's copy of the earlier crawl's records, sorted ({@code crawl --since}). */
    public static final String HISTORY = "history";

    private final Path dir;
    private final String warcPrefix;

    /**
     * @param dir the output folder
     * @param warcPrefix the profile's {@code output.warc-prefix}: WARC files of another prefix are not this crawl's
     */
    CrawlFolder(Path dir, String warcPrefix) {
        this.dir = dir;
        this.warcPrefix = warcPrefix;
    }

    /**
     * The output an earlier crawl left: pages.jsonl, summary.json, checkpoint/, frontier/, links.tsv.zst, history/ and WARC
     * files, those that exist, in that order. A crawl.log, progress.jsonl or report.html alone does not count (a crawl refused before
     * it started leaves a crawl.log).
     *
     * @throws IOException naming the folder when it cannot be listed
     */
    List<Path> earlierOutput() throws IOException {
        List<Path> found = new ArrayList<>();
        for (String name : List.of(PAGES, SUMMARY, CheckpointStore.DIR, FRONTIER, LinksFile.FILE, HISTORY)) {
            if (Files.exists(dir.resolve(name))) {
                found.add(dir.resolve(name));
            }
        }
        found.addAll(warcFiles());
        return found;
    }

    /**
     * Deletes the crawler's own files: pages.jsonl, summary.json, crawl.log, progress.jsonl, report.html, audit.json,
     * changes.jsonl, rules.jsonl, checkpoint/, frontier/, links.tsv.zst, history/ and the WARC files of the prefix.
     * Other files in the folder are left alone, and so is the lock file.
     *
     * @throws IOException naming the file that could not be deleted
     */
    void clear() throws IOException {
        List<Path> files = new ArrayList<>(earlierOutput());
        for (String name : SIDE_FILES) {
            files.add(dir.resolve(name));
        }
        for (Path file : files) {
            try {
                CheckpointStore.deleteTree(file);
            } catch (IOException e) {
                throw new IOException("cannot delete " + file + " of the earlier crawl: " + FileErrors.reason(file, e), e);
            }
        }
    }

    private List<Path> warcFiles() throws IOException {
        try {
            return WarcArchive.existingFiles(dir, warcPrefix);
        } catch (IOException e) {
            throw new IOException("cannot list the output folder " + dir + ": " + FileErrors.reason(dir, e), e);
        }
    }
}
