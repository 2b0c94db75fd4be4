package org.sievecrawler.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The top-level {@code crawler} command. Subcommands are added as the crawler grows.
 *
 * <p>Exit codes: 0 finished; 1 the crawl failed; 2 usage or profile error; 130 stopped by Ctrl-C.
 */
@Command(
        name = "crawler",
        mixinStandardHelpOptions = true,
        versionProvider = ManifestVersion.class,
        description = "A single-node web crawler with a probabilistic (Bloom-filtered) frontier.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            " 0:finished",
            " 1:the crawl failed (e.g. output not writable)",
            " 2:usage or profile error",
            "130:stopped by Ctrl-C after a graceful stop"})
public final class CrawlerCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** A configured command line: exit code 2 for usage errors, as documented. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new CrawlerCommand());
        commandLine.setExitCodeExceptionMapper(e -> 2);
        return commandLine;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }
}
