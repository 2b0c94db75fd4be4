package org.sievecrawler.cli;

import java.time.Duration;
import org.sievecrawler.cluster.ClusterAdmin;
import org.sievecrawler.cluster.ClusterClients;
import org.sievecrawler.cluster.ClusterException;
import org.sievecrawler.cluster.CrawlName;
import org.sievecrawler.cluster.FrontierProducer;
import org.sievecrawler.cluster.HostRoutes;
import org.sievecrawler.cluster.SeedStore;
import org.sievecrawler.profile.ProfileUnits;
import org.sievecrawler.shell.Program;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * The options every {@code crawler cluster} command takes, as a picocli mixin: which Kafka cluster
 * ({@code --bootstrap}), which crawl ({@code --crawl}) and how long to wait for the cluster ({@code --timeout}); the
 * checks of the first two, each problem naming its option; the clients for them (from the root command's
 * {@link ClusterConnector}); and how a command reports a problem ("cluster init: ...") with its exit code.
 *
 * <p>Not thread-safe (picocli fills it in before the command runs). Out of scope: what a command does with the
 * cluster.
 */
final class ClusterOptions {
    /** The cluster did not answer in time, or failed. */
    static final int UNAVAILABLE = 1;
    static final String EXIT_UNAVAILABLE = " 1:the Kafka cluster did not answer in time, or failed";

    @Option(names = "--bootstrap", required = true, paramLabel = "HOST:PORT",
            description = "A broker of the Kafka cluster (several separated by commas).")
    String bootstrap;

    @Option(names = "--crawl", required = true, paramLabel = "NAME",
            description = "The crawl's name, the prefix of its topics: letters, digits, '.', '_', '-'.")
    String crawl;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "15s", converter = DurationConverter.class,
            description = "How long to wait for the cluster, e.g. 15s (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    /** The command this is mixed into (cluster init, seed, status). */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /**
     * The cluster and the crawl a command is about: {@code --bootstrap} in Kafka's form and {@code --crawl}, checked.
     *
     * @param servers the bootstrap servers
     * @param crawl the crawl's name
     */
    record Target(String servers, CrawlName crawl) {
    }

    /**
     * {@code --bootstrap} and {@code --crawl}, checked.
     *
     * @throws IllegalArgumentException naming the option and what is wrong with it
     */
    Target target() {
        return new Target(servers(), crawlName());
    }

    /** An Admin client for {@code target}'s cluster, each request bounded by {@code --timeout}. */
    ClusterAdmin admin(Target target) throws ClusterException {
        return connector().connect(target.servers(), timeout);
    }

    /**
     * A producer for {@code target}'s frontier, each send bounded by {@code --timeout}, the seed hosts sent where
     * {@code routes} placed them.
     */
    FrontierProducer frontier(Target target, HostRoutes routes) throws ClusterException {
        return connector().frontier(target.servers(), target.crawl(), timeout, routes);
    }

    /** The store of {@code target}'s seeds, each read and write bounded by {@code --timeout}. */
    SeedStore seeds(Target target) throws ClusterException {
        return connector().seeds(target.servers(), target.crawl(), timeout);
    }

    private ClusterConnector connector() {
        return ((CrawlerCommand) command.root().userObject()).clusters();
    }

    /** This program as the user started it, which the commands a refusal suggests start with. */
    Program program() {
        return ((CrawlerCommand) command.root().userObject()).program();
    }

    /** Reports a usage problem, "cluster init: {@code message}", on the command's error stream; returns 2. */
    int usage(String message) {
        UsageErrors.print(command.commandLine().getErr(), name() + ": " + message);
        return CrawlerCommand.USAGE;
    }

    /**
     * Reports {@code failure} on the command's error stream and returns its exit code: 2 when the cluster refused,
     * {@link #UNAVAILABLE} when it did not answer.
     */
    int failed(ClusterException failure) {
        command.commandLine().getErr().println(name() + ": " + failure.getMessage());
        return failure.kind() == ClusterException.Kind.REFUSED ? CrawlerCommand.USAGE : UNAVAILABLE;
    }

    /** "cluster init", "cluster seed", ...: how the command's messages start. */
    private String name() {
        return command.parent().name() + " " + command.name();
    }

    /**
     * The bootstrap servers in Kafka's form.
     *
     * @throws IllegalArgumentException naming {@code --bootstrap} and what is wrong with it
     */
    private String servers() {
        try {
            return ClusterClients.bootstrapServers(bootstrap);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--bootstrap: " + e.getMessage(), e);
        }
    }

    /**
     * The crawl's name.
     *
     * @throws IllegalArgumentException naming {@code --crawl} and the rule it breaks
     */
    private CrawlName crawlName() {
        try {
            return new CrawlName(crawl);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--crawl: " + e.getMessage().replaceFirst("^crawl name ", ""), e);
        }
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
