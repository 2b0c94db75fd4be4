package org.sievecrawler.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.sievecrawler.escape.ControlCharacters;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.profile.WarcCompression;
import org.sievecrawler.warc.WarcListing;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code crawler warc ls FILE...}: one line per record of each WARC file (offset, type, HTTP status, length, target
 * URI), from {@link WarcListing}; a folder stands for the WARC files in it, in name order (a crawl's folder: its
 * files in the order written), so {@code warc ls DIR} and the shell's {@code warc ls DIR/*.warc.gz} both list a whole
 * crawl. A file cut mid-record lists its whole records, then says where it stopped; a file that cannot be listed is
 * named on stderr and the others are listed still. Runs on the caller's thread.
 */
@Command(name = "ls", mixinStandardHelpOptions = true,
        description = {"Lists the records of WARC files (.warc.gz, .warc.zst or .warc): offset, type, HTTP status,"
                + " length of the record block, target URI.",
            "The offset is where the record starts (warcOffset in pages.jsonl). A folder stands for the WARC files in"
                    + " it, in name order; with more than one file, each file's records follow its name."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:listed every record",
            " 1:a file ends in a cut or unreadable record (the records before it are listed)",
            " 2:usage error, no such file, not a WARC file, or a folder without one"})
final class WarcLsCommand implements Callable<Integer> {
    static final int DAMAGED = 1;
    private static final String ROW = "%12s  %-9s  %6s  %10s  %s";
    /** The ends of the names of the WARC files a folder stands for. */
    private static final List<String> SUFFIXES = List.of(WarcCompression.GZIP.suffix(),
            WarcCompression.ZSTD.suffix(), ".warc");

    @Spec
    CommandSpec spec;

    @Mixin
    LoggingOptions logging;

    @Parameters(paramLabel = "FILE", arity = "1..*",
            description = "WARC files, or folders: a folder stands for its .warc.gz, .warc.zst and .warc files.")
    List<Path> given;

    @Override
    public Integer call() {
        logging.apply();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int exit = 0;
        List<Path> files = new ArrayList<>();
        for (Path path : given) {
            if (!Files.isDirectory(path)) {
                files.add(path);
                continue;
            }
            List<Path> found;
            try {
                found = warcFiles(path);
            } catch (IOException e) {
                err.println("warc ls: " + path + ": cannot read the folder (" + FileErrors.reason(path, e) + ")");
                exit = CrawlerCommand.USAGE;
                continue;
            }
            if (found.isEmpty()) {
                err.println("warc ls: " + path + " is a folder without WARC files (" + String.join(", ", SUFFIXES)
                        + "); give WARC files or a folder that holds some");
                exit = CrawlerCommand.USAGE;
            }
            files.addAll(found);
        }
        long records = 0;
        for (int i = 0; i < files.size(); i++) {
            if (files.size() > 1) {
                out.println((i == 0 ? "" : System.lineSeparator()) + files.get(i) + ":");
            }
            Listed listed = list(files.get(i), out, err);
            records += listed.records();
            exit = Math.max(exit, listed.exit());
        }
        if (files.size() > 1) {
            out.println(System.lineSeparator() + records + " records in " + files.size() + " files");
        }
        out.flush();
        return exit;
    }

    /** The WARC files directly in {@code folder}, by name. */
    private static List<Path> warcFiles(Path folder) throws IOException {
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.filter(f -> SUFFIXES.stream().anyMatch(f.getFileName().toString()::endsWith))
                    .filter(f -> !Files.isDirectory(f)).sorted().toList();
        }
    }

    /** What listing one file came to: its whole records, and its exit code (0, {@link #DAMAGED} or usage). */
    private record Listed(long records, int exit) {
    }

    /** Lists {@code file}'s records on {@code out}, then their count; says on {@code err} what stopped it. */
    private static Listed list(Path file, PrintWriter out, PrintWriter err) {
        try { // a FIFO would block the listing until someone writes to it
            InputFile.requireRegularFile(file, "a WARC file");
        } catch (InputFileException e) {
            err.println("warc ls: " + e.getMessage());
            return new Listed(0, CrawlerCommand.USAGE);
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
            return new Listed(0, CrawlerCommand.USAGE);
        } finally {
            out.flush();
        }
        if (end.records() == 0) {
            err.println("warc ls: " + file + " is not a WARC file: "
                    + (end.complete() ? "it is empty"
                            : "no WARC record at its start (" + ControlCharacters.escape(end.problem()) + ")"));
            return new Listed(0, CrawlerCommand.USAGE);
        }
        if (!end.complete()) {
            err.println("warc ls: " + file + ": stopped at offset " + end.stoppedAt() + " after " + end.records()
                    + " whole records: the record there is cut short or unreadable ("
                    + ControlCharacters.escape(end.problem()) + ")");
            return new Listed(end.records(), DAMAGED);
        }
        out.println(end.records() + " records");
        return new Listed(end.records(), 0);
    }
}
