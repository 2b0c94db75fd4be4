package org.sievecrawler.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.frontier.FrontierState;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.progress.CrawlCounters;
import org.sievecrawler.progress.CrawlStats;
import org.sievecrawler.sieve.BloomFilter;
import org.sievecrawler.sieve.SpillPosition;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

class CrawlStartTest {
    private static final PageRecord REFUSED = PageRecord.refused("http://b.test/", Outcome.ROBOTS_DISALLOWED, 0,
            null, null);

    @TempDir
    Path dir;

    private CheckpointStore checkpoints() {
        return new CheckpointStore(dir);
    }

    private static Checkpoint checkpoint(Checkpoint.State state, String endReason, long decided, long pagesBytes) {
        return new Checkpoint(state, endReason, CrawlProfile.defaults(), new FrontierState(
                List.of(BloomFilter.create(1_000, 0.01)), List.of(), new SpillPosition(0, 0, 0, 0, 0), 0),
                new CrawlCounters(decided, 0, 0, Map.of(), Map.of(), Map.of(), 0, 0), pagesBytes);
    }

    @Test
    void cutsAPartialLastLineAndCountsTheRecordsWrittenAfterTheCheckpointAgain() throws IOException {
        Path pages = dir.resolve(CrawlFolder.PAGES);
        long atCheckpoint;
        try (JsonlSink sink = JsonlSink.open(pages)) {
            sink.accept(REFUSED);
            atCheckpoint = sink.length();
            sink.accept(REFUSED);
        }
        long whole = Files.size(pages);
        Files.writeString(pages, "{\"url\":\"http://half", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        CrawlStats stats = new CrawlStats();

        new CrawlStart(dir, "crawl", checkpoints()).restorePages(checkpoint(Checkpoint.State.RUNNING, null, 7,
                atCheckpoint), stats);

        assertThat(Files.size(pages)).isEqualTo(whole);
        assertThat(stats.decided()).isEqualTo(8);
        assertThat(stats.count(Outcome.ROBOTS_DISALLOWED)).isEqualTo(1);
    }

    @Test
    void goesOnOnlyWithALimitAboveWhatTheCrawlDecided() throws Exception {
        checkpoints().write(checkpoint(Checkpoint.State.STOPPED, "max-pages", 2, 0));
        CrawlStart start = new CrawlStart(dir, "crawl", checkpoints());

        assertThatThrownBy(() -> start.goOn(2)).isInstanceOf(CheckpointException.class)
                .hasMessage("the crawl in " + dir + " stopped at limits.max-pages 2 (2 URLs decided); resume it"
                        + " with a higher limit, e.g. crawler crawl --resume " + dir + " --max-pages 4 (0 for none)");
        assertThat(start.goOn(3).counters().decided()).isEqualTo(2);
        assertThat(start.goOn(0).counters().decided()).isEqualTo(2);
    }

    @Test
    void beginsAfreshDeletingTheEarlierCrawlsFilesOnly() throws Exception {
        Files.writeString(dir.resolve(CrawlFolder.PAGES), "");
        Files.writeString(dir.resolve("notes.txt"), "mine");
        CrawlStart start = new CrawlStart(dir, "crawl", checkpoints());

        assertThatThrownBy(start::begin).isInstanceOf(CheckpointException.class)
                .hasMessage(dir + " holds the output of an earlier crawl (pages.jsonl); a new crawl would mix its"
                        + " pages with them: start afresh with --overwrite, which deletes its pages.jsonl and"
                        + " crawl.log, progress.jsonl, report.html (no other file), or choose another output folder");
        start.beginAfresh();

        assertThat(dir.resolve(CrawlFolder.PAGES)).doesNotExist();
        assertThat(dir.resolve("notes.txt")).exists();
        start.begin();
    }
}
