package org.sievecrawler.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.Callable;
import org.sievecrawler.cluster.ClusterAdmin;
import org.sievecrawler.cluster.ClusterException;
import org.sievecrawler.cluster.ClusterTopics;
import org.sievecrawler.cluster.FrontierProducer;
import org.sievecrawler.cluster.HostRoutes;
import org.sievecrawler.cluster.SeedStore;
import org.sievecrawler.politeness.HostKey;
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

    /** "a.example on 0, b.example on 7". */
    private static String placements(HostRoutes routes) {
        return routes.placed().entrySet().stream().sorted(Map.Entry.comparingByValue())
                .map(e -> e.getKey() + " on " + e.getValue()).collect(Collectors.joining(", "));
    }

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
        seeds.report("cluster seed").forEach(line -> UsageErrors.print(err, line));
        if (seeds.seeds().isEmpty()) {
            return cluster.usage("no usable seed: give URLs as arguments or a seed file with --seeds FILE");
        }
        FrontierProducer.Acknowledged acknowledged;
        int partitions;
        HostRoutes routes;
        List<String> newHosts;
        boolean running;
        boolean placing;
        try {
            boolean untouched;
            try (ClusterAdmin admin = cluster.admin(target)) {
                partitions = admin.requireCrawl(target.crawl(), cluster.program());
                untouched = admin.untouched(target.crawl(), partitions);
                running = !untouched && admin.processes(target.crawl()) > 0;
            }
            List<String> hosts = seeds.seeds().stream().map(HostKey::host).distinct().toList();
            try (SeedStore store = cluster.seeds(target)) {
                SeedStore.Seeds stored = store.read(partitions);
                Set<String> storedHosts = stored.urls().stream().map(HostKey::host).collect(Collectors.toSet());
                newHosts = stored.urls().isEmpty() ? List.of()
                        : hosts.stream().filter(h -> !storedHosts.contains(h)).toList();
                placing = untouched && stored.routes().placed().isEmpty();
                routes = placing ? HostRoutes.spread(hosts, partitions) : stored.routes();
                store.write(seeds.seeds(), routes);
            }
            try (FrontierProducer frontier = cluster.frontier(target, routes)) {
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
        out.println("stored in " + target.crawl() + ClusterTopics.SEEDS + ": every cluster run takes its scope from"
                + " the crawl's seeds" + (!placing ? ""
                        : "; seed hosts placed to share them out among the processes: " + placements(routes)));
        if (!newHosts.isEmpty() && running) {
            err.println("cluster seed: note: " + String.join(", ", newHosts) + (newHosts.size() == 1 ? " is" : " are")
                    + " new to crawl " + target.crawl() + ", and processes of it are running: they took the crawl's"
                    + " seeds (their scope) when they started, so those whose profile says scope.hosts: same-as-seeds"
                    + " refuse these seeds (out-of-scope-host); stop them (Ctrl-C), start them again, then send these"
                    + " seeds again");
        }
        out.flush();
        return 0;
    }
}
