package org.sievecrawler.cli;

import java.io.PrintWriter;
import java.time.Duration;
import org.sievecrawler.cluster.ClusterAdmin;
import org.sievecrawler.cluster.ClusterException;
import org.sievecrawler.cluster.CrawlName;
import org.sievecrawler.profile.ProfileUnits;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The options every {@code crawler cluster} command takes, as a picocli mixin: which Kafka cluster
 * ({@code --bootstrap}), which crawl ({@code --crawl}) and how long to wait for the cluster ({@code --timeout}); the
 * checks of the first two, each problem naming its option; and the exit code of a {@link ClusterException}.
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

    /**
     * The bootstrap servers in Kafka's form.
     *
     * @throws IllegalArgumentException naming {@code --bootstrap} and what is wrong with it
     */
    String servers() {
        try {
            return ClusterAdmin.bootstrapServers(bootstrap);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--bootstrap: " + e.getMessage(), e);
        }
    }

    /**
     * The crawl's name.
     *
     * @throws IllegalArgumentException naming {@code --crawl} and the rule it breaks
     */
    CrawlName crawlName() {
        try {
            return new CrawlName(crawl);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--crawl: " + e.getMessage().replaceFirst("^crawl name ", ""), e);
        }
    }

    /**
     * Reports {@code failure} of {@code command} (e.g. "cluster init") on {@code err} and returns its exit code: 2 when
     * the cluster refused, {@link #UNAVAILABLE} when it did not answer.
     */
    static int failed(String command, ClusterException failure, PrintWriter err) {
        err.println(command + ": " + failure.getMessage());
        return failure.kind() == ClusterException.Kind.REFUSED ? CrawlerCommand.USAGE : UNAVAILABLE;
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
