package org.sievecrawler.cli;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.sievecrawler.CrawlException;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.cluster.CheckpointMark;
import org.sievecrawler.cluster.ClusterException;
import org.sievecrawler.cluster.ClusterRun;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.input.Folders;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileException;
import org.sievecrawler.profile.ProfileKeys;
import org.sievecrawler.profile.ProfileOverrides;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code crawler cluster run --bootstrap HOST:PORT --crawl NAME --profile FILE [--out DIR] [--name NAME]}: runs one
 * process of a cluster crawl ({@link ClusterRun}) until it is stopped (Ctrl-C, SIGTERM): it joins the crawl's
 * consumer group, crawls the hosts of the frontier partitions it is given, and at the stop gives them up with a
 * checkpoint, so the other processes (or this one started again) go on without fetching a page twice. Its output
 * (pages.jsonl, crawl.log, WARC files) goes to its own folder. Runs on the caller's thread.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs one process of a cluster crawl until it is stopped (Ctrl-C or SIGTERM).",
            "It joins the crawl's consumer group, crawls the hosts of the partitions it is given, and at the stop"
                    + " hands them back with a checkpoint. Start as many as you like, on as many machines. Each"
                    + " process writes pages.jsonl and crawl.log to its own --out folder. A second Ctrl-C stops it"
                    + " at once, as a crash would: its partitions move on after the session timeout, from their"
                    + " last checkpoint."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {ClusterRunCommand.EXIT_OK, ClusterOptions.EXIT_UNAVAILABLE, ClusterRunCommand.EXIT_REFUSED,
            ClusterRunCommand.EXIT_FAILED, ClusterRunCommand.EXIT_HALTED, ClusterRunCommand.EXIT_SIGTERM})
final class ClusterRunCommand implements Callable<Integer> {
    static final String EXIT_OK = " 0:stopped (Ctrl-C) after handing its partitions back";
    static final String EXIT_REFUSED = " 2:usage error, or refused (no such crawl, the --out folder is another's)";
    static final String EXIT_FAILED = " 3:the crawl's output failed";
    static final String EXIT_HALTED = "130:stopped at once by a second Ctrl-C, its partitions not handed back";
    static final String EXIT_SIGTERM = "143:stopped by SIGTERM, after handing its partitions back";
    static final int FAILED = 3;
    /** How long a stop signal waits for the process to hand its partitions back before the JVM exits anyway. */
    private static final long STOP_WAIT_SECONDS = 90;

    @Spec
    CommandSpec spec;

    @Mixin
    LoggingOptions logging;

    @Mixin
    ClusterOptions cluster;

    @Option(names = "--profile", paramLabel = "FILE", required = true,
            description = "The crawl profile (politeness, scope, fetch, output), e.g. config/site.yaml; the scope's"
                    + " seed hosts are the crawl's seeds, stored by `cluster seed` (and the profile's, if any).")
    Path profileFile;

    @Option(names = "--out", paramLabel = "DIR",
            description = "This process's output folder (default: the profile's output.dir + /NAME).")
    Path out;

    @Option(names = "--name", paramLabel = "NAME",
            description = "This process's name in the group and in status (default: pid-host).")
    String name;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Sets a profile key, as for crawl; repeatable, the last wins.")
    List<String> sets = new ArrayList<>();

    @Override
    public Integer call() {
        logging.apply();
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ClusterOptions.Target target;
        CrawlProfile profile;
        String member = name == null ? ManagementFactory.getRuntimeMXBean().getName().replace('@', '-') : name;
        try {
            target = cluster.target();
            try {
                CheckpointMark.checkMember(member);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--name: " + e.getMessage(), e);
            }
            profile = profile(member);
        } catch (IllegalArgumentException e) {
            return cluster.usage(e.getMessage());
        } catch (ProfileException e) {
            err.println(e.getMessage());
            return CrawlerCommand.USAGE;
        }
        Path dir = profile.output().dir();
        // told before the cluster is asked, as a usage error; not made yet: a run that never starts leaves none
        Optional<String> notAFolder = Folders.problem(dir);
        if (notAFolder.isPresent()) {
            return cluster.usage((out != null ? "--out " : "output.dir (+ /" + member + ") ") + dir + ": "
                    + notAFolder.get());
        }
        AutoCloseable fileLog = () -> { };
        AtomicReference<ClusterRun> running = new AtomicReference<>();
        CountDownLatch ended = new CountDownLatch(1);
        StopSignal.Registration registration = root().stopSignal().onStop(request -> {
            err.println("stopping: no new URLs are taken; requests in flight finish; the partitions are"
                    + " checkpointed and handed back to the group (" + request.atOnce() + ")");
            err.flush();
            ClusterRun run = running.get();
            if (run != null) {
                run.stop();
            }
            try {
                ended.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, () -> {
            err.println("stopped at once: requests in flight are abandoned; the partitions were not handed back:"
                    + " they move to other processes after the group's session timeout ("
                    + ClusterRun.SESSION_TIMEOUT.toSeconds() + " s) and go on from their last checkpoint,"
                    + " fetching again what this process fetched since; pages.jsonl holds whole lines");
            err.flush();
        });
        try (ClusterRun run = ClusterRun.connect(target.servers(), target.crawl(), profile, member,
                cluster.timeout, cluster.program())) {
            fileLog = LogSetup.logToFile(dir.resolve(CrawlFolder.LOG), logging.format, true);
            running.set(run);
            stdout.println("cluster crawl " + target.crawl() + ": process " + member + ", output folder "
                    + dir.toAbsolutePath().normalize());
            stdout.flush();
            String reason = run.run();
            stdout.println("process " + member + " ended (" + reason + "); its partitions were handed back");
            return 0;
        } catch (ClusterException e) {
            return cluster.failed(e);
        } catch (CrawlException e) {
            if (e.refused()) {
                return cluster.usage(e.getMessage());
            }
            err.println("cluster run: " + e.getMessage());
            return FAILED;
        } catch (java.io.IOException e) {
            err.println("cluster run: the output in " + dir + " failed: " + FileErrors.message(e));
            return FAILED;
        } finally {
            stdout.flush();
            err.flush();
            try {
                fileLog.close();
            } catch (Exception e) {
                // a log file; nothing left to report it to
            }
            ended.countDown();
            registration.close();
        }
    }

    private CrawlerCommand root() {
        return (CrawlerCommand) spec.root().userObject();
    }

    /** The profile with --out (or output.dir/NAME) and each --set applied. */
    private CrawlProfile profile(String member) throws ProfileException {
        CrawlProfile loaded = root().profiles().load(profileFile);
        ProfileOverrides given = new ProfileOverrides();
        given.set("--out", ProfileKeys.OUTPUT_DIR.name(),
                (out != null ? out : loaded.output().dir().resolve(member)).toString());
        sets.forEach(given::set);
        return given.applyTo(loaded);
    }
}
