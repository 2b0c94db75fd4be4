package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CrawlerCommandTest {

    @Test
    void helpListsTheExitCodes() {
        CommandRun run = CommandRun.execute("--help");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("Usage: crawler", "Exit codes:", "usage or profile error",
                "stopped by Ctrl-C", "crawl", "demo", "profile", "sieve-plan", "warc", "cluster");
    }

    @ParameterizedTest
    @ValueSource(strings = {"crawl", "demo", "profile", "profile check", "sieve-plan", "warc", "warc ls",
        "cluster", "cluster init"})
    void everyCommandHasHelpWithItsExitCodes(String command) {
        String[] args = (command + " --help").split(" ");

        CommandRun run = CommandRun.execute(args);

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("Usage: crawler " + command, "Exit codes:", " 0 ", " 2 ", "usage");
    }

    @Test
    void crawlHelpListsEveryExitCode() {
        CommandRun run = CommandRun.execute("crawl", "--help");

        assertThat(run.out()).contains(" 0 ", " 1 ", " 2 ", "130", "the crawl failed");
    }

    @Test
    void versionNamesTheCrawlerAndTheJava() {
        CommandRun run = CommandRun.execute("--version");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).startsWith("crawler ").contains("Java " + Runtime.version());
    }

    @Test
    void anUnknownOptionIsAUsageErrorWithExitCodeTwo() {
        CommandRun run = CommandRun.execute("--no-such-option");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("crawler: unknown option: --no-such-option");
    }

    @Test
    void anUnknownCommandIsAUsageErrorWithExitCodeTwo() {
        CommandRun run = CommandRun.execute("crawel");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("crawel");
    }
}
