package org.sievecrawler.cli;

import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.sievecrawler.Crawler;
import org.sievecrawler.cli.demo.DemoSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileLoader;
import org.sievecrawler.shell.Program;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code crawler demo}: starts the {@link DemoSite} on 127.0.0.1, crawls it with the demo profile into a
 * fresh folder, prints the folder and the summary, and stops the site. Needs no internet.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Crawls a sample site on 127.0.0.1, no internet needed.",
            "The site has a few hundred documentation pages, a robots.txt, a few broken links and redirects.",
            "Prints the output folder (pages.jsonl, summary.json, crawl.log) and the summary."})
final class DemoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ParentCommand
    CrawlerCommand root;

    @Mixin
    LoggingOptions logging;

    @Option(names = "--out", paramLabel = "DIR", description = "The output folder (default: a new temporary folder).")
    Path out;

    @Option(names = "--overwrite",
            description = "Start afresh in a --out folder that holds an earlier crawl: delete its files first.")
    boolean overwrite;

    @Override
    public Integer call() throws IOException {
        logging.apply();
        PrintWriter stdout = spec.commandLine().getOut();
        if (out != null && !CrawlRun.makeOutputFolder("demo", "--out", out, spec.commandLine().getErr())) {
            return CrawlerCommand.USAGE;
        }
        Path dir = out != null ? out : Files.createTempDirectory("sieve-demo-");
        try (DemoSite site = DemoSite.start()) {
            stdout.println("demo site: " + site.homeUrl() + " (" + DemoSite.pageCount()
                    + " pages, a robots.txt, a few broken links and redirects)");
            int exit = CrawlRun.run(profile(site.homeUrl(), dir), overwrite ? Crawler.Start.OVERWRITE
                    : Crawler.Start.NEW, root.program(), root.stopSignal(), logging.format, stdout,
                    spec.commandLine().getErr());
            stdout.println(exit == CrawlRun.FINISHED
                    ? "demo site stopped. The report, with charts (open it in a browser): " + dir.resolve("report.html")
                            + System.lineSeparator() + "one line per URL: head "
                            + Program.quote(dir.resolve("pages.jsonl").toString())
                    : "demo site stopped.");
            stdout.flush();
            return exit;
        }
    }

    /**
     * The demo profile: the defaults, with no delay (the site is local), robots.txt respected, four fetcher
     * threads and four connections to the one host, a progress line every second.
     */
    /** The demo profile (config/demo.yaml, built into the jar) with the sample site's seed and a fresh folder. */
    static CrawlProfile profile(String seed, Path dir) {
        CrawlProfile demo = ProfileLoader.loadBuiltIn("demo");
        return demo.with(SEEDS, List.of(seed)).with(OUTPUT_DIR, dir);
    }
}
