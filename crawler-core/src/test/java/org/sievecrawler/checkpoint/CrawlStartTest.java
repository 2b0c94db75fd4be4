package org.sievecrawler.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.TsvTable;
import org.sievecrawler.frontier.CompletedUrls;
import org.sievecrawler.frontier.FrontierState;
import okhttp3.tls.HeldCertificate;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileChange;
import org.sievecrawler.profile.ProfileKey;
import org.sievecrawler.profile.ProfileKeys;
import org.sievecrawler.profile.ProfileOverrides;
import org.sievecrawler.progress.CrawlCounters;
import org.sievecrawler.progress.CrawlStats;
import org.sievecrawler.shell.Program;
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
    void cutsAPartialLastLineAndCountsTheRecordsWrittenAfterTheCheckpointAgain() throws Exception {
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

        new CrawlStart(dir, "crawl", checkpoints(), Program.CRAWLER).restorePages(checkpoint(Checkpoint.State.RUNNING, null, 7,
                atCheckpoint), stats);

        assertThat(Files.size(pages)).isEqualTo(whole);
        assertThat(stats.decided()).isEqualTo(8);
        assertThat(stats.count(Outcome.ROBOTS_DISALLOWED)).isEqualTo(1);
    }

    @Test
    void goesOnOnlyWithALimitAboveWhatTheCrawlDecided() throws Exception {
        checkpoints().write(checkpoint(Checkpoint.State.STOPPED, "max-pages", 2, 0));
        CrawlStart start = new CrawlStart(dir, "crawl", checkpoints(), Program.of("crawler-cli/target/crawler"));

        assertThatThrownBy(() -> start.goOn(maxPages(2))).isInstanceOf(CheckpointException.class)
                .hasMessage("the crawl in " + dir + " stopped at limits.max-pages 2 (2 URLs decided); resume it"
                        + " with a higher limit (0 for none), e.g. crawler-cli/target/crawler crawl --resume " + dir
                        + " --max-pages 4");
        assertThat(start.goOn(maxPages(3)).counters().decided()).isEqualTo(2);
        assertThat(start.goOn(maxPages(0)).counters().decided()).isEqualTo(2);
    }

    /** The profile a resume of the crawl in {@link #dir} runs with, its limits.max-pages {@code limit}. */
    private CrawlProfile maxPages(long limit) {
        CrawlProfile profile = inFolder(CrawlProfile.defaults());
        return profile.with(LIMITS_MAX_PAGES, limit);
    }

    @Test
    void beginsAfreshDeletingTheEarlierCrawlsFilesOnly() throws Exception {
        Files.writeString(dir.resolve(CrawlFolder.PAGES), "");
        Files.writeString(dir.resolve("notes.txt"), "mine");
        CrawlStart start = new CrawlStart(dir, "crawl", checkpoints(), Program.CRAWLER);

        assertThatThrownBy(start::begin).isInstanceOf(CheckpointException.class)
                .hasMessage(dir + " holds the output of an earlier crawl (pages.jsonl); a new crawl would mix its"
                        + " pages with them: start afresh with --overwrite, which deletes its pages.jsonl and"
                        + " crawl.log, progress.jsonl, report.html, audit.json, changes.jsonl, rules.jsonl (no other file), or choose another output folder");
        start.beginAfresh();

        assertThat(dir.resolve(CrawlFolder.PAGES)).doesNotExist();
        assertThat(dir.resolve("notes.txt")).exists();
        start.begin();
    }

    static Stream<Arguments> changes() throws IOException {
        return TsvTable.rows("/resume/changes.tsv", 2).stream().map(row -> Arguments.of(row.cell(0), row));
    }

    /**
     * The payload table {@code /resume/changes.tsv} (src-test-fixtures): a resume of a crawl started with the
     * built-in defaults sets one key; a key a resume may change goes on with it, a fixed one is refused, naming it,
     * both values and why.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void letsAResumeChangeAKeyOrRefusesItAsTheTableSays(String setting, TsvTable.Row row) throws Exception {
        Path pem = Files.writeString(dir.resolve("ca.pem"), new HeldCertificate.Builder().certificateAuthority(0)
                .build().certificatePem());
        CrawlProfile saved = inFolder(CrawlProfile.defaults());
        CrawlProfile wanted = new ProfileOverrides().set(setting.replace("{ca.pem}", pem.toString()))
                .applyTo(saved);
        String result = row.cell(1);

        if (result.equals("goes on")) {
            assertThat(CrawlStart.changesOnResume(dir, saved, wanted)).as(row.where()).singleElement()
                    .satisfies(change -> assertThat(setting).startsWith(change.key().name() + "="));
        } else {
            assertThat(catchThrowable(() -> CrawlStart.changesOnResume(dir, saved, wanted))).as(row.where())
                    .isInstanceOf(CheckpointException.class).message()
                    .startsWith("a resume of the crawl in " + dir + " cannot change "
                            + result.substring("refused ".length()).replace("{dir}", dir.toString()) + ". ");
        }
    }

    @Test
    void theTableOfChangesOnResumeHasARowForEveryKey() throws IOException {
        List<String> keys = TsvTable.cells("/resume/changes.tsv", 2).stream()
                .map(cells -> cells[0].substring(0, cells[0].indexOf('='))).toList();

        assertThat(keys).containsExactlyElementsOf(ProfileKeys.all().stream().map(ProfileKey::name).toList());
    }

    @Test
    void refusesAResumeChangingFixedKeysNamingEachWithWhyAndWhatToDo() {
        CrawlProfile saved = inFolder(CrawlProfile.defaults());
        CrawlProfile wanted = new ProfileOverrides().set("scope.max-depth=3").set("politeness.delay=200ms")
                .set("sieve.expected-urls=1000").set("parse.follow-nofollow=true").applyTo(saved);

        assertThatThrownBy(() -> CrawlStart.changesOnResume(dir, saved, wanted))
                .isInstanceOf(CheckpointException.class)
                .hasMessage("a resume of the crawl in " + dir + " cannot change scope.max-depth (-1 in the"
                        + " checkpoint, 3 given), parse.follow-nofollow (false in the checkpoint, true given): the keys"
                        + " that decide which URLs the crawl takes are fixed, as the URLs already decided stay decided"
                        + " by the old values; sieve.expected-urls (10000000 in the checkpoint, 1000 given): the keys"
                        + " that size the Sieve are fixed, as the checkpoint holds its filters and pending URLs as"
                        + " they were built. Resume without changing them, or start a new crawl with the new values,"
                        + " in another folder (--out) or afresh in this one (--overwrite, which deletes its pages)."
                        + " A resume may change limits.*, fetch.* (not accept, allow-private-addresses),"
                        + " politeness.* (not respect-robots), progress.*, checkpoint.* and name");
    }

    @Test
    void goesOnWithThePolitenessAndThreadsAResumeChangesAndTheirValues() throws Exception {
        checkpoints().write(checkpoint(Checkpoint.State.STOPPED, "stopped", 2, 0));
        CrawlProfile wanted = new ProfileOverrides().set("politeness.delay=200ms").set("fetch.threads=8")
                .applyTo(inFolder(CrawlProfile.defaults()));

        Checkpoint checkpoint = new CrawlStart(dir, "crawl", checkpoints(), Program.CRAWLER).goOn(wanted);

        assertThat(ProfileChange.between(checkpoint.profile(), wanted)).extracting(ProfileChange::toString)
                .containsExactly("fetch.threads 16 -> 8", "politeness.delay 1s -> 200ms");
    }

    @Test
    void goOnRefusesAChangeOfAFixedKeyBeforeTheLimitsAreLookedAt() throws Exception {
        checkpoints().write(checkpoint(Checkpoint.State.STOPPED, "max-pages", 2, 0));
        CrawlProfile wanted = new ProfileOverrides().set("scope.max-depth=3").applyTo(inFolder(CrawlProfile.defaults()));

        assertThatThrownBy(() -> new CrawlStart(dir, "crawl", checkpoints(), Program.CRAWLER).goOn(wanted))
                .isInstanceOf(CheckpointException.class)
                .hasMessageStartingWith("a resume of the crawl in " + dir + " cannot change scope.max-depth (-1 in"
                        + " the checkpoint, 3 given)");
    }

    /** {@code profile} with its output in {@link #dir}, as a checkpoint of the crawl there gives it back. */
    private CrawlProfile inFolder(CrawlProfile profile) {
        return profile.with(OUTPUT_DIR, dir);
    }

    static Stream<Arguments> damages() throws IOException {
        return TsvTable.rows("/bounds/resume-damage.tsv", 3).stream().map(row -> Arguments.of(row.cell(0), row));
    }

    /**
     * The payload table {@code /bounds/resume-damage.tsv} (src-test-fixtures): a pages.jsonl of 6 records, the
     * checkpoint counting the first 4, damaged as the row says; the resume counts the records after the checkpoint
     * again and returns their URLs, or is refused with the row's message.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("damages")
    void restoresOrRefusesADamagedPagesFileAsTheTableSays(String name, TsvTable.Row row) throws Exception {
        Path pages = dir.resolve(CrawlFolder.PAGES);
        long[] starts = new long[7];
        try (JsonlSink sink = JsonlSink.open(pages)) {
            for (int i = 1; i <= 6; i++) {
                starts[i - 1] = sink.length();
                sink.accept(PageRecord.refused("http://a.test/" + i, Outcome.ROBOTS_DISALLOWED, 0, null, null));
            }
            starts[6] = sink.length();
        }
        long atCheckpoint = starts[4];
        long end = damage(row.cell(1), pages, starts);
        CrawlStats stats = new CrawlStats();
        CrawlStart start = new CrawlStart(dir, "crawl", checkpoints(), Program.CRAWLER);
        Checkpoint checkpoint = checkpoint(Checkpoint.State.RUNNING, null, 4, atCheckpoint);
        String result = row.cell(2);

        if (result.startsWith("counted ")) {
            int counted = Integer.parseInt(result.substring("counted ".length()));
            CompletedUrls recorded = start.restorePages(checkpoint, stats);
            assertThat(stats.decided()).as(row.where()).isEqualTo(4 + counted);
            assertThat(recorded.size()).as(row.where()).isEqualTo(counted);
            for (int i = 5; i <= 6; i++) {
                assertThat(recorded.contains("http://a.test/" + i)).as(row.where() + " record " + i)
                        .isEqualTo(i - 4 <= counted);
            }
        } else {
            Throwable refused = catchThrowable(() -> start.restorePages(checkpoint, stats));
            String message = result.substring("refused ".length()).replace("{pages}", pages.toString())
                    .replace("{dir}", dir.toString()).replace("{checkpoint}", Long.toString(atCheckpoint))
                    .replace("{end}", Long.toString(end))
                    .replace("{length}", Long.toString(Files.isRegularFile(pages) ? Files.size(pages) : -1));
            assertThat(refused).as(row.where()).isInstanceOf(CheckpointException.class).message()
                    .startsWith(message);
        }
    }

    /** Damages {@code pages} as {@code damage} names (see the table); returns its length before a line appended. */
    private static long damage(String damage, Path pages, long[] starts) throws IOException {
        long end = Files.size(pages);
        switch (damage) {
            case "none" -> { }
            case "append-partial" -> append(pages, "{\"url\":\"http://half".getBytes(StandardCharsets.UTF_8));
            case "cut-last-bytes" -> truncate(pages, end - 5);
            case "cut-at-checkpoint" -> truncate(pages, starts[4]);
            case "cut-after-2-records" -> truncate(pages, starts[2]);
            case "cut-in-third-record" -> truncate(pages, starts[2] + 10);
            case "delete" -> Files.delete(pages);
            case "empty" -> truncate(pages, 0);
            case "symlink-dev-zero" -> {
                Assumptions.assumeTrue(Files.exists(Path.of("/dev/zero")), "no /dev/zero on this machine");
                Files.delete(pages);
                Files.createSymbolicLink(pages, Path.of("/dev/zero"));
            }
            case "directory" -> {
                Files.delete(pages);
                Files.createDirectory(pages);
            }
            case "append-garbage" -> append(pages, "garbage\n".getBytes(StandardCharsets.UTF_8));
            case "append-2mib-line" -> append(pages, ("x".repeat(2 << 20) + "\n").getBytes(StandardCharsets.UTF_8));
            case "append-latin1-record" -> append(pages, ("{\"url\":\"http://a.test/7\",\"outcome\":\"fetched\","
                    + "\"title\":\"caf\u00e9\"}\n").getBytes(StandardCharsets.ISO_8859_1));
            case "append-record-without-url" -> append(pages, "{\"outcome\":\"fetched\"}\n"
                    .getBytes(StandardCharsets.UTF_8));
            case "insert-garbage-at-checkpoint" -> {
                byte[] whole = Files.readAllBytes(pages);
                truncate(pages, starts[4]);
                append(pages, "garbage\n".getBytes(StandardCharsets.UTF_8));
                append(pages, java.util.Arrays.copyOfRange(whole, (int) starts[4], whole.length));
            }
            default -> throw new IllegalArgumentException("no damage named " + damage);
        }
        return end;
    }

    private static void append(Path file, byte[] bytes) throws IOException {
        Files.write(file, bytes, StandardOpenOption.APPEND);
    }

    private static void truncate(Path file, long length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(length);
        }
    }
}
