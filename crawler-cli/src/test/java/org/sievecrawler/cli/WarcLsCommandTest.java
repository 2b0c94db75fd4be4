package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.fixtures.FixtureSite.linkPage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.escape.ControlCharacters;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.fixtures.HostileText;

class WarcLsCommandTest {
    @TempDir
    Path dir;

    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSiteAndResetLogging() {
        site.close();
        LogSetup.configure(0, LogSetup.Format.text);
    }

    /** Crawls a three-page site (one page missing) with {@code crawl --warc}; the one WARC file it wrote. */
    private Path crawlWithWarc() throws IOException {
        site.page("/", linkPage("home", "/a", "/gone")).page("/a", linkPage("a"));
        Path out = dir.resolve("out");
        CommandRun crawl = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--warc", "--delay", "0ms",
                "--out", out.toString(), site.url("/"));
        assertThat(crawl.exit()).as(crawl.err()).isZero();
        assertThat(crawl.out()).contains("WARC files " + out.resolve("crawl-*.warc.gz"));
        try (Stream<Path> files = Files.list(out)) {
            List<Path> warcs = files.filter(f -> f.toString().endsWith(".warc.gz")).toList();
            assertThat(warcs).hasSize(1);
            return warcs.get(0);
        }
    }

    /**
     * A zstd bomb: a .warc.zst of a few kilobytes whose one frame holds a record of 512 MB of zeros. The listing, in a
     * child JVM of 64 MB of heap, checks and parses the frame as a stream (it held the frame's content whole: an
     * OutOfMemoryError with a stack trace).
     */
    @Test
    void listsAZstdFrameOfHalfAGigabyteInA64MbHeap() throws Exception {
        Path bomb = dir.resolve("bomb.warc.zst");
        long zeros = 512L << 20;
        try (var zstd = new com.github.luben.zstd.ZstdOutputStream(Files.newOutputStream(bomb), 3)) {
            zstd.write(("WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-"
                    + "000000000001>\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: http://a.test/zeros\r\n"
                    + "Content-Type: application/octet-stream\r\nContent-Length: " + zeros + "\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            byte[] chunk = new byte[1 << 20];
            for (long left = zeros; left > 0; left -= chunk.length) {
                zstd.write(chunk);
            }
            zstd.write("\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        assertThat(Files.size(bomb)).isLessThan(1 << 20);
        ChildCrawler child = new ChildCrawler(dir.resolve("child.log"), "-Xmx64m");

        Process ls = child.start("warc", "ls", bomb.toString());

        assertThat(ls.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as(child.output()).isTrue();
        assertThat(ls.exitValue()).as(child.output()).isZero();
        assertThat(child.output()).contains("resource", Long.toString(zeros), "http://a.test/zeros", "1 records")
                .doesNotContain("OutOfMemoryError");
    }

    @Test
    void listsEveryRecordOfACrawlsWarcFile() throws IOException {
        Path warc = crawlWithWarc();

        CommandRun run = CommandRun.execute("warc", "ls", warc.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(0)).matches(" +OFFSET  TYPE +STATUS +LENGTH  URI");
        assertThat(lines.get(1)).matches(" +0  warcinfo +- +\\d+  -");
        assertThat(lines).anyMatch(l -> l.matches(" +\\d+  response +200 +\\d+  " + site.url("/a")))
                .anyMatch(l -> l.matches(" +\\d+  request +- +\\d+  " + site.url("/a")))
                .anyMatch(l -> l.matches(" +\\d+  response +404 +\\d+  " + site.url("/robots.txt")))
                .anyMatch(l -> l.matches(" +\\d+  response +404 +\\d+  " + site.url("/gone")));
        assertThat(lines.get(lines.size() - 1)).isEqualTo("9 records"); // warcinfo, 4 responses, 4 requests
        assertThat(run.err()).isEmpty();
    }

    @Test
    void listsTheRecordsOfAZstdWarcFileWithTheOffsetsOfTheirFrames() throws IOException {
        site.page("/", linkPage("home", "/a")).page("/a", linkPage("a"));
        Path out = dir.resolve("out");
        CommandRun crawl = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--warc", "--delay", "0ms",
                "--set", "output.warc-compression=zstd", "--out", out.toString(), site.url("/"));
        assertThat(crawl.exit()).as(crawl.err()).isZero();
        assertThat(crawl.out()).contains("WARC files " + out.resolve("crawl-*.warc.zst"));
        Path warc;
        try (Stream<Path> files = Files.list(out)) {
            warc = files.filter(f -> f.toString().endsWith(".warc.zst")).findFirst().orElseThrow();
        }

        CommandRun run = CommandRun.execute("warc", "ls", warc.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(1)).matches(" +0  warcinfo +- +\\d+  -");
        assertThat(lines).anyMatch(l -> l.matches(" +\\d+  response +200 +\\d+  " + site.url("/a")))
                .anyMatch(l -> l.matches(" +\\d+  request +- +\\d+  " + site.url("/a")));
        assertThat(lines.get(lines.size() - 1)).isEqualTo("7 records"); // warcinfo, 3 responses, 3 requests
        assertThat(run.err()).isEmpty();
    }

    @Test
    void listsARevisitRecordWithItsStatusWhenDedupIsOn() throws IOException {
        byte[] same = new byte[4096];
        new java.util.Random(29).nextBytes(same);
        site.page("/", linkPage("home", "/a.bin", "/b.bin"))
                .respond("/a.bin", com.github.tomakehurst.wiremock.client.WireMock.aResponse().withBody(same))
                .respond("/b.bin", com.github.tomakehurst.wiremock.client.WireMock.aResponse().withBody(same));
        Path out = dir.resolve("out");
        CommandRun crawl = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--warc", "--delay", "0ms",
                "--set", "output.warc-dedup=true", "--out", out.toString(), site.url("/"));
        assertThat(crawl.exit()).as(crawl.err()).isZero();

        CommandRun run = CommandRun.execute("warc", "ls", out.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines).filteredOn(l -> l.matches(" +\\d+  revisit +200 +\\d+  " + site.origin() + "/[ab]\\.bin"))
                .hasSize(1);
        assertThat(lines).filteredOn(l -> l.matches(" +\\d+  response +200 +\\d+  " + site.origin()
                + "/[ab]\\.bin")).hasSize(1);
        assertThat(run.err()).isEmpty();
    }

    @Test
    void listsTheWholeRecordsOfACutFileThenSaysWhereItStoppedAndExitsOne() throws IOException {
        Path warc = crawlWithWarc();
        long size = Files.size(warc);
        try (FileChannel channel = FileChannel.open(warc, StandardOpenOption.WRITE)) {
            channel.truncate(size - 30); // into the last record's gzip member
        }

        CommandRun run = CommandRun.execute("warc", "ls", warc.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out().lines().count()).isEqualTo(9); // the heading and 8 whole records
        assertThat(run.err()).startsWith("warc ls: " + warc + ": stopped at offset ")
                .contains("after 8 whole records").doesNotContain("\tat ");
    }

    @Test
    void aMissingFileIsAUsageErrorWithExitCodeTwo() {
        CommandRun run = CommandRun.execute("warc", "ls", dir.resolve("absent.warc.gz").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo("warc ls: " + dir.resolve("absent.warc.gz") + ": no such file");
    }

    @Test
    void aFileThatIsNotAWarcIsAUsageErrorWithExitCodeTwo() throws IOException {
        Path notes = Files.writeString(dir.resolve("notes.txt"), "shopping list\n");
        Path empty = Files.createFile(dir.resolve("empty.warc"));

        CommandRun text = CommandRun.execute("warc", "ls", notes.toString());
        CommandRun nothing = CommandRun.execute("warc", "ls", empty.toString());

        assertThat(text.exit()).isEqualTo(2);
        assertThat(text.err()).startsWith("warc ls: " + notes + " is not a WARC file: no WARC record at its start (")
                .doesNotContain("\tat ");
        assertThat(text.out()).isEmpty();
        assertThat(nothing.exit()).isEqualTo(2);
        assertThat(nothing.err().strip()).isEqualTo("warc ls: " + empty + " is not a WARC file: it is empty");
    }

    /**
     * WARC files from elsewhere whose record type and target URI hold the control-character payloads of
     * {@code escape/control-characters.tsv} (ESC [2J, an OSC title, C1...), one file each: jwarc refuses most of them
     * (a control character in a header field) and the error shows them escaped; those it reads (C1, as UTF-8) are
     * listed with the type escaped. Either way no control character reaches the terminal.
     */
    @Test
    void showsRecordFieldsWithTheirControlCharactersEscaped() throws IOException {
        int listed = 0;
        for (HostileText.Controls payload : HostileText.controlCharacters()) {
            if (payload.text().contains("\r") || payload.text().contains("\n")) {
                continue; // a line break ends the field: the rest is another field, or no WARC
            }
            String record = "WARC/1.1\r\nWARC-Type: resource" + payload.text()
                    + "\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\n"
                    + "WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: http://a.test/" + payload.text()
                    + "\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
            Path warc = Files.writeString(dir.resolve(payload.name() + ".warc"), record,
                    java.nio.charset.StandardCharsets.UTF_8);

            CommandRun run = CommandRun.execute("warc", "ls", warc.toString());

            assertThat((run.out() + run.err()).chars().filter(ch -> ch != '\n' && ControlCharacters.isControl(ch)))
                    .as(payload.name()).isEmpty();
            if (run.exit() == 0) {
                // the URI is shown only when it parses as one, which no control character does
                assertThat(run.out()).as(payload.name()).contains("resource" + payload.escaped(), "1 records");
                listed++;
            } else {
                assertThat(run.exit()).as(payload.name()).isEqualTo(2);
                assertThat(run.err()).as(payload.name()).contains("is not a WARC file");
            }
        }
        assertThat(listed).as("payloads jwarc reads, listed escaped").isPositive();
    }

    /** A crawl whose WARC files are cut at 4 KB: several files; the crawl's folder. */
    private Path crawlWithSeveralWarcFiles() {
        site.page("/", linkPage("home", "/a", "/b", "/c")).page("/a", linkPage("a")).page("/b", linkPage("b"))
                .page("/c", linkPage("c"));
        Path out = dir.resolve("out");
        CommandRun crawl = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--warc", "--delay", "0ms",
                "--set", "output.warc-max-size=4KB", "--out", out.toString(), site.url("/"));
        assertThat(crawl.exit()).as(crawl.err()).isZero();
        return out;
    }

    private static List<Path> warcFiles(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.toString().endsWith(".warc.gz")).sorted().toList();
        }
    }

    /** {@code warc ls out/*.warc.gz}, as the shell expands it, and {@code warc ls out}: each file after its name. */
    @Test
    void listsSeveralFilesOrAFoldersWarcFilesInNameOrderEachAfterItsName() throws IOException {
        Path out = crawlWithSeveralWarcFiles();
        List<Path> warcs = warcFiles(out);
        assertThat(warcs).hasSizeGreaterThan(1);
        String[] args = Stream.concat(Stream.of("warc", "ls"), warcs.stream().map(Path::toString))
                .toArray(String[]::new);

        CommandRun files = CommandRun.execute(args);
        CommandRun folder = CommandRun.execute("warc", "ls", out.toString());

        assertThat(files.exit()).as(files.err()).isZero();
        assertThat(folder.out()).isEqualTo(files.out());
        assertThat(folder.exit()).isZero();
        List<String> lines = files.out().lines().toList();
        long records = 0;
        for (Path warc : warcs) {
            int at = lines.indexOf(warc + ":");
            assertThat(at).as(warc + " named").isNotNegative();
            assertThat(lines.get(at + 1)).matches(" +OFFSET  TYPE +STATUS +LENGTH  URI");
            assertThat(lines.get(at + 2)).matches(" +0  warcinfo +- +\\d+  -");
            CommandRun one = CommandRun.execute("warc", "ls", warc.toString());
            assertThat(files.out()).contains(warc + ":" + System.lineSeparator() + one.out());
            records += Long.parseLong(one.out().lines().reduce((a, b) -> b).orElseThrow().split(" ")[0]);
        }
        assertThat(lines.get(lines.size() - 1)).isEqualTo(records + " records in " + warcs.size() + " files");
        assertThat(lines.stream().filter(line -> line.matches(" +\\d+  response +200 +\\d+  .*"))).hasSize(4);
    }

    @Test
    void listsTheFilesItCanAndExitsWithTheWorstCodeNamingTheOthers() throws IOException {
        Path out = crawlWithSeveralWarcFiles();
        Path first = warcFiles(out).get(0);
        Path absent = dir.resolve("absent.warc.gz");

        CommandRun run = CommandRun.execute("warc", "ls", first.toString(), absent.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.out()).contains(first + ":", "warcinfo", absent + ":");
        assertThat(run.err().strip()).isEqualTo("warc ls: " + absent + ": no such file");
    }

    @Test
    void aFolderWithoutWarcFilesIsAUsageErrorWithExitCodeTwo() {
        CommandRun run = CommandRun.execute("warc", "ls", dir.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo("warc ls: " + dir + " is a folder without WARC files (.warc.gz,"
                + " .warc.zst, .warc); give WARC files or a folder that holds some");
    }

    @Test
    void warcWithoutASubcommandIsAUsageError() {
        CommandRun run = CommandRun.execute("warc");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Usage: crawler warc", "ls");
    }
}
