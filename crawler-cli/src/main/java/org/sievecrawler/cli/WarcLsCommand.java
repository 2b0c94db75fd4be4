package org.sievecrawler.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.sievecrawler.escape.ControlCharacters;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.warc.WarcListing;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code crawler warc ls FILE}: one line per record of a WARC file (offset, type, HTTP status, length, target URI),
 * from {@link WarcListing}. A file cut mid-record lists its whole records, then says where it stopped.
 */
@Command(name = "ls", mixinStandardHelpOptions = true,
        description = {"Lists the records of a WARC file (.warc.gz, .warc.zst or .warc): offset, type, HTTP status,",
            "length of the record block, target URI. The offset is where the record starts (warcOffset",
            "in pages.jsonl)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:listed every record",
            " 1:the file ends in a cut or unreadable record (the records before it are listed)",
            " 2:usage error, no such file, or not a WARC file"})
final class WarcLsCommand implements Callable<Integer> {
    static final int DAMAGED = 1;
    private static final String ROW = "%12s  %-9s  %6s  %10s  %s";

    @Spec
    CommandSpec spec;

    @Mixin
    LoggingOptions logging;

    @Parameters(paramLabel = "FILE", description = "The WARC file to list.")
    Path file;

    @Override
    public Integer call() {
        logging.apply();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (Files.isDirectory(file)) {
            err.println("warc ls: " + file + " is a folder; give one WARC file, e.g. "
                    + file.resolve("crawl-*.warc.gz"));
            return CrawlerCommand.USAGE;
        }
        try { // a FIFO would block the listing until someone writes to it
            InputFile.requireRegularFile(file, "a WARC file");
        } catch (InputFileException e) {
            err.println("warc ls: " + e.getMessage());
            return CrawlerCommand.USAGE;
        }
        boolean[] headed = {false};
        WarcListing.End end;
        try {
            end = WarcListing.list(file, entry -> {
                if (!headed[0]) {
                    out.println(String.format(Locale.ROOT, ROW, "OFFSET", "TYPE", "STATUS", "LENGTH", "URI"));
                    headed[0] = true;
                }
                // a WARC file's fields are anyone's bytes: none reaches the terminal as a control character
                out.println(String.format(Locale.ROOT, ROW, entry.offset(), ControlCharacters.escape(entry.type()),
                        entry.status() > 0 ? Integer.toString(entry.status()) : "-", entry.length(),
                        entry.uri() == null ? "-" : ControlCharacters.escape(entry.uri())));
            });
        } catch (IOException e) { // the file went between the check and the reading, or cannot be read
            err.println("warc ls: " + file + ": " + FileErrors.reason(file, e));
            return CrawlerCommand.USAGE;
        } finally {
            out.flush();
        }
        if (end.records() == 0) {
            err.println("warc ls: " + file + " is not a WARC file: "
                    + (end.complete() ? "it is empty"
                            : "no WARC record at its start (" + ControlCharacters.escape(end.problem()) + ")"));
            return CrawlerCommand.USAGE;
        }
        if (!end.complete()) {
            err.println("warc ls: " + file + ": stopped at offset " + end.stoppedAt() + " after " + end.records()
                    + " whole records: the record there is cut short or unreadable ("
                    + ControlCharacters.escape(end.problem()) + ")");
            return DAMAGED;
        }
        out.println(end.records() + " records");
        out.flush();
        return 0;
    }
}
