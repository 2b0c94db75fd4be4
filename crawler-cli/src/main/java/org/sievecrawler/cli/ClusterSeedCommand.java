package org.sievecrawler.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.sievecrawler.cluster.ClusterAdmin;
import org.sievecrawler.cluster.ClusterException;
import org.sievecrawler.cluster.ClusterTopics;
import org.sievecrawler.cluster.FrontierProducer;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.sieve.PendingUrl;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code crawler cluster seed --bootstrap HOST:PORT --crawl NAME [URL...] [--seeds FILE]}: normalizes the seeds as
 * {@code crawl} does ({@link SeedList}), checks that the crawl's topics exist as {@code cluster init} made them
 * ({@link ClusterAdmin#requireCrawl}), sends the seeds at depth 0 to {@code NAME.frontier} keyed by host
 * ({@link FrontierProducer}), waits until all are acknowledged and prints how many went to how many partitions.
 * Seeding again appends the seeds again; a partition's owner is to drop those its Sieve has seen. Runs on the
 * caller's thread. Out of scope: consuming the frontier, and a crawl's other URLs (links are sent by the crawl).
 */
@Command(name = "seed", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Sends seed URLs to a cluster crawl's frontier (NAME.frontier), each to the partition of its"
                + " host.",
            "The crawl's topics must exist: run `cluster init` first."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {ClusterSeedCommand.EXIT_OK, ClusterOptions.EXIT_UNAVAILABLE,
            ClusterSeedCommand.EXIT_REFUSED})
final class ClusterSeedCommand implements Callable<Integer> {
    static final String EXIT_OK = " 0:done: every seed was acknowledged by the cluster";
    static final String EXIT_REFUSED = " 2:usage error, no usable seed, or refused (no such crawl, a seed refused)";

    @Spec
    CommandSpec spec;

    @Mixin
    LoggingOptions logging;

    @Mixin
    ClusterOptions cluster;

    @Parameters(paramLabel = "URL", arity = "0..*", description = "Seed URLs (http or https).")
    List<String> urls = new ArrayList<>();

    @Option(names = "--seeds", paramLabel = "FILE",
            description = "A seed file: one URL per line, # starting a comment (at a line's start or after a space);"
                    + " blank lines are skipped, and bad ones, each named.")
    Path seedFile;

    @Override
    public Integer call() {
        logging.apply();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ClusterOptions.Target target;
        try {
            target = cluster.target();
        } catch (IllegalArgumentException e) {
            return cluster.usage(e.getMessage());
        }
        SeedList seeds = new SeedList();
        seeds.addArguments(urls);
        if (seedFile != null) {
            try {
                seeds.addFile(seedFile);
            } catch (InputFileException e) {
                return cluster.usage("--seeds " + seedFile + ": " + e.reason());
            }
        }
        seeds.report("cluster seed").forEach(err::println);
        if (seeds.seeds().isEmpty()) {
            return cluster.usage("no usable seed: give URLs as arguments or a seed file with --seeds FILE");
        }
        FrontierProducer.Acknowledged acknowledged;
        int partitions;
        try {
            try (ClusterAdmin admin = cluster.admin(target)) {
                partitions = admin.requireCrawl(target.crawl(), cluster.program());
            }
            try (FrontierProducer frontier = cluster.frontier(target)) {
                for (String url : seeds.seeds()) {
                    frontier.send(PendingUrl.seed(url));
                }
                frontier.flush();
                acknowledged = frontier.acknowledged();
            }
        } catch (ClusterException e) {
            return cluster.failed(e);
        }
        out.println("sent " + acknowledged.urls() + (acknowledged.urls() == 1 ? " seed" : " seeds") + " to "
                + acknowledged.partitions().size() + " of " + partitions + " partitions of " + target.crawl()
                + ClusterTopics.FRONTIER + " on the Kafka cluster at " + target.servers());
        out.flush();
        return 0;
    }
}
