package org.sievecrawler.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code crawler profile}: the commands about crawl profiles. Without a subcommand it prints its usage. */
@Command(name = "profile", mixinStandardHelpOptions = true, subcommands = ProfileCheckCommand.class,
        description = "Commands about crawl profiles.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:the profile is valid", " 2:usage or profile error"})
final class ProfileCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ParentCommand
    CrawlerCommand root;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CrawlerCommand.USAGE;
    }
}
