package org.sievecrawler.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code crawler warc}: the commands about WARC files. Without a subcommand it prints its usage. */
@Command(name = "warc", mixinStandardHelpOptions = true, subcommands = WarcLsCommand.class,
        description = "Commands about the WARC files a crawl writes (output.warc, crawl --warc).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:done", " 1:the file ends in a cut or unreadable record", " 2:usage error"})
final class WarcCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CrawlerCommand.USAGE;
    }
}
