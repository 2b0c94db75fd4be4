package org.sievecrawler.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.report.CrawlReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code crawler report DIR}: writes DIR/report.html from the crawl's files there ({@link CrawlReport}) and prints
 * its path. A crawl writes it at its end too; this draws it again, or for a crawl still running, stopped or killed.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Writes DIR/report.html, a crawl's report: one page of charts that works offline.",
            "Charts of pages/s over time; outcomes, HTTP statuses, depths, top hosts and errors; and the Sieve's"
                    + " seen~ and false-positive rate over time against sieve.expected-urls. From pages.jsonl,"
                    + " progress.jsonl and summary.json."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:written", " 1:a file could not be read or written", " 2:usage error, not a crawl folder"})
final class ReportCommand implements Callable<Integer> {
    static final int FAILED = 1;

    @Spec
    CommandSpec spec;

    @Mixin
    LoggingOptions logging;

    @Parameters(paramLabel = "DIR", description = "A crawl's output folder (output.dir).")
    Path dir;

    @Override
    public Integer call() {
        logging.apply();
        if (!Files.exists(dir)) {
            spec.commandLine().getErr().println("report: " + dir + " does not exist (DIR is a crawl's output folder)");
            return CrawlerCommand.USAGE;
        }
        if (!Files.isDirectory(dir) || !Files.isRegularFile(dir.resolve(CrawlFolder.PAGES))) {
            spec.commandLine().getErr().println("report: " + dir + " is not a crawl's output folder: it has no "
                    + "pages.jsonl");
            return CrawlerCommand.USAGE;
        }
        try {
            spec.commandLine().getOut().println(CrawlReport.write(dir));
            return 0;
        } catch (IOException | UncheckedIOException e) {
            spec.commandLine().getErr().println("report: " + e.getMessage());
            return FAILED;
        }
    }
}
