package org.sievecrawler.checkpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.sievecrawler.frontier.CompletedUrls;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.OnResume;
import org.sievecrawler.profile.ProfileChange;
import org.sievecrawler.profile.ProfileKeys;
import org.sievecrawler.progress.CrawlStats;
import org.sievecrawler.shell.Program;
import org.sievecrawler.sink.JsonlSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a crawl does with its output folder before it writes there: begin ({@link #begin()}, refused when an
 * earlier crawl's output is in it), begin afresh ({@link #beginAfresh()}, deleting that output), or go on from the
 * folder's checkpoint ({@link #goOn(CrawlProfile)}, refused when that is not possible, or when the resume changes
 * a key that is fixed for a crawl: {@link #changesOnResume}); and, going on, pages.jsonl and the
 * counters as the crawl left them ({@link #restorePages}, refused when records were lost that no resume could
 * fetch again). Every refusal is a {@link CheckpointException} whose message names the folder and the command that
 * gets the user further (a resume's made by {@link ResumeCommand}), at the end of the message's line, so that a
 * user can paste it.
 *
 * <p>Not thread-safe; used by the crawl holding the folder's {@link CrawlLock}, before its fetchers start.
 *
 * <p>Out of scope: which files are the crawl's ({@link CrawlFolder}), reading and writing checkpoints
 * ({@link CheckpointStore}), and the frontier's state (the frontier resumes itself from the checkpoint).
 */
public final class CrawlStart {
    private static final Logger LOG = LoggerFactory.getLogger(CrawlStart.class);

    private final Path dir;
    private final CrawlFolder folder;
    private final CheckpointStore checkpoints;
    private final Program program;

    /**
     * @param dir the output folder
     * @param warcPrefix the profile's {@code output.warc-prefix}
     * @param checkpoints the folder's checkpoints
     * @param program this program as the user started it, for the commands the refusals suggest
     */
    public CrawlStart(Path dir, String warcPrefix, CheckpointStore checkpoints, Program program) {
        this.dir = dir;
        this.folder = new CrawlFolder(dir, warcPrefix);
        this.checkpoints = checkpoints;
        this.program = program;
    }

    /**
     * A new crawl never mixes its output with an earlier crawl's: a folder holding one is refused, naming its files
     * and whether it can be resumed.
     */
    public void begin() throws CheckpointException, IOException {
        List<Path> earlier = folder.earlierOutput();
        if (earlier.isEmpty()) {
            return;
        }
        String files = String.join(", ", names(earlier));
        String unfinished = checkpoints.exists() ? resumable() : null;
        String overwrite = "start afresh with --overwrite, which deletes its " + files + " and "
                + String.join(", ", CrawlFolder.SIDE_FILES) + " (no other file), or choose another output folder";
        throw new CheckpointException(unfinished != null
                ? dir + " holds a crawl that did not finish (" + unfinished + "): " + overwrite + "; or resume it: "
                        + ResumeCommand.of(program, dir)
                : dir + " holds the output of an earlier crawl (" + files + "); a new crawl would mix its pages"
                        + " with them: " + overwrite);
    }

    /** A new crawl that first deletes an earlier crawl's files in the folder ({@link CrawlFolder#clear()}). */
    public void beginAfresh() throws IOException {
        List<Path> earlier = folder.earlierOutput();
        if (earlier.isEmpty()) {
            return;
        }
        folder.clear();
        LOG.info("started afresh: deleted the earlier crawl's {} and {}", String.join(", ", names(earlier)),
                String.join(", ", CrawlFolder.SIDE_FILES));
    }

    /**
     * The checkpoint to go on from with {@code profile}: refused when it is missing, invalid or of a crawl that ran
     * out of URLs, when {@code profile} changes a key the checkpoint's profile fixes ({@link #changesOnResume}), or
     * when the crawl stopped at limits.max-pages and the limit (0 for none) is not raised. (A checkpoint an earlier
     * build marked finished at max-pages is resumable too.)
     */
    public Checkpoint goOn(CrawlProfile profile) throws CheckpointException {
        Checkpoint checkpoint = checkpoints.read();
        changesOnResume(dir, checkpoint.profile(), profile);
        long maxPages = profile.limits().maxPages();
        long decided = checkpoint.counters().decided();
        if (checkpoint.state() == Checkpoint.State.FINISHED && !"max-pages".equals(checkpoint.endReason())) {
            throw new CheckpointException("the crawl in " + dir + " already finished (" + checkpoint.endReason()
                    + ", " + decided + " URLs decided); there is nothing to resume");
        }
        if (maxPages > 0 && decided >= maxPages) {
            String where = "max-pages".equals(checkpoint.endReason())
                    ? "the crawl in " + dir + " stopped at limits.max-pages " + maxPages + " (" + decided
                            + " URLs decided)"
                    : "limits.max-pages " + maxPages + " is not above the " + decided + " URLs the crawl in " + dir
                            + " already decided";
            throw new CheckpointException(where + "; resume it with a higher limit (0 for none), e.g. "
                    + ResumeCommand.withHigherLimit(program, dir, decided));
        }
        return checkpoint;
    }

    /**
     * The keys whose values a resume of the crawl in {@code dir} changes, running with {@code wanted} instead of
     * {@code saved} (its checkpoint's profile): refused when one of them is fixed for a crawl ({@link OnResume}),
     * naming each such key with both values and why, and saying what to do instead.
     *
     * @throws CheckpointException naming the fixed keys changed, e.g. {@code scope.max-depth (20 in the checkpoint,
     *     3 given)}
     */
    public static List<ProfileChange> changesOnResume(Path dir, CrawlProfile saved, CrawlProfile wanted)
            throws CheckpointException {
        List<ProfileChange> changes = ProfileChange.between(saved, wanted);
        Map<OnResume, List<ProfileChange>> fixed = new TreeMap<>(changes.stream()
                .filter(change -> !change.mayChangeOnResume())
                .collect(Collectors.groupingBy(change -> change.key().onResume())));
        if (fixed.isEmpty()) {
            return changes;
        }
        List<String> reasons = new ArrayList<>();
        fixed.forEach((kind, keys) -> reasons.add(String.join(", ", keys.stream().map(change -> change.key().name()
                + " (" + change.before() + " in the checkpoint, " + change.after() + " given)").toList())
                + ": " + kind.why()));
        throw new CheckpointException("a resume of the crawl in " + dir + " cannot change " + String.join("; ",
                reasons) + ". Resume without changing " + (fixed.values().stream().mapToInt(List::size).sum() == 1
                        ? "it" : "them") + ", or start a new crawl with the new values, in another folder (--out)"
                + " or afresh in this one (--overwrite, which deletes its pages). A resume may change "
                + ProfileKeys.mayChangeOnResume());
    }

    /**
     * pages.jsonl and {@code stats} as the crawl of {@code checkpoint} left them: a partial last line a crash left
     * is cut off (with a warning); the counters are the checkpoint's, plus the records written after it, which
     * count again. Returns the URLs of those records: a URL the frontier journal notes completed since the
     * checkpoint but that has no record among them lost it, and is fetched again.
     *
     * <p>Records written before the checkpoint are known by their bytes alone (the checkpoint keeps their number
     * and pages.jsonl's length, not their URLs), so a pages.jsonl shorter than at the checkpoint, whose lost
     * records no resume could fetch again, is refused, saying how many records are missing and what to do; so is
     * a line after the checkpoint that is not a record.
     *
     * @throws CheckpointException naming pages.jsonl, what is wrong and what to do
     * @throws IOException naming pages.jsonl when it cannot be read or cut
     */
    public CompletedUrls restorePages(Checkpoint checkpoint, CrawlStats stats) throws CheckpointException,
            IOException {
        Path pages = dir.resolve(CrawlFolder.PAGES);
        boolean exists = Files.exists(pages, LinkOption.NOFOLLOW_LINKS) || Files.exists(pages);
        if (exists) {
            try {
                InputFile.requireRegularFile(pages, CrawlFolder.PAGES);
            } catch (InputFileException e) {
                throw new CheckpointException(e.getMessage() + "; the crawl in " + dir + " cannot be resumed");
            }
        }
        long cut = JsonlSink.cutPartialLine(pages);
        if (cut > 0) {
            LOG.warn("cut a partial last line of {} bytes off {}", cut, pages);
        }
        long length = exists ? Files.size(pages) : 0;
        if (length < checkpoint.pagesBytes()) {
            throw new CheckpointException(shorter(pages, exists, length, checkpoint));
        }
        stats.restore(checkpoint.counters());
        CompletedUrls recorded = CompletedUrls.none();
        try {
            JsonlSink.read(pages, checkpoint.pagesBytes(), record -> {
                stats.record(record);
                recorded.add(record.url());
            });
        } catch (JsonlSink.DamagedLine e) {
            throw new CheckpointException(e.getMessage() + ". A resume counts the records written after the last"
                    + " checkpoint (from byte " + checkpoint.pagesBytes() + ") again, and cannot count this line:"
                    + " delete it (its page is then fetched again) or repair it, and resume again", e);
        }
        return recorded;
    }

    /** Why a pages.jsonl shorter than at the checkpoint is refused: how many records are missing, what to do. */
    private String shorter(Path pages, boolean exists, long length, Checkpoint checkpoint) throws IOException {
        long[] present = {0};
        JsonlSink.Skipped damaged = exists ? JsonlSink.readSkipping(pages, record -> present[0]++)
                : new JsonlSink.Skipped(0, -1);
        long counted = checkpoint.counters().decided();
        long missing = counted - present[0];
        String what = (exists ? pages + " is " + length + " bytes long" : pages + " is missing")
                + ", shorter than the " + checkpoint.pagesBytes() + " bytes it had at the last checkpoint: "
                + (missing > 0 ? missing + " of the " + counted + " page records the checkpoint counted are missing"
                        : "it was changed since (it holds " + present[0] + " page records, the checkpoint counted "
                                + counted + ")")
                + (damaged.lines() > 0 ? " and " + damaged.lines() + " lines are not records" : "");
        return what + ". A resume would go on without them: their URLs are marked seen in the Sieve and would not"
                + " be fetched again, so the crawl's output would lack them for good; it is refused. Put the whole "
                + CrawlFolder.PAGES + " back and resume, or start the crawl afresh with --overwrite";
    }

    /** How far the crawl of the folder's checkpoint got, if it can be resumed; null if it finished. */
    private String resumable() {
        try {
            Checkpoint checkpoint = checkpoints.read();
            if (checkpoint.state() == Checkpoint.State.FINISHED) {
                return null;
            }
            return (checkpoint.endReason() == null ? "killed or crashed" : checkpoint.endReason()) + ", "
                    + checkpoint.counters().decided() + " URLs decided";
        } catch (CheckpointException e) {
            return "its checkpoint is unreadable: " + e.getMessage();
        }
    }

    private List<String> names(List<Path> files) {
        return files.stream().map(f -> dir.relativize(f) + (Files.isDirectory(f) ? "/" : "")).toList();
    }
}
