package org.sievecrawler.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.Callable;
import org.sievecrawler.audit.Audit;
import org.sievecrawler.audit.AuditFindings;
import org.sievecrawler.audit.AuditGate;
import org.sievecrawler.audit.AuditMarkdown;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.report.CrawlReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code crawler report DIR}: writes DIR/audit.json ({@link Audit}) and DIR/report.html ({@link CrawlReport}) from
 * the crawl's files there and prints their paths, or with {@code --format markdown} a summary of the audit for a CI
 * job's log ({@link AuditMarkdown}); with {@code --fail-on}, exits {@link AuditGate#EXIT_FOUND} when the audit lists
 * what it names ({@link FailOn}). A crawl writes both files at its end too; this writes them again, or for a crawl
 * still running, stopped or killed.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Writes DIR/audit.json, what the crawl found about the site (redirect chains, the slowest"
                + " pages, counts by outcome and status, ...), and DIR/report.html, a crawl's report: one page of"
                + " charts that works offline.",
            "Charts of pages/s over time; outcomes, HTTP statuses, depths, top hosts and errors; and the Sieve's"
                    + " seen~ and false-positive rate over time against sieve.expected-urls; the rules the crawl"
                    + " learned (scope.learn-duplicates). From pages.jsonl, progress.jsonl, summary.json and"
                    + " rules.jsonl."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:written", " 1:a file could not be read or written", " 2:usage error, not a crawl folder",
            FailOn.EXIT_FOUND})
final class ReportCommand implements Callable<Integer> {
    static final int FAILED = 1;
    /** What DIR must be, as a refusal says. */
    private static final String WHAT = "DIR is a crawl's output folder";

    @Spec
    CommandSpec spec;

    @Mixin
    LoggingOptions logging;

    @Parameters(paramLabel = "DIR", description = "A crawl's output folder (output.dir).")
    Path dir;

    /** What the command prints. */
    enum Format { text, markdown }

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "What to print: text (the paths written) or markdown (a summary of audit.json for a CI"
                    + " job's log: counts, then the first " + AuditMarkdown.SHOWN + " findings of each list).")
    Format format;

    @Option(names = "--fail-on", paramLabel = "LISTS", converter = FailOn.Converter.class,
            description = FailOn.DESCRIPTION)
    AuditGate failOn;

    @Override
    public Integer call() {
        logging.apply();
        PrintWriter err = spec.commandLine().getErr();
        BasicFileAttributes folder;
        try {
            folder = Files.readAttributes(dir, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            UsageErrors.print(err, "report: " + dir + " does not exist (" + WHAT + ")");
            return CrawlerCommand.USAGE;
        } catch (IOException e) {
            UsageErrors.print(err, "report: " + dir + ": " + FileErrors.reason(dir, e) + " (" + WHAT + ")");
            return CrawlerCommand.USAGE;
        }
        if (!folder.isDirectory()) {
            UsageErrors.print(err, "report: " + dir + " is a file, not a folder (" + WHAT + ")");
            return CrawlerCommand.USAGE;
        }
        try {
            if (!Files.readAttributes(dir.resolve(CrawlFolder.PAGES), BasicFileAttributes.class).isRegularFile()) {
                throw new NoSuchFileException(dir.resolve(CrawlFolder.PAGES).toString());
            }
        } catch (NoSuchFileException e) {
            err.println("report: " + dir + " is not a crawl's output folder: it has no " + CrawlFolder.PAGES);
            return CrawlerCommand.USAGE;
        } catch (IOException e) {
            err.println("report: " + FileErrors.message(e));
            return CrawlerCommand.USAGE;
        }
        PrintWriter out = spec.commandLine().getOut();
        try {
            Path audit = Audit.write(dir, Audit.sections(dir));
            Path report = CrawlReport.write(dir);
            if (format == Format.markdown) {
                out.print(AuditMarkdown.render(dir.toString(), AuditFindings.read(audit, AuditMarkdown.SHOWN)));
                out.flush(); // print does not flush, and nothing else will before the process exits
            } else {
                out.println(audit);
                out.println(report);
            }
            return failOn == null ? 0 : FailOn.check("report", failOn, dir, out, err);
        } catch (IOException e) {
            err.println("report: " + FileErrors.message(e));
            return FAILED;
        } catch (UncheckedIOException e) {
            err.println("report: " + FileErrors.message(e.getCause()));
            return FAILED;
        }
    }
}
