package org.sievecrawler.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.sievecrawler.Crawler;
import org.sievecrawler.checkpoint.CheckpointException;
import org.sievecrawler.checkpoint.CheckpointStore;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code crawler crawl}: crawls from the seeds given as arguments and in a seed file, or else from the profile's
 * seeds, with flags that override the profile. Runs on the caller's thread; not reusable.
 */
@Command(name = "crawl", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Crawls from the URL arguments and the --seeds file; seeds given there replace the"
                + " profile's, which are used only when none are given.",
            "Flags override the profile; without --profile the built-in defaults apply.",
            "Progress is logged every progress.interval; pages.jsonl, summary.json and crawl.log go to the"
                    + " output folder."})
final class CrawlCommand implements Callable<Integer> {
    /** The options a resumed crawl takes (besides the logging ones): everything else is its profile's. */
    private static final Set<String> WITH_RESUME = Set.of("--resume", "--max-pages");

    @Spec
    CommandSpec spec;

    @ParentCommand
    CrawlerCommand root;

    @Mixin
    LoggingOptions logging;

    @Parameters(paramLabel = "URL", arity = "0..*",
            description = "Seed URLs (http or https); with --seeds, they replace the profile's seeds.")
    List<String> urls = List.of();

    @Option(names = "--seeds", paramLabel = "FILE",
            description = "A seed file: one URL per line; blank lines and # comments are skipped.")
    Path seedFile;

    @Option(names = "--profile", paramLabel = "FILE", description = "A YAML crawl profile.")
    Path profileFile;

    @Option(names = "--out", paramLabel = "DIR", description = "The output folder (output.dir).")
    Path out;

    @Option(names = "--threads", paramLabel = "N", description = "Fetcher threads (fetch.threads).")
    Integer threads;

    @Option(names = "--max-pages", paramLabel = "N", description = "Pages at most, 0 for no limit (limits.max-pages).")
    Long maxPages;

    @Option(names = "--max-depth", paramLabel = "N",
            description = "Links followed from the seeds at most, -1 for no limit (scope.max-depth).")
    Integer maxDepth;

    @Option(names = "--delay", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Delay between two requests to a host, e.g. 500ms, 2s (politeness.delay).")
    Duration delay;

    @Option(names = "--user-agent", paramLabel = "S", description = "The User-Agent header (fetch.user-agent).")
    String userAgent;

    @Option(names = "--warc", description = "Write WARC files too, next to pages.jsonl (output.warc).")
    boolean warc;

    @Option(names = "--overwrite",
            description = "Start afresh in an output folder that holds an earlier crawl: delete its pages.jsonl,"
                    + " summary.json, crawl.log, checkpoint/, frontier/ and WARC files (no other file) first."
                    + " Without it such a folder is refused.")
    boolean overwrite;

    @Option(names = "--resume", paramLabel = "DIR",
            description = "Continue the stopped or killed crawl in DIR, with the profile it was started with;"
                    + " only a limit may be given with it: --max-pages N extends a crawl that stopped at its"
                    + " max-pages.")
    Path resume;

    @Override
    public Integer call() {
        logging.apply();
        PrintWriter err = spec.commandLine().getErr();
        if (resume != null) {
            return resume(err);
        }
        CrawlProfile profile;
        try {
            profile = profileFile == null ? root.profiles().defaults() : root.profiles().load(profileFile);
        } catch (ProfileException e) {
            err.println(e.getMessage());
            return CrawlerCommand.USAGE;
        }
        SeedList seeds = new SeedList();
        if (urls.isEmpty() && seedFile == null) { // seeds given on the command line replace the profile's
            String profileName = profileFile == null ? "profile" : profileFile.toString();
            for (int i = 0; i < profile.seeds().size(); i++) {
                seeds.add(profileName + ": seeds[" + i + "]", profile.seeds().get(i));
            }
        }
        for (int i = 0; i < urls.size(); i++) {
            seeds.add("argument " + (i + 1), urls.get(i));
        }
        if (seedFile != null) {
            try {
                seeds.addFile(seedFile);
            } catch (IOException e) {
                err.println("crawl: --seeds " + seedFile + ": cannot read the seed file (" + describe(e) + ")");
                return CrawlerCommand.USAGE;
            }
        }
        seeds.problems().forEach(err::println);
        if (seeds.seeds().isEmpty()) {
            err.println("crawl: no usable seed: give URLs as arguments, a seed file with --seeds FILE,"
                    + " or seeds in the --profile");
            return CrawlerCommand.USAGE;
        }
        try {
            profile = overrides(profile.withSeeds(seeds.seeds()));
        } catch (IllegalArgumentException e) {
            err.println("crawl: " + e.getMessage());
            return CrawlerCommand.USAGE;
        }
        return CrawlRun.run(profile, overwrite ? Crawler.Start.OVERWRITE : Crawler.Start.NEW, root.stopSignal(),
                logging.format, spec.commandLine().getOut(), err);
    }

    /** {@code --resume DIR}: the crawl goes on with the profile its checkpoint saved; other options are refused. */
    private int resume(PrintWriter err) {
        List<String> refused = new ArrayList<>();
        if (!urls.isEmpty()) {
            refused.add("seed URLs");
        }
        for (OptionSpec option : spec.commandLine().getParseResult().matchedOptions()) {
            String name = option.longestName();
            if (!WITH_RESUME.contains(name) && !refused.contains(name)
                    && spec.mixins().get("logging").findOption(name) == null) {
                refused.add(name);
            }
        }
        if (!refused.isEmpty()) {
            err.println("crawl: --resume " + resume + ": a resumed crawl runs with the profile it was started with;"
                    + " " + String.join(", ", refused) + " cannot be given with --resume (only --max-pages can)");
            return CrawlerCommand.USAGE;
        }
        CrawlProfile profile;
        try {
            profile = new CheckpointStore(resume).readProfile();
            if (maxPages != null) { // a limit is the one thing a resume may change: it extends a stopped crawl
                profile = profile.withLimits(profile.limits().withMaxPages(maxPages));
            }
        } catch (CheckpointException e) {
            err.println("crawl: --resume " + resume + ": " + e.getMessage());
            return CrawlerCommand.USAGE;
        } catch (IllegalArgumentException e) {
            err.println("crawl: " + e.getMessage());
            return CrawlerCommand.USAGE;
        }
        return CrawlRun.run(profile, Crawler.Start.RESUME, root.stopSignal(), logging.format,
                spec.commandLine().getOut(), err);
    }

    /** The profile with every flag given applied; the records validate the values, naming their key. */
    CrawlProfile overrides(CrawlProfile profile) {
        CrawlProfile result = profile;
        if (out != null) {
            result = result.withOutput(result.output().withDir(out));
        }
        if (threads != null) {
            result = result.withFetch(result.fetch().withThreads(threads));
        }
        if (userAgent != null) {
            result = result.withFetch(result.fetch().withUserAgent(userAgent));
        }
        if (maxPages != null) {
            result = result.withLimits(result.limits().withMaxPages(maxPages));
        }
        if (maxDepth != null) {
            result = result.withScope(result.scope().withMaxDepth(maxDepth));
        }
        if (delay != null) {
            result = result.withPoliteness(result.politeness().withDelay(delay));
        }
        if (warc) {
            result = result.withOutput(result.output().withWarc(true));
        }
        return result;
    }

    private static String describe(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
