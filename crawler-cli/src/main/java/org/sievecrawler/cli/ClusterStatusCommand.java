package org.sievecrawler.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.sievecrawler.cluster.ClusterAdmin;
import org.sievecrawler.cluster.ClusterException;
import org.sievecrawler.cluster.ClusterStatus;
import org.sievecrawler.cluster.ClusterTopics;
import org.sievecrawler.profile.ProfileUnits;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code crawler cluster status --bootstrap HOST:PORT --crawl NAME [--wait-done [--max-wait DURATION]]}: prints
 * where a cluster crawl stands, read with {@link ClusterAdmin#status}: per frontier partition its owner (the member of
 * {@code NAME.crawlers} it is assigned to), records sent, the group's committed offset, records consumed by the
 * owner, the lag, URLs pending and in flight (from the owner's checkpoint mark), URLs marked done in
 * {@code NAME.fetched}, bad records refused (copied to {@code NAME.rejected}), the member that committed the mark and
 * its age; then the totals and {@code bad-records=N}. With {@code --wait-done} it
 * polls every second until the crawl has {@linkplain ClusterStatus#drained drained} on two polls in a row, printing
 * a progress line at most every 10 s, and the table at the end; it says so when no process is running the crawl,
 * and gives up when none has for 30 s (a crawl without processes never drains). A read: it changes nothing.
 *
 * <p>Runs on the caller's thread; its time comes from the root command's {@link Ticker}. Out of scope: a broker
 * that stops answering during the wait is not waited for (exit 1, as a single status).
 */
@Command(name = "status", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Shows where a cluster crawl stands, partition by partition.",
            "Per partition of NAME.frontier: its owner (a member of the consumer group NAME.crawlers), records"
                    + " sent, committed and consumed, the lag, URLs pending and in flight in the owner, URLs marked"
                    + " done in NAME.fetched, bad records refused (copies in NAME.rejected) and the age of the"
                    + " owner's last checkpoint mark; then totals and bad-records=N.",
            "With --wait-done, waits until the crawl has drained; exit 5 when no process has run it for 30s and it"
                    + " has not drained."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {ClusterStatusCommand.EXIT_OK, ClusterOptions.EXIT_UNAVAILABLE,
            ClusterStatusCommand.EXIT_REFUSED, ClusterStatusCommand.EXIT_NOT_DRAINED,
            ClusterStatusCommand.EXIT_NO_PROCESS})
final class ClusterStatusCommand implements Callable<Integer> {
    static final String EXIT_OK = " 0:the status was printed (with --wait-done: the crawl has drained)";
    static final String EXIT_REFUSED = " 2:usage error, or refused (no such crawl, topics there otherwise)";
    static final String EXIT_NOT_DRAINED = " 4:--wait-done: the crawl had not drained when --max-wait passed";
    static final String EXIT_NO_PROCESS = " 5:--wait-done: no process ran the crawl for 30s (it cannot drain without"
            + " one)";
    /** The exit code of {@link #EXIT_NOT_DRAINED}. */
    static final int NOT_DRAINED = 4;
    /** The exit code of {@link #EXIT_NO_PROCESS}. */
    static final int NO_PROCESS = 5;
    /**
     * How long --wait-done waits with no process in the crawl's group before it gives up: longer than a process
     * takes to start and join (a few seconds), and than the group's session timeout, after which a dead process has
     * left it.
     */
    static final Duration NO_PROCESS_WAIT = Duration.ofSeconds(30);
    /** A mark's age that never makes it stale. */
    private static final Duration FOREVER = Duration.ofDays(365_000);

    /** How often --wait-done reads the status. */
    static final Duration POLL = Duration.ofSeconds(1);
    /** How often at most --wait-done prints a progress line. */
    static final Duration PROGRESS = Duration.ofSeconds(10);

    @Spec
    CommandSpec spec;

    @Mixin
    LoggingOptions logging;

    @Mixin
    ClusterOptions cluster;

    @Option(names = "--wait-done", description = "Wait until the crawl has drained: every partition with records"
            + " consumed to its end by an owner that reported within 15s, nothing pending or in flight. Polls every"
            + " second.")
    boolean waitDone;

    @Option(names = "--max-wait", paramLabel = "DURATION", converter = ClusterOptions.DurationConverter.class,
            description = "With --wait-done: give up after DURATION, e.g. 30m (exit 4; default: no limit).")
    Optional<Duration> maxWait = Optional.empty();

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
        if (maxWait.isPresent() && !waitDone) {
            return cluster.usage("--max-wait " + ProfileUnits.formatDuration(maxWait.get())
                    + ": only with --wait-done");
        }
        try (ClusterAdmin admin = cluster.admin(target)) {
            if (!waitDone) {
                print(out, target, admin.status(target.crawl(), cluster.program()));
                return 0;
            }
            return waitDone(out, target, admin);
        } catch (ClusterException e) {
            return cluster.failed(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return cluster.failed(new ClusterException(ClusterException.Kind.UNAVAILABLE,
                    "interrupted while waiting for crawl " + target.crawl() + " to drain"));
        }
    }

    /**
     * Polls every {@link #POLL} until two statuses in a row say drained (0), or {@code --max-wait} has passed
     * (4, with the table and why it has not drained), or no process has been in the crawl's group for
     * {@link #NO_PROCESS_WAIT} (5, with the table and the command that starts one; said once when it is first seen).
     * While no process is in the group, a mark counts however old it is: nothing can change it any more, and the
     * processes that stopped committed their last marks as they handed their partitions back.
     */
    private int waitDone(PrintWriter out, ClusterOptions.Target target, ClusterAdmin admin)
            throws ClusterException, InterruptedException {
        Ticker ticker = ((CrawlerCommand) spec.root().userObject()).ticker();
        Instant start = ticker.now();
        Optional<Instant> lastProgress = Optional.empty();
        boolean drainedBefore = false;
        Optional<Instant> noProcessSince = Optional.empty();
        while (true) {
            ClusterStatus status = admin.status(target.crawl(), cluster.program());
            // with no process in the group, nothing changes any more: the last marks, however old, are the state
            // (those of processes that stopped were committed as they handed their partitions back)
            boolean noProcess = status.owners().isEmpty();
            boolean drained = status.drained(noProcess ? FOREVER : ClusterStatus.DEFAULT_MARK_STALENESS);
            // One drained reading is not trusted alone. The rules of drained() hold when each owner takes its
            // counters at one moment and the end offsets show every acknowledged record; a single reading can catch
            // a moment where that slips (a partition changing owners, a batch polled and not yet admitted, an end
            // offset not yet advanced after a partition leader changed). A second reading 1 s later must agree, so
            // such a moment has to last across both; it costs one second at the end of a crawl. Owners re-commit
            // about every 2 s, so both readings may see the same mark: this narrows the window, it cannot close it.
            if (drained && drainedBefore) {
                print(out, target, status);
                out.println("crawl " + target.crawl() + " has drained (waited "
                        + seconds(Duration.between(start, ticker.now())) + (noProcess ? "; no process is running:"
                        + " the last marks of those that ran say so" : "") + ")");
                out.flush();
                return 0;
            }
            drainedBefore = drained;
            Instant now = ticker.now();
            Duration waited = Duration.between(start, now);
            if (maxWait.isPresent() && waited.compareTo(maxWait.get()) >= 0) {
                print(out, target, status);
                List<String> reasons = status.notDrained(ClusterStatus.DEFAULT_MARK_STALENESS);
                spec.commandLine().getErr().println("cluster status: crawl " + target.crawl()
                        + " has not drained within --max-wait " + ProfileUnits.formatDuration(maxWait.get())
                        + (reasons.isEmpty() ? " (drained on the last poll only)" : ":\n  "
                                + String.join("\n  ", reasons)));
                return NOT_DRAINED;
            }
            if (!status.owners().isEmpty()) {
                noProcessSince = Optional.empty();
            } else if (noProcessSince.isEmpty()) {
                noProcessSince = Optional.of(now);
                out.println("no process is running crawl " + target.crawl() + " (consumer group " + status.group()
                        + " has no member): waiting up to " + seconds(NO_PROCESS_WAIT) + " for one to start");
                out.flush();
            } else if (Duration.between(noProcessSince.get(), now).compareTo(NO_PROCESS_WAIT) >= 0) {
                print(out, target, status);
                spec.commandLine().getErr().println("cluster status: no process has run crawl " + target.crawl()
                        + " for " + seconds(Duration.between(noProcessSince.get(), now)) + ", and it cannot drain"
                        + " without one (" + status.progress() + "); start one: " + cluster.program().command(
                        "cluster", "run", "--bootstrap", target.servers(), "--crawl", target.crawl().toString(),
                        "--profile", "FILE"));
                return NO_PROCESS;
            }
            if (lastProgress.isEmpty() || Duration.between(lastProgress.get(), now).compareTo(PROGRESS) >= 0) {
                out.println("waiting for crawl " + target.crawl() + " to drain (" + seconds(waited) + "): "
                        + status.progress());
                out.flush();
                lastProgress = Optional.of(now);
            }
            ticker.sleep(POLL);
        }
    }

    private static void print(PrintWriter out, ClusterOptions.Target target, ClusterStatus status) {
        out.println("crawl " + status.crawl() + " on the Kafka cluster at " + target.servers() + ": "
                + status.partitions().size() + " partitions of " + status.crawl() + ClusterTopics.FRONTIER
                + ", consumer group " + status.group());
        status.table().forEach(out::println);
        out.flush();
    }

    /** {@code duration} in whole seconds as profiles write durations: 0s, 45s, 2m, 135s. */
    private static String seconds(Duration duration) {
        return ProfileUnits.formatDuration(Duration.ofSeconds(Math.max(0, duration.toSeconds())));
    }
}
