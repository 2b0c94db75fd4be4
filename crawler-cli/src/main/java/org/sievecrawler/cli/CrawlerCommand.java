package org.sievecrawler.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.shell.Program;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The top-level {@code crawler} command and its subcommands: {@code crawl}, {@code demo},
 * {@code profile check}, {@code sieve-plan}, {@code warc ls}, {@code report}, {@code cluster init},
 * {@code cluster seed}, {@code cluster run}, {@code cluster status} and {@code install}. It also holds what the
 * subcommands share: where profiles come from, where a stop signal comes from, where the cluster clients come from,
 * the time a polling command waits by, and how this program was started ({@link Launch}: the name every suggested
 * command starts with, the usage's too); a test replaces each.
 *
 * <p>Exit codes: 0 finished; 1 the crawl failed (including a crawl that received no response at all); 2 usage or
 * profile error, or a crawl refused (output folder in use, nothing to resume); 130 stopped by Ctrl-C (SIGINT;
 * a second Ctrl-C stops at once);
 * 143 stopped by SIGTERM (the JVM's own status for it; the shutdown hook has run the same graceful stop, so the
 * output is whole; a second SIGTERM stops at once).
 */
@Command(
        name = "crawler",
        mixinStandardHelpOptions = true,
        versionProvider = ManifestVersion.class,
        description = {"Sieve Crawler: a polite web crawler for one site, a few, or a broad crawl, whose frontier is"
                + " a Sieve (a queue guarded by a Bloom filter); on one machine, or several over Kafka."},
        subcommands = {CrawlCommand.class, DemoCommand.class, ProfileCommand.class, SievePlanCommand.class,
            WarcCommand.class, ReportCommand.class, ClusterCommand.class, InstallCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            " 0:finished",
            " 1:the crawl failed (e.g. output not writable, or no page could be fetched)",
            " 2:usage or profile error, or the crawl refused",
            FailOn.EXIT_FOUND,
            "130:stopped by Ctrl-C (SIGINT) after a graceful stop; a second Ctrl-C stops at once",
            "143:stopped by SIGTERM after a graceful stop; a second SIGTERM stops at once"},
        footer = {"", "A first crawl, no internet needed: ${ROOT-COMMAND-NAME} demo",
            "Help on a command: ${ROOT-COMMAND-NAME} COMMAND --help"})
public final class CrawlerCommand implements Callable<Integer> {
    /** The exit code of a usage or profile error. */
    static final int USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final ProfileSource profiles;
    private final StopSignal stopSignal;
    private final ClusterConnector clusters;
    private final Ticker ticker;
    private final Launch launch;

    public CrawlerCommand() {
        this(ProfileSource.YAML, StopSignal.PROCESS);
    }

    CrawlerCommand(ProfileSource profiles, StopSignal stopSignal) {
        this(profiles, stopSignal, ClusterConnector.KAFKA);
    }

    CrawlerCommand(ProfileSource profiles, StopSignal stopSignal, ClusterConnector clusters) {
        this(profiles, stopSignal, clusters, Ticker.SYSTEM);
    }

    CrawlerCommand(ProfileSource profiles, StopSignal stopSignal, ClusterConnector clusters, Ticker ticker) {
        this(profiles, stopSignal, clusters, ticker, Launch.current());
    }

    CrawlerCommand(ProfileSource profiles, StopSignal stopSignal, ClusterConnector clusters, Ticker ticker,
            Launch launch) {
        this.profiles = profiles;
        this.stopSignal = stopSignal;
        this.clusters = clusters;
        this.ticker = ticker;
        this.launch = launch;
    }

    /** A configured command line: exit code 2 for usage errors, as documented. */
    public static CommandLine commandLine() {
        return commandLine(new CrawlerCommand());
    }

    static CommandLine commandLine(CrawlerCommand root) {
        CommandLine commandLine = new CommandLine(root);
        commandLine.setCommandName(root.program().toString()); // "Usage: crawler-cli/target/crawler crawl ..."
        commandLine.setExitCodeExceptionMapper(e -> USAGE);
        commandLine.setParameterExceptionHandler(new UsageErrors());
        commandLine.setExecutionExceptionHandler(CrawlerCommand::fileFailed);
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        inheritExitCodes(commandLine, commandLine.getCommandSpec().usageMessage());
        return commandLine;
    }

    /**
     * A command that ended on an I/O error it did not catch (the demo's temporary folder cannot be made, say): the
     * error in words, "demo: /tmp/sieve-demo-1: no space left on the device", exit code 1; any other exception is a
     * bug, and picocli's stack trace is kept for it.
     */
    private static int fileFailed(Exception e, CommandLine command, CommandLine.ParseResult parsed) throws Exception {
        IOException failure = e instanceof IOException io ? io
                : e instanceof UncheckedIOException unchecked ? unchecked.getCause() : null;
        if (failure == null) {
            throw e;
        }
        command.getErr().println(UsageErrors.name(command.getCommandSpec()) + ": " + FileErrors.message(failure));
        command.getErr().flush();
        return CrawlRun.FAILED;
    }

    /** Gives every subcommand that lists no exit codes of its own the full list. */
    private static void inheritExitCodes(CommandLine command, CommandLine.Model.UsageMessageSpec full) {
        for (CommandLine sub : command.getSubcommands().values()) {
            CommandLine.Model.UsageMessageSpec usage = sub.getCommandSpec().usageMessage();
            if (usage.exitCodeList().isEmpty()) {
                usage.exitCodeListHeading(full.exitCodeListHeading()).exitCodeList(full.exitCodeList());
            }
            inheritExitCodes(sub, full);
        }
    }

    ProfileSource profiles() {
        return profiles;
    }

    StopSignal stopSignal() {
        return stopSignal;
    }

    ClusterConnector clusters() {
        return clusters;
    }

    /** The time and the waits of a command that polls ({@code cluster status --wait-done}). */
    Ticker ticker() {
        return ticker;
    }

    /** This program as the user started it: the start of every command a message suggests. */
    Program program() {
        return launch.program();
    }

    /** How this program was started: the name it was started by, and the launcher script if one did. */
    Launch launch() {
        return launch;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }
}
