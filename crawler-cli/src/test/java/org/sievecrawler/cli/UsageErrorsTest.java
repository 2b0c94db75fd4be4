package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * A command line that cannot be parsed, in every command: the error in one line, what to use instead or the nearest
 * names, where the full list is, and nothing else (no usage of 121 lines); exit code 2.
 */
class UsageErrorsTest {
    private static final String NL = System.lineSeparator();
    /** What each command needs besides an unknown option, for picocli to tell that option first. */
    private static final Map<String, List<String>> REQUIRED = Map.of(
            "profile check", List.of("p.yaml"),
            "sieve-plan", List.of("--expected", "1", "--fpp", "0.1"),
            "warc ls", List.of("a.warc.gz"),
            "report", List.of("crawl-out"),
            "cluster init", List.of("--bootstrap", "127.0.0.1:9", "--crawl", "docs"),
            "cluster seed", List.of("--bootstrap", "127.0.0.1:9", "--crawl", "docs"),
            "cluster run", List.of("--bootstrap", "127.0.0.1:9", "--crawl", "docs", "--profile", "p.yaml"),
            "cluster status", List.of("--bootstrap", "127.0.0.1:9", "--crawl", "docs"));

    /** Every command and subcommand, as typed after {@code crawler}: "crawl", "cluster seed", ... */
    static Stream<String> commands() {
        List<String> names = new ArrayList<>();
        collect(CrawlerCommand.commandLine(new CrawlerCommand()), "", names);
        return names.stream();
    }

    private static void collect(CommandLine command, String prefix, List<String> names) {
        for (var sub : command.getSubcommands().entrySet()) {
            String name = (prefix + " " + sub.getKey()).strip();
            names.add(name);
            collect(sub.getValue(), name, names);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void anUnknownOptionIsTheErrorAndTheHelpLineInEveryCommand(String command) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.add("--zzz");
        args.addAll(REQUIRED.getOrDefault(command, List.of()));

        CommandRun run = CommandRun.execute(args.toArray(String[]::new));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(command + ": unknown option: --zzz" + NL
                + "crawler " + command + " --help lists every option" + NL);
        assertThat(run.out()).isEmpty();
    }

    @Test
    void anUnknownOptionIsToldBeforeTheRequiredOneItLeftMissing() {
        CommandRun run = CommandRun.execute("cluster", "seed", "-i", "seeds.txt");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().lines()).containsExactly("cluster seed: unknown option: -i",
                "  -i (wget's --input-file): use --seeds FILE (one URL a line, # comments)",
                "cluster seed: missing required options: '--bootstrap=HOST:PORT', '--crawl=NAME'",
                "crawler cluster seed --help lists every option");
    }

    @Test
    void aControlCharacterInAValueTypedIsShownEscapedNotSentToTheTerminal() {
        CommandRun run = CommandRun.execute("sieve-plan", "--expected", "1e6", "--layout", "\u001b[2J");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().lines()).first().isEqualTo("sieve-plan: invalid value for option '--layout': "
                + "\"\\x1b[2J\" is not a layout: write classic or blocked");
    }

    @Test
    void aControlCharacterInAnIntOptionsValueIsShownEscapedNotSentToTheTerminal() {
        for (String[] args : List.of(new String[] {"crawl", "--threads", "\u001b[2J", "http://a.test/"},
                new String[] {"crawl", "--max-pages", "\u001b[2J", "http://a.test/"},
                new String[] {"sieve-plan", "--expected", "\u001b[2J"},
                new String[] {"crawl", "--set", "fetch.threads=\u001b[2J", "http://a.test/"})) {
            CommandRun run = CommandRun.execute(args);

            assertThat(run.exit()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.err()).as(String.join(" ", args)).contains("\\x1b[2J").doesNotContain("\u001b");
            assertThat(run.out()).doesNotContain("\u001b");
        }
    }

    @Test
    void anUnknownOptionOfTheRootCommandIsNamedAsTheCrawlers() {
        CommandRun run = CommandRun.execute("-e", "robots=off");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("crawler: unknown option: -e" + NL + "crawler --help lists every option" + NL);
    }

    @Test
    void aMisspelledOptionGetsTheNearestOptions() {
        CommandRun run = CommandRun.execute("crawl", "--max-page", "3", "http://127.0.0.1:9/");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("crawl: unknown option: --max-page" + NL
                + "  did you mean --max-pages or --max-depth?" + NL + "crawler crawl --help lists every option" + NL);
    }

    @Test
    void aSingleLetterOptionGetsNoNeighbourByItsFirstLetter() {
        CommandRun run = CommandRun.execute("crawl", "-j", "http://127.0.0.1:9/");

        assertThat(run.err()).isEqualTo("crawl: unknown option: -j" + NL + "crawler crawl --help lists every option"
                + NL);
    }

    @Test
    void aMisspelledCommandGetsTheNearestCommand() {
        CommandRun run = CommandRun.execute("crawel");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("crawler: unknown command: crawel" + NL + "  did you mean crawl?" + NL
                + "crawler --help lists every command" + NL);
    }

    @Test
    void anArgumentTooManyIsNamed() {
        CommandRun run = CommandRun.execute("report", "crawl-out", "other");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("report: unexpected argument: other" + NL
                + "crawler report --help lists every option" + NL);
    }

    @Test
    void aMissingOrInvalidValueIsPicoclisMessageUnderTheCommandsName() {
        CommandRun missing = CommandRun.execute("crawl", "--seeds");
        CommandRun invalid = CommandRun.execute("sieve-plan", "--expected", "many", "--fpp", "0.01");

        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("crawl: missing required parameter for option '--seeds' (FILE)" + NL
                + "crawler crawl --help lists every option" + NL);
        assertThat(invalid.exit()).isEqualTo(2);
        assertThat(invalid.err()).isEqualTo("sieve-plan: invalid value for option '--expected': \"many\" is not a"
                + " whole number: write e.g. 1000000, 1_000_000 or 1e6" + NL
                + "crawler sieve-plan --help lists every option" + NL);
    }
}
