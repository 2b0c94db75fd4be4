package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.PathMistakes;
import org.sievecrawler.profile.CrawlProfile;
import picocli.CommandLine;

/**
 * Every row of the table of wget and curl habits ({@code option-habits.tsv}, beside {@link OptionHabits}): its option
 * is unknown to {@code crawl}, which then prints the error, the row's advice and where the full list is, and exits 2;
 * and its check, the arguments that do what the advice says, parses and applies to the default profile (every option
 * and key the table names exists and takes the value shown).
 */
class OptionHabitsTest {
    private static final String NL = System.lineSeparator();

    static Stream<Arguments> habits() {
        return OptionHabits.all().stream().map(habit -> Arguments.of(habit.option(), habit));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("habits")
    void anOptionOfTheTableGetsTheErrorItsAdviceAndTheHelpLineOnly(String option, OptionHabits.Habit habit) {
        CommandRun run = CommandRun.execute("crawl", option, "http://127.0.0.1:9/");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("crawl: unknown option: " + option + NL + habit.line() + NL
                + "crawler crawl --help lists every option" + NL).doesNotContainPattern(PathMistakes.JAVA_NAME);
        assertThat(run.out()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("habits")
    void theAdviceOfEachRowNamesOptionsAndKeysThatExistWithValuesTheyTake(String option, OptionHabits.Habit habit) {
        List<String> args = new ArrayList<>(List.of("crawl"));
        args.addAll(List.of(habit.check().split(" ")));
        args.add("http://127.0.0.1:9/");
        CommandLine commandLine = CrawlerCommand.commandLine(new CrawlerCommand());

        CommandLine.ParseResult parsed = commandLine.parseArgs(args.toArray(String[]::new));

        CrawlCommand crawl = parsed.subcommand().commandSpec().commandLine().getCommand();
        assertThatCode(() -> crawl.overrides(CrawlProfile.defaults())).as(habit.check()).doesNotThrowAnyException();
        assertThat(habit.advice()).as("the advice names the option its check gives").contains(habit.leadsTo());
    }

    @Test
    void findsAnOptionGivenWithItsValueAttached() {
        CommandRun run = CommandRun.execute("crawl", "-l2", "--limit-rate=100k", "-erobots=off", "http://127.0.0.1:9/");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().lines()).containsExactly("crawl: unknown options: -l2, --limit-rate=100k, -erobots=off",
                line("-l"), line("--limit-rate"), line("-e"), "crawler crawl --help lists every option");
    }

    @Test
    void showsARowOnlyInACommandThatHasTheOptionItLeadsTo() {
        CommandRun report = CommandRun.execute("report", "-o", "x", "crawl-out");
        CommandRun seed = CommandRun.execute("cluster", "seed", "--bootstrap", "127.0.0.1:9", "--crawl", "docs",
                "-i", "seeds.txt");

        assertThat(report.err().lines()).containsExactly("report: unknown option: -o",
                "crawler report --help lists every option");
        assertThat(seed.err().lines()).containsExactly("cluster seed: unknown option: -i", line("-i"),
                "crawler cluster seed --help lists every option");
    }

    private static String line(String option) {
        return OptionHabits.all().stream().filter(habit -> habit.option().equals(option)).findFirst().orElseThrow()
                .line();
    }
}
