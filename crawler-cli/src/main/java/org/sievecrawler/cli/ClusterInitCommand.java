package org.sievecrawler.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.sievecrawler.cluster.ClusterAdmin;
import org.sievecrawler.cluster.ClusterException;
import org.sievecrawler.cluster.ClusterTopics;
import org.sievecrawler.cluster.CrawlName;
import org.sievecrawler.cluster.TopicCheck;
import org.sievecrawler.cluster.TopicSpec;
import org.sievecrawler.profile.ProfileUnits;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code crawler cluster init --bootstrap HOST:PORT --crawl NAME}: creates the crawl's Kafka topics with
 * {@link ClusterAdmin#init} and prints each topic and whether it was created or was there already. Idempotent; a
 * topic that exists otherwise (other partitions, compaction) is refused and nothing is created.
 */
@Command(name = "init", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Creates the Kafka topics of a cluster crawl: NAME.frontier (URLs, keyed by",
            "host), NAME.fetched (done-log, co-partitioned with it) and NAME.sieve-state",
            "(Sieve snapshots, compacted). Running it again is harmless: topics there",
            "already as asked are left as they are; topics there otherwise are refused."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {ClusterInitCommand.EXIT_OK, ClusterInitCommand.EXIT_UNAVAILABLE,
            ClusterInitCommand.EXIT_REFUSED})
final class ClusterInitCommand implements Callable<Integer> {
    static final String EXIT_OK = " 0:done: the crawl's topics are there as asked";
    static final String EXIT_UNAVAILABLE = " 1:the Kafka cluster did not answer in time, or failed";
    static final String EXIT_REFUSED = " 2:usage error, or refused (topics there otherwise, too few brokers)";
    static final int UNAVAILABLE = 1;

    @Spec
    CommandSpec spec;

    @Mixin
    LoggingOptions logging;

    @Option(names = "--bootstrap", required = true, paramLabel = "HOST:PORT",
            description = "A broker of the Kafka cluster (several separated by commas).")
    String bootstrap;

    @Option(names = "--crawl", required = true, paramLabel = "NAME",
            description = "The crawl's name, the prefix of its topics: letters, digits, '.', '_', '-'.")
    String crawl;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "" + ClusterTopics.DEFAULT_PARTITIONS,
            description = "Partitions of every topic, fixed for the crawl's life: at most one process per "
                    + "partition crawls (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--replication", paramLabel = "R", defaultValue = "" + ClusterTopics.DEFAULT_REPLICATION,
            description = "Replication factor of every topic: 1 for one broker, 3 in production "
                    + "(then min.insync.replicas=2) (default: ${DEFAULT-VALUE}).")
    short replication;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "15s", converter = DurationConverter.class,
            description = "How long to wait for the cluster, e.g. 15s (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Override
    public Integer call() {
        logging.apply();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ClusterTopics topics;
        String servers;
        try {
            servers = ClusterAdmin.bootstrapServers(bootstrap);
        } catch (IllegalArgumentException e) {
            return usage(err, "--bootstrap: " + e.getMessage());
        }
        try {
            topics = new ClusterTopics(new CrawlName(crawl), partitions, replication);
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            return usage(err, message.startsWith("crawl name ") ? "--crawl: " + message.substring(11)
                    : "--" + message.replaceFirst(" must", ": must"));
        }
        CrawlerCommand root = (CrawlerCommand) spec.root().userObject();
        List<TopicCheck> done;
        try (ClusterAdmin admin = root.clusters().connect(servers, timeout)) {
            done = admin.init(topics);
        } catch (ClusterException e) {
            err.println("cluster init: " + e.getMessage());
            return e.kind() == ClusterException.Kind.REFUSED ? CrawlerCommand.USAGE : UNAVAILABLE;
        }
        out.println("crawl " + topics.crawl() + " on the Kafka cluster at " + servers + ":");
        int width = topics.all().stream().mapToInt(t -> t.name().length()).max().orElse(0);
        long created = done.stream().filter(c -> c instanceof TopicCheck.Missing).count();
        for (TopicCheck check : done) {
            TopicSpec t = check.spec();
            String what = check instanceof TopicCheck.Missing ? "created" : "exists ";
            String replicas = check instanceof TopicCheck.Matches m ? Integer.toString(m.state().replication())
                    : Short.toString(t.replication());
            out.println(String.format(Locale.ROOT, "  %s  %-" + width + "s  %d partitions, replication %s, %s=%-7s  %s",
                    what, t.name(), t.partitions(), replicas, TopicSpec.CLEANUP_POLICY, t.cleanupPolicy(),
                    t.purpose()));
        }
        out.println(created == done.size() ? "created " + created + " topics"
                : created == 0 ? "all " + done.size() + " topics were there already, as asked; nothing created"
                : "created " + created + " topics; " + (done.size() - created) + " were there already, as asked");
        out.flush();
        return 0;
    }

    private static int usage(PrintWriter err, String message) {
        err.println("cluster init: " + message);
        return CrawlerCommand.USAGE;
    }

    /** A duration as in profiles: 500ms, 15s, 2m, or a bare number of seconds; more than zero. */
    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            Duration duration = ProfileUnits.parseDuration(value);
            if (duration == null || duration.isZero() || duration.isNegative()) {
                throw new TypeConversionException("\"" + value + "\" is not " + ProfileUnits.DURATION_FORMS
                        + ", more than 0");
            }
            return duration;
        }
    }
}
