package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.fixtures.FixtureSite.linkPage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FixtureSite;

class ReportCommandTest {
    @TempDir
    Path dir;

    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSiteAndResetLogging() {
        site.close();
        LogSetup.configure(0, LogSetup.Format.text);
    }

    @Test
    void aCrawlWritesItsReportAndTheCommandWritesItAgain() throws IOException {
        site.page("/", linkPage("home", "/a", "/gone")).page("/a", linkPage("a"));
        Path out = dir.resolve("out");
        CommandRun crawl = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--delay", "0ms",
                "--out", out.toString(), site.url("/"));
        assertThat(crawl.exit()).as(crawl.err()).isZero();
        assertThat(out.resolve("report.html")).content().contains("Chart.js v4.6.1", "\"records\":3");
        assertThat(Files.readAllLines(out.resolve("progress.jsonl"))).isNotEmpty();
        Files.delete(out.resolve("report.html"));

        CommandRun report = CommandRun.execute("report", out.toString());

        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(report.out().lines()).containsExactly(out.resolve("audit.json").toString(),
                out.resolve("report.html").toString());
        assertThat(out.resolve("report.html")).content().contains("\"records\":3");
    }

    @Test
    void aTitleWithAnUnpairedSurrogateIsRecordedAsValidUtf8AndTheCrawlIsReported() throws IOException {
        // the page: "&#xD800;" is the unpaired surrogate U+D800 in the title the parser gives
        site.page("/", "<html><head><title>&#xD800;x lone</title></head><body><a href=\"/a\">a</a></body></html>")
                .page("/a", linkPage("a"));
        Path out = dir.resolve("out");
        CommandRun crawl = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--delay", "0ms",
                "--out", out.toString(), site.url("/"));
        assertThat(crawl.exit()).as(crawl.err()).isZero();

        byte[] pages = Files.readAllBytes(out.resolve("pages.jsonl"));
        StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(pages));
        assertThat(new String(pages, StandardCharsets.UTF_8)).contains("\"title\":\"\ufffdx lone\"")
                .doesNotContainIgnoringCase("\\uD800");
        CommandRun report = CommandRun.execute("report", out.toString());
        assertThat(report.exit()).as(report.err()).isZero();
    }

    @Test
    void aPagesJsonlWithBytesThatAreNotUtf8IsReported() throws IOException {
        site.page("/", linkPage("home", "/a")).page("/a", linkPage("a"));
        Path out = dir.resolve("out");
        CommandRun crawl = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--delay", "0ms",
                "--out", out.toString(), site.url("/"));
        assertThat(crawl.exit()).as(crawl.err()).isZero();
        // a line an older build wrote (the escape of an unpaired surrogate), then bytes that are not UTF-8
        Files.write(out.resolve("pages.jsonl"), ("{\"url\":\"http://b.test/\",\"outcome\":\"fetched\",\"title\":"
                + "\"\\uD800x\"}\n{\"url\":\"http://c.test/\",\"outcome\":\"error\",\"error\":\"\u00ff\u00ed\u00a0\u0080\"}\n")
                .getBytes(StandardCharsets.ISO_8859_1), StandardOpenOption.APPEND);

        CommandRun report = CommandRun.execute("report", out.toString());

        assertThat(report.exit()).as(report.err()).isZero(); // was 1: "report: Input length = 1"
        assertThat(report.err()).isEmpty();
        assertThat(out.resolve("report.html")).content(StandardCharsets.UTF_8)
                .contains("\"records\":4,\"unreadableLines\":0");
    }

    @Test
    void aFolderWithoutPagesJsonlIsAUsageError() {
        CommandRun report = CommandRun.execute("report", dir.toString());

        assertThat(report.exit()).isEqualTo(CrawlerCommand.USAGE);
        assertThat(report.err().strip()).isEqualTo("report: " + dir + " is not a crawl's output folder: it has no"
                + " pages.jsonl");
        assertThat(dir.resolve("report.html")).doesNotExist();
    }
}
