package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.cli.demo.DemoSite;
import org.sievecrawler.fixtures.PathMistakes;

class DemoCommandTest {
    @TempDir
    Path dir;

    @Test
    void crawlsTheDemoSiteAndLeavesPagesJsonl() throws Exception {
        Path out = dir.resolve("demo-out");

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of()), "demo", "--out", out.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("demo site: http://127\\.0\\.0\\.1:\\d+/")
                .contains("output folder: " + out.toAbsolutePath(), "crawl finished:", "demo site stopped");
        assertThat(out.resolve("pages.jsonl")).isNotEmptyFile();
        List<String> lines = Files.readAllLines(out.resolve("pages.jsonl"));
        assertThat(lines.stream().filter(line -> line.contains("\"outcome\":\"fetched\"")))
                .hasSize(DemoSite.pageCount());
        assertThat(lines).anySatisfy(line -> assertThat(line).contains("\"status\":404"))
                .anySatisfy(line -> assertThat(line).contains("\"status\":301"))
                .anySatisfy(line -> assertThat(line).contains("\"outcome\":\"robots-disallowed\""));
        assertThat(out.resolve("summary.json")).isNotEmptyFile();
        assertThat(out.resolve("crawl.log")).content().contains("crawl finished:");
    }

    @Test
    void aTemporaryFolderThatCannotBeMadeIsToldInWordsWithExitCodeOne() throws Exception {
        Path missing = dir.resolve("no-such-tmp");
        ChildCrawler child = new ChildCrawler(dir.resolve("child.log"));

        Process demo = child.start(List.of("-Djava.io.tmpdir=" + missing), "demo", "-q");

        assertThat(demo.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(demo.exitValue()).as(child.output()).isEqualTo(1);
        assertThat(child.output()).startsWith("demo: " + missing.resolve("sieve-demo-"))
                .endsWith(": no such file or folder" + System.lineSeparator())
                .doesNotContainPattern(PathMistakes.JAVA_NAME).doesNotContain("\tat ");
    }
}
