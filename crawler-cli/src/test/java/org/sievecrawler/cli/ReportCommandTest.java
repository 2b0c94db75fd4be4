package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.fixtures.FixtureSite.linkPage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        assertThat(report.out().strip()).isEqualTo(out.resolve("report.html").toString());
        assertThat(out.resolve("report.html")).content().contains("\"records\":3");
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
