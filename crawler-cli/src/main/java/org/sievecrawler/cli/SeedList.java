package org.sievecrawler.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.link.LinkDecision;
import org.sievecrawler.link.UrlNormalizer;

/**
 * The seeds of a crawl gathered from the command's arguments and a seed file, or else from the profile, in that
 * order and without duplicates, with one problem line per seed that is not a usable http(s) URL (that seed is skipped).
 *
 * <p>A seed file has one URL per line; blank lines and lines starting with {@code #} are skipped. It is read only
 * when it is a regular UTF-8 file of at most {@link InputFile#SEED_FILE} bytes. Not
 * thread-safe; built and read on the command's thread.
 */
final class SeedList {
    private final UrlNormalizer normalizer = new UrlNormalizer();
    private final Set<String> seeds = new LinkedHashSet<>();
    private final List<String> problems = new ArrayList<>();

    /** Adds {@code url}; {@code origin} names where it came from in a problem, e.g. "argument 2". */
    void add(String origin, String url) {
        LinkDecision decision = normalizer.normalize(url.trim());
        if (decision instanceof LinkDecision.Reject reject) {
            problems.add(origin + ": \"" + url.trim() + "\" is not a usable seed: " + reject.detail() + "; skipped");
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
     * @throws InputFileException naming the file when it is not a regular UTF-8 file of at most
     *     {@link InputFile#SEED_FILE} bytes
     */
    void addFile(Path file) throws InputFileException {
        List<String> lines = InputFile.readText(file, InputFile.SEED_FILE).lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (!line.isEmpty() && !line.startsWith("#")) {
                add(file + ":" + (i + 1), line);
            }
        }
    }

    List<String> seeds() {
        return List.copyOf(seeds);
    }

    List<String> problems() {
        return List.copyOf(problems);
    }
}
