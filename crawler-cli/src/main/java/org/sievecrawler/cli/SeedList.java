package org.sievecrawler.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.sievecrawler.escape.ControlCharacters;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.input.TextLine;
import org.sievecrawler.link.LinkDecision;
import org.sievecrawler.link.SeedLine;
import org.sievecrawler.link.UrlNormalizer;

/**
 * The seeds of a crawl gathered from the command's arguments and a seed file, or else from the profile, in that
 * order and without duplicates, with one problem line per seed that is not a usable http(s) URL (that seed is
 * skipped): {@code WHERE: problem (value); skipped}, WHERE being {@code FILE:LINE}, {@code argument N} or the
 * profile's {@code seeds[i]}.
 *
 * <p>A seed file ({@code cluster seed --seeds FILE}; {@code crawl} streams its seed file instead,
 * {@link org.sievecrawler.seed.SeedFeed}) has one URL per line, read by the rules of {@link SeedLine}. A line is
 * skipped, and named, when it is not UTF-8 (the file's other lines are read), when it holds a space within its URL
 * or more than one word before a comment, or when its URL is not a usable seed. The file is read only when it is a
 * regular file of at most {@link InputFile#SEED_FILE} bytes. Not thread-safe; built and read on the command's
 * thread.
 */
final class SeedList {
    private final UrlNormalizer normalizer = new UrlNormalizer();
    private final Set<String> seeds = new LinkedHashSet<>();
    private final List<String> problems = new ArrayList<>();

    /** Adds {@code url}; {@code origin} names where it came from in a problem, e.g. "argument 2". */
    void add(String origin, String url) {
        LinkDecision decision = normalizer.normalize(url.trim());
        if (decision instanceof LinkDecision.Reject reject) {
            skip(origin, "not a usable seed: " + reject.detail(), url.trim());
        } else {
            seeds.add(((LinkDecision.Accept) decision).url());
        }
    }

    /** Adds the URLs given as command-line arguments, each named "argument N" (from 1) in a problem. */
    void addArguments(List<String> urls) {
        for (int i = 0; i < urls.size(); i++) {
            add("argument " + (i + 1), urls.get(i));
        }
    }

    /**
     * Adds the URLs of a seed file, naming bad lines by {@code FILE:LINE}.
     *
     * @throws InputFileException naming the file when it is not a regular file of at most
     *     {@link InputFile#SEED_FILE} bytes
     */
    void addFile(Path file) throws InputFileException {
        for (TextLine line : InputFile.readLines(file, InputFile.SEED_FILE)) {
            String origin = file + ":" + line.number();
            if (line instanceof TextLine.NotUtf8 bad) {
                skip(origin, "not UTF-8 text (a malformed byte sequence at byte " + bad.badByte() + " of the line)",
                        bad.shown());
            } else {
                addLine(origin, ((TextLine.Text) line).text());
            }
        }
    }

    /** A seed file's line: blank, a comment, one URL with an optional comment after it, or a bad line. */
    private void addLine(String origin, String line) {
        SeedLine read = SeedLine.of(line);
        if (read instanceof SeedLine.Bad bad) {
            skip(origin, bad.problem(), bad.value());
        } else if (read instanceof SeedLine.Url url) {
            add(origin, url.url());
        }
    }

    private void skip(String origin, String problem, String value) {
        problems.add(origin + ": " + problem + " (\"" + ControlCharacters.escape(value) + "\"); skipped");
    }

    List<String> seeds() {
        return List.copyOf(seeds);
    }

    List<String> problems() {
        return List.copyOf(problems);
    }

    /**
     * What {@code command} prints about the seeds: each problem, then, if any seed was skipped and some are left, how
     * many of each, e.g. "crawl: skipped 2 bad seeds (named above); 5 seeds left" (with none left, the command says
     * there is no usable seed).
     */
    List<String> report(String command) {
        List<String> lines = new ArrayList<>(problems);
        if (!problems.isEmpty() && !seeds.isEmpty()) {
            lines.add(command + ": skipped " + count(problems.size(), "bad seed") + " (named above); "
                    + count(seeds.size(), "seed") + " left");
        }
        return lines;
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
