package org.sievecrawler.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code crawler cluster}: the commands of a crawl across machines on Apache Kafka. Without a subcommand it prints
 * its usage. A single-node {@code crawl} needs none of this.
 */
@Command(name = "cluster", mixinStandardHelpOptions = true, subcommands = {ClusterInitCommand.class, ClusterSeedCommand.class,
        ClusterRunCommand.class, ClusterStatusCommand.class},
        description = {"Commands of a crawl across machines on Apache Kafka (a single-node crawl needs none).",
            "A local broker for trying it: crawler-cluster/kafka-local.sh start"},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {ClusterInitCommand.EXIT_OK, ClusterOptions.EXIT_UNAVAILABLE,
            ClusterInitCommand.EXIT_REFUSED})
final class ClusterCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CrawlerCommand.USAGE;
    }
}
