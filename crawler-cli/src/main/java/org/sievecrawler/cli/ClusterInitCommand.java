package org.sievecrawler.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.sievecrawler.cluster.ClusterAdmin;
import org.sievecrawler.cluster.ClusterException;
import org.sievecrawler.cluster.ClusterTopics;
import org.sievecrawler.cluster.TopicCheck;
import org.sievecrawler.cluster.TopicSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code crawler cluster init --bootstrap HOST:PORT --crawl NAME}: creates the crawl's Kafka topics with
 * {@link ClusterAdmin#init} and prints each topic and whether it was created or was there already. Idempotent; a
 * topic that exists otherwise (other partitions, compaction) is refused and nothing is created.
 */
@Command(name = "init", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Creates the Kafka topics of a cluster crawl.",
            "NAME.frontier (URLs, keyed by host), NAME.fetched (done-log, co-partitioned with it), NAME.sieve-state"
                    + " (Sieve snapshots, compacted), NAME.rejected (copies of bad records) and NAME.seeds (the seeds,"
                    + " stored by `cluster seed`, read by `cluster run`).",
            "Running it again is harmless: topics there already as asked are left as they are (a crawl made before"
                    + " NAME.rejected or NAME.seeds gets them); topics there otherwise are refused."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {ClusterInitCommand.EXIT_OK, ClusterOptions.EXIT_UNAVAILABLE,
            ClusterInitCommand.EXIT_REFUSED})
final class ClusterInitCommand implements Callable<Integer> {
    static final String EXIT_OK = " 0:done: the crawl's topics are there as asked";
    static final String EXIT_REFUSED = " 2:usage error, or refused (topics there otherwise, too few brokers)";

    @Spec
    CommandSpec spec;

    @Mixin
    LoggingOptions logging;

    @Mixin
    ClusterOptions cluster;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "" + ClusterTopics.DEFAULT_PARTITIONS,
            description = "Partitions of every topic, fixed for the crawl's life: at most one process per "
                    + "partition crawls (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--replication", paramLabel = "R", defaultValue = "" + ClusterTopics.DEFAULT_REPLICATION,
            description = "Replication factor of every topic: 1 for one broker, 3 in production "
                    + "(then min.insync.replicas=2) (default: ${DEFAULT-VALUE}).")
    short replication;

    @Override
    public Integer call() {
        logging.apply();
        PrintWriter out = spec.commandLine().getOut();
        ClusterOptions.Target target;
        ClusterTopics topics;
        try {
            target = cluster.target();
        } catch (IllegalArgumentException e) {
            return cluster.usage(e.getMessage());
        }
        try {
            topics = new ClusterTopics(target.crawl(), partitions, replication);
        } catch (IllegalArgumentException e) {
            return cluster.usage("--" + e.getMessage().replaceFirst(" must", ": must"));
        }
        List<TopicCheck> done;
        try (ClusterAdmin admin = cluster.admin(target)) {
            done = admin.init(topics);
        } catch (ClusterException e) {
            return cluster.failed(e);
        }
        out.println("crawl " + topics.crawl() + " on the Kafka cluster at " + target.servers() + ":");
        int width = topics.all().stream().mapToInt(t -> t.name().length()).max().orElse(0);
        long created = done.stream().filter(c -> c instanceof TopicCheck.Missing).count();
        for (TopicCheck check : done) {
            TopicSpec t = check.spec();
            String what = check instanceof TopicCheck.Missing ? "created" : "exists ";
            String replicas = check instanceof TopicCheck.Matches m ? Integer.toString(m.state().replication())
                    : Short.toString(t.replication());
            out.println(String.format(Locale.ROOT, "  %s  %-" + width + "s  %2d %-11s replication %s, %s=%-7s  %s",
                    what, t.name(), t.partitions(), t.partitions() == 1 ? "partition," : "partitions,", replicas,
                    TopicSpec.CLEANUP_POLICY, t.cleanupPolicy(), t.purpose()));
        }
        String createdTopics = created + (created == 1 ? " topic" : " topics");
        out.println(created == done.size() ? "created " + createdTopics
                : created == 0 ? "all " + done.size() + " topics were there already, as asked; nothing created"
                : "created " + createdTopics + "; " + (done.size() - created) + " were there already, as asked");
        out.flush();
        return 0;
    }
}
