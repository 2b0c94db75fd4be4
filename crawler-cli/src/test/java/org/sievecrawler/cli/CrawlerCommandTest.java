package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sievecrawler.shell.Program;
import picocli.CommandLine;

class CrawlerCommandTest {

    @Test
    void helpListsTheExitCodes() {
        CommandRun run = CommandRun.execute("--help");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("Usage: crawler", "Exit codes:", "usage or profile error",
                "stopped by Ctrl-C", "crawl", "demo", "profile", "sieve-plan", "warc", "cluster");
    }

    /**
     * A command list shows the first line of each command's description: each such line is a whole sentence, and
     * the list shows all of it ({@code crawler --help} showed "Writes DIR/report.html: ... of pages/s over time,").
     */
    @Test
    void everyCommandListShowsEachCommandsWholeFirstSentence() {
        List<CommandLine> parents = new ArrayList<>(List.of(CrawlerCommand.commandLine()));
        int listed = 0;
        for (int i = 0; i < parents.size(); i++) {
            CommandLine parent = parents.get(i);
            String list = unwrapped(parent.getUsageMessage(CommandLine.Help.Ansi.OFF));
            for (Map.Entry<String, CommandLine> sub : parent.getSubcommands().entrySet()) {
                String first = sub.getValue().getCommandSpec().usageMessage().description()[0];
                assertThat(first).as(sub.getKey()).matches("[A-Z].*\\.");
                assertThat(list).as(parent.getCommandName() + " --help").contains(sub.getKey() + " " + first);
                parents.add(sub.getValue());
                listed++;
            }
        }
        assertThat(listed).isGreaterThanOrEqualTo(14);
    }

    /** Help text with picocli's line breaks and indentation undone: one space between words. */
    private static String unwrapped(String help) {
        return help.replaceAll("\\s+", " ");
    }

    @Test
    void helpNamesTheProgramAsItWasStarted() {
        CrawlerCommand root = new CrawlerCommand(ProfileSource.YAML, onStop -> () -> { }, ClusterConnector.KAFKA,
                Ticker.SYSTEM, new Launch(Program.of("crawler-cli/target/crawler"), Optional.empty()));

        CommandRun help = CommandRun.execute(root, "--help");
        CommandRun crawlHelp = CommandRun.execute(root, "crawl", "--help");

        assertThat(help.out()).startsWith("Usage: crawler-cli/target/crawler [-hV] [COMMAND]").contains(
                "A first crawl, no internet needed: crawler-cli/target/crawler demo",
                "Help on a command: crawler-cli/target/crawler COMMAND --help");
        assertThat(crawlHelp.out()).startsWith("Usage: crawler-cli/target/crawler crawl ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"crawl", "demo", "profile", "profile check", "sieve-plan", "warc", "warc ls",
        "cluster", "cluster init", "install"})
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
        assertThat(run.err()).contains("Unknown option: '--no-such-option'");
    }

    @Test
    void anUnknownCommandIsAUsageErrorWithExitCodeTwo() {
        CommandRun run = CommandRun.execute("crawel");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("crawel");
    }
}
