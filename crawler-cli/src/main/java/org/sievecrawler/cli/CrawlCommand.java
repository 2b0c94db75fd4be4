package org.sievecrawler.cli;

import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.sievecrawler.Crawler;
import org.sievecrawler.audit.AuditGate;
import org.sievecrawler.checkpoint.CheckpointException;
import org.sievecrawler.checkpoint.CheckpointStore;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.checkpoint.CrawlStart;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileException;
import org.sievecrawler.profile.ProfileKey;
import org.sievecrawler.profile.ProfileKeys;
import org.sievecrawler.profile.ProfileOverrides;
import org.sievecrawler.seed.SeedFeed;
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
        resourceBundle = "org.sievecrawler.cli.CrawlHelp",
        description = {"Crawls the web from seed URLs into an output folder, politely: robots.txt obeyed, a delay"
                + " between requests to a host.",
            "Seeds: the URL arguments and the --seeds file; seeds given there replace the profile's, which are used"
                    + " only when none are given.",
            "Flags override the profile (--set any key of it); without --profile the built-in defaults apply.",
            "Progress is logged every progress.interval (at a terminal, a live line at the bottom shows it"
                    + " instead); pages.jsonl, summary.json, crawl.log, report.html and audit.json go to the output"
                    + " folder."})
final class CrawlCommand implements Callable<Integer> {
    /**
     * The options a resumed crawl takes besides the logging ones and the shorthands of profile keys, whose values
     * the resume then checks ({@link CrawlStart#changesOnResume}): not seeds, another profile or --overwrite.
     */
    private static final Set<String> WITH_RESUME = Set.of("--resume", "--set", "--no-progress", "--fail-on");

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
            description = "A seed file: one URL per line, # starting a comment (at a line's start or after a space);"
                    + " blank lines are skipped, and bad ones, each named (the first 20, then counted). Any length"
                    + " (up to 16 GiB): copied once into the output folder and streamed into the crawl, which"
                    + " starts fetching at once; a resume goes on reading the copy.")
    Path seedFile;

    @Option(names = "--profile", paramLabel = "FILE", description = "A YAML crawl profile.")
    Path profileFile;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = {"Sets a profile key, e.g. --set politeness.max-connections-per-host=4; repeatable, the"
                    + " last wins. A list as [a, b] (quote an item holding a comma: [\"a,b\"]), or one item;"
                    + " durations as 500ms, 1.5s or 2 (seconds). The keys and their defaults are listed below."})
    List<String> sets = new ArrayList<>();

    // Shorthands for --set: each names its key, which gives its description and default (CrawlHelp).

    @Option(names = "--out", paramLabel = "DIR", descriptionKey = "key.output.dir")
    String out;

    @Option(names = "--threads", paramLabel = "N", descriptionKey = "key.fetch.threads")
    String threads;

    @Option(names = "--max-pages", paramLabel = "N", descriptionKey = "key.limits.max-pages")
    String maxPages;

    @Option(names = "--max-depth", paramLabel = "N", descriptionKey = "key.scope.max-depth")
    String maxDepth;

    @Option(names = "--delay", paramLabel = "DURATION", descriptionKey = "key.politeness.delay")
    String delay;

    @Option(names = "--user-agent", paramLabel = "S", descriptionKey = "key.fetch.user-agent")
    String userAgent;

    @Option(names = "--warc", descriptionKey = "key.output.warc")
    boolean warc;

    @Option(names = "--overwrite",
            description = "Start afresh in an output folder that holds an earlier crawl: delete its pages.jsonl,"
                    + " summary.json, crawl.log, progress.jsonl, report.html, audit.json, changes.jsonl, rules.jsonl,"
                    + " checkpoint/, frontier/, history/ and WARC files (no other file) first."
                    + " Without it such a folder is refused.")
    boolean overwrite;

    @Option(names = "--no-progress",
            description = "No live progress line at a terminal (it is drawn when standard error is a terminal and"
                    + " -q is not given); the progress log lines go to the console instead, as when not at a"
                    + " terminal.")
    boolean noProgress;

    @Option(names = "--resume", paramLabel = "DIR", descriptionKey = CrawlHelp.RESUME)
    Path resume;

    @Option(names = "--since", paramLabel = "DIR",
            description = {"Recrawl: start from the crawl in DIR (finished or stopped) and write to another folder"
                    + " (--out). Its seeds and every URL it made a request for are crawled again, each page with its"
                    + " ETag and Last-Modified (If-None-Match, If-Modified-Since): a 304 is recorded not-modified,"
                    + " and with --warc archived as a revisit of DIR's capture, as is a page whose body is the same."
                    + " changes.jsonl says what changed. Without --profile, DIR's profile is used."})
    Path since;

    @Option(names = "--fail-on", paramLabel = "LISTS", converter = FailOn.Converter.class,
            description = FailOn.DESCRIPTION)
    AuditGate failOn;

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
            UsageErrors.print(err, e.getMessage());
            return CrawlerCommand.USAGE;
        }
        if (since != null) {
            Optional<CrawlProfile> earlier = earlierCrawl(err);
            if (earlier == null) {
                return CrawlerCommand.USAGE;
            }
            if (profileFile == null && earlier.isPresent()) {
                profile = earlier.get();
            }
        }
        SeedList seeds = new SeedList();
        if (urls.isEmpty() && seedFile == null) { // seeds given on the command line replace the profile's
            String profileName = profileFile == null ? "profile" : profileFile.toString();
            for (int i = 0; i < profile.seeds().size(); i++) {
                seeds.add(profileName + ": seeds[" + i + "]", profile.seeds().get(i));
            }
        }
        seeds.addArguments(urls);
        seeds.report("crawl").forEach(line -> UsageErrors.print(err, line));
        boolean fileSeeds = false;
        if (seedFile != null) { // streamed into the crawl: read here only up to its first usable seed
            List<String> problems = new ArrayList<>();
            try {
                InputFile.requireRegularFile(seedFile, "a seed file");
                fileSeeds = SeedFeed.hasSeed(seedFile, problems::add);
            } catch (InputFileException e) {
                UsageErrors.print(err, "crawl: --seeds " + seedFile + ": " + e.reason());
                return CrawlerCommand.USAGE;
            }
            if (!fileSeeds) {
                problems.forEach(line -> UsageErrors.print(err, line));
            }
        }
        if (seeds.seeds().isEmpty() && !fileSeeds && since == null) {
            err.println("crawl: no usable seed: give URLs as arguments, a seed file with --seeds FILE,"
                    + " or seeds in the --profile");
            return CrawlerCommand.USAGE;
        }
        try {
            profile = overrides(profile.with(SEEDS, seeds.seeds()));
        } catch (IllegalArgumentException e) {
            UsageErrors.print(err, "crawl: " + e.getMessage());
            return CrawlerCommand.USAGE;
        }
        if (failOn != null && failOn.lists().contains("brokenLinks") && !profile.output().links()) {
            UsageErrors.print(err, "crawl: --fail-on broken-links needs the link graph, which output.links: false"
                    + " leaves out: add --set output.links=true (config/site.yaml has it on)");
            return CrawlerCommand.USAGE;
        }
        if (since != null && sameFolder(since, profile.output().dir())) {
            UsageErrors.print(err, "crawl: --since " + since + ": a recrawl writes to a folder of its own, and "
                    + (out != null ? "--out" : "output.dir") + " names the earlier crawl's; give another with --out"
                    + " DIR");
            return CrawlerCommand.USAGE;
        }
        if (!CrawlRun.makeOutputFolder("crawl", out != null ? "--out" : "output.dir", profile.output().dir(), err)) {
            return CrawlerCommand.USAGE;
        }
        return gated(profile, CrawlRun.run(profile, Optional.ofNullable(seedFile), Optional.ofNullable(since), overwrite
                ? Crawler.Start.OVERWRITE : Crawler.Start.NEW, root.program(), root.stopSignal(), logging.format,
                terminal(), spec.commandLine().getOut(), err), err);
    }

    /**
     * The profile the crawl in {@code --since DIR} saved (empty when it saved none: a crawl stopped before its first
     * checkpoint), or null after printing why DIR is no crawl's folder.
     */
    private Optional<CrawlProfile> earlierCrawl(PrintWriter err) {
        if (!Files.isDirectory(since)) {
            UsageErrors.print(err, "crawl: --since " + since + ": no such folder");
            return null;
        }
        if (!Files.isRegularFile(since.resolve(CrawlFolder.PAGES))) {
            UsageErrors.print(err, "crawl: --since " + since + ": holds no " + CrawlFolder.PAGES
                    + ", so it is not the folder of a crawl");
            return null;
        }
        try {
            return Optional.of(new CheckpointStore(since).readProfile());
        } catch (CheckpointException e) {
            return Optional.empty();
        }
    }

    private static boolean sameFolder(Path a, Path b) {
        try {
            return Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
        }
    }

    /** {@code exit}, or after a crawl that ended well, what {@code --fail-on} says of its audit ({@link FailOn}). */
    private int gated(CrawlProfile profile, int exit, PrintWriter err) {
        if (failOn == null || exit != CrawlRun.FINISHED) {
            return exit;
        }
        int gate = FailOn.check("crawl", failOn, profile.output().dir(), spec.commandLine().getOut(), err);
        spec.commandLine().getOut().flush();
        return gate;
    }

    /**
     * {@code --resume DIR}: the crawl goes on with the seeds and profile its checkpoint saved, with the keys given
     * (--set and the shorthands) changed where a resume may change them; seeds, another profile and --overwrite are
     * refused, and so is a change of a key fixed for the crawl ({@link CrawlStart#changesOnResume}), each named.
     */
    private int resume(PrintWriter err) {
        List<String> refused = new ArrayList<>();
        if (!urls.isEmpty()) {
            refused.add("seed URLs");
        }
        for (OptionSpec option : spec.commandLine().getParseResult().matchedOptions()) {
            String name = option.longestName();
            if (!WITH_RESUME.contains(name) && shorthandKey(option) == null && !refused.contains(name)
                    && spec.mixins().get("logging").findOption(name) == null) {
                refused.add(name);
            }
        }
        if (!refused.isEmpty()) {
            UsageErrors.print(err, "crawl: --resume " + resume + ": a resumed crawl goes on with the seeds and profile it was"
                    + " started with; " + String.join(", ", refused) + " cannot be given with --resume. A resume"
                    + " may change " + ProfileKeys.mayChangeOnResume() + ", with --set KEY=VALUE or "
                    + String.join(", ", resumeShorthands()));
            return CrawlerCommand.USAGE;
        }
        CrawlProfile profile;
        try {
            CrawlProfile saved = new CheckpointStore(resume).readProfile();
            profile = overrides(saved);
            CrawlStart.changesOnResume(resume, saved, profile); // before the crawl: --out would name another folder
        } catch (CheckpointException e) {
            UsageErrors.print(err, "crawl: --resume " + resume + ": " + e.getMessage());
            return CrawlerCommand.USAGE;
        } catch (IllegalArgumentException e) {
            UsageErrors.print(err, "crawl: " + e.getMessage());
            return CrawlerCommand.USAGE;
        }
        return gated(profile, CrawlRun.run(profile, Optional.empty(), Optional.empty(), Crawler.Start.RESUME,
                root.program(),
                root.stopSignal(), logging.format, terminal(), spec.commandLine().getOut(), err), err);
    }

    /** The profile key an option is the shorthand of ({@code --delay}: politeness.delay), or null. */
    private static ProfileKey<?> shorthandKey(OptionSpec option) {
        String description = option.descriptionKey();
        return description != null && description.startsWith(CrawlHelp.KEY_PREFIX)
                ? ProfileKeys.named(description.substring(CrawlHelp.KEY_PREFIX.length())) : null;
    }

    /** The shorthand options of the keys a resume may change: --threads, --max-pages, --delay, --user-agent. */
    private List<String> resumeShorthands() {
        return spec.options().stream().filter(option -> shorthandKey(option) != null
                && shorthandKey(option).onResume().mayChange()).map(OptionSpec::longestName).toList();
    }

    /** Where the live progress line goes: standard error if it is a terminal, unless -q or --no-progress. */
    private Optional<ErrTerminal> terminal() {
        return noProgress || logging.quiet.length > 0 ? Optional.empty() : ErrTerminal.detect();
    }

    /**
     * The profile with every flag given applied, through the table of profile keys: the shorthands first, then
     * each {@code --set} in order.
     *
     * @throws IllegalArgumentException naming each flag, key, rule and value that is wrong, one per line
     */
    CrawlProfile overrides(CrawlProfile profile) {
        ProfileOverrides given = new ProfileOverrides();
        shorthand(given, "--out", ProfileKeys.OUTPUT_DIR, out);
        shorthand(given, "--threads", ProfileKeys.FETCH_THREADS, threads);
        shorthand(given, "--user-agent", ProfileKeys.FETCH_USER_AGENT, userAgent);
        shorthand(given, "--max-pages", ProfileKeys.LIMITS_MAX_PAGES, maxPages);
        shorthand(given, "--max-depth", ProfileKeys.SCOPE_MAX_DEPTH, maxDepth);
        shorthand(given, "--delay", ProfileKeys.POLITENESS_DELAY, delay);
        shorthand(given, "--warc", ProfileKeys.OUTPUT_WARC, warc ? "true" : null);
        sets.forEach(given::set);
        try {
            return given.applyTo(profile);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().replace("\n", System.lineSeparator() + "crawl: "), e);
        }
    }

    private static void shorthand(ProfileOverrides given, String option, ProfileKey<?> key, String value) {
        if (value != null) {
            given.set(option, key.name(), value);
        }
    }
}
