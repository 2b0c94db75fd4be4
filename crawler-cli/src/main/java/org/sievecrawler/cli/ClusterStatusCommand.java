package org.sievecrawler.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.sievecrawler.cluster.ClusterAdmin;
import org.sievecrawler.cluster.ClusterException;
import org.sievecrawler.cluster.ClusterStatus;
import org.sievecrawler.cluster.ClusterTopics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code crawler cluster status --bootstrap HOST:PORT --crawl NAME}: prints where a cluster crawl stands, read with
 * {@link ClusterAdmin#status}: per frontier partition its owner (the member of {@code NAME.crawlers} it is assigned
 * to), records sent, consumed (the group's committed offset) and the lag between them, URLs marked done in
 * {@code NAME.fetched}; then the totals. A read: it changes nothing. Runs on the caller's thread. Out of scope:
 * URLs in flight inside a process, and waiting until the crawl has drained ({@code --wait-done}, later).
 */
@Command(name = "status", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Shows where a cluster crawl stands: per partition of NAME.frontier its owner",
            "(a member of the consumer group NAME.crawlers), records sent, consumed and the",
            "lag between them, and URLs marked done in NAME.fetched; then the totals."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {ClusterStatusCommand.EXIT_OK, ClusterOptions.EXIT_UNAVAILABLE,
            ClusterStatusCommand.EXIT_REFUSED})
final class ClusterStatusCommand implements Callable<Integer> {
    static final String EXIT_OK = " 0:the status was printed";
    static final String EXIT_REFUSED = " 2:usage error, or refused (no such crawl, topics there otherwise)";

    @Spec
    CommandSpec spec;

    @Mixin
    LoggingOptions logging;

    @Mixin
    ClusterOptions cluster;

    @Override
    public Integer call() {
        logging.apply();
        PrintWriter out = spec.commandLine().getOut();
        ClusterOptions.Target target;
        try {
            target = cluster.target();
        } catch (IllegalArgumentException e) {
            return cluster.usage(e.getMessage());
        }
        ClusterStatus status;
        try (ClusterAdmin admin = cluster.admin(target)) {
            status = admin.status(target.crawl());
        } catch (ClusterException e) {
            return cluster.failed(e);
        }
        out.println("crawl " + status.crawl() + " on the Kafka cluster at " + target.servers() + ": "
                + status.partitions().size() + " partitions of " + status.crawl() + ClusterTopics.FRONTIER
                + ", consumer group " + status.group());
        status.table().forEach(out::println);
        out.flush();
        return 0;
    }
}
