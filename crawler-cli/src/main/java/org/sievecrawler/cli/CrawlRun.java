package org.sievecrawler.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.sievecrawler.CrawlException;
import org.sievecrawler.Crawler;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.checkpoint.ResumeCommand;
import org.sievecrawler.input.Folders;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileUnits;
import org.sievecrawler.progress.CrawlSummary;
import org.sievecrawler.shell.Program;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One crawl run from the command line: logs to crawl.log in the output folder, runs the {@link Crawler},
 * turns a stop signal (Ctrl-C) into a graceful stop, prints the output folder and the summary, and answers
 * the exit code: 0 finished (a crawl stopped at limits.max-pages or limits.max-duration prints the command that
 * goes on); 1 the crawl failed, including a crawl that received no response at all (every host
 * unreachable, say), which also prints {@code crawl failed: no page could be fetched: ...} on stderr and ends
 * crawl.log with it; 2 refused
 * (another crawl holds the folder, nothing valid to resume); 130 stopped by Ctrl-C (a second Ctrl-C ends the
 * output at once, {@link Crawler#halt()}, and the process with it); 143 stopped by SIGTERM (128 + 15, the JVM's status
 * for SIGTERM, which its handler exits with: this answers the same, as the command's own exit races the handler's,
 * see {@link StopSignal.Request#exitCode()}), after the same graceful stop: the shutdown hook stops the crawl and
 * waits for its summary, so the output is whole; a second SIGTERM ends it at once.
 * The "stopping:" line names what stops at once after the request received ({@link StopSignal.Request#atOnce()}).
 * The live line is erased on every way out: before the summary, before a stop at once halts the JVM, and when a
 * graceful stop gives up waiting.
 *
 * <p>Every command it suggests (resume with: ...) starts with the {@link Program} as the user started it and ends
 * its line, so it runs when pasted.
 *
 * <p>Runs on the command's thread; the stop action runs on the signal's thread and waits until this run has
 * printed its summary, so the JVM does not exit half-way.
 */
final class CrawlRun {
    static final int FINISHED = 0;
    static final int FAILED = 1;
    static final int STOPPED = 130;

    /** How long a stop signal waits for the crawl to wind down before the JVM exits anyway. */
    private static final long STOP_WAIT_SECONDS = 60;
    /** The lines crawl.log ends with that the console shows its own way: a failure, how to go on. */
    private static final Logger END = LoggerFactory.getLogger(LogSetup.FILE_ONLY);

    private CrawlRun() {
    }

    /** {@link #run(CrawlProfile, Crawler.Start, Program, StopSignal, LogSetup.Format, Optional, PrintWriter,
     * PrintWriter)} without a live progress line. */
    static int run(CrawlProfile profile, Crawler.Start start, Program program, StopSignal signal,
            LogSetup.Format logFormat, PrintWriter out, PrintWriter err) {
        return run(profile, Optional.empty(), Optional.empty(), start, program, signal, logFormat, Optional.empty(),
                out, err);
    }

    /**
     * Runs the crawl; with a {@code terminal}, a live progress line is drawn on it while the fetchers run
     * ({@link LiveProgress}), erased before the summary is printed.
     *
     * @param seedFile a new crawl's seed file, streamed into it ({@code --seeds FILE}); empty for none
     * @param since the folder of the earlier crawl a new recrawl starts from ({@code --since DIR}); empty for none
     * @param program this program as the user started it, which the commands the run suggests start with
     */
    static int run(CrawlProfile profile, Optional<Path> seedFile, Optional<Path> since, Crawler.Start start,
            Program program, StopSignal signal, LogSetup.Format logFormat, Optional<ErrTerminal> terminal,
            PrintWriter out, PrintWriter console) {
        Path dir = profile.output().dir();
        Crawler crawler = Crawler.of(profile, seedFile, since, start, program);
        LiveProgress live = LiveProgress.start(terminal, crawler::progressNow);
        PrintWriter err = live.messages(console);
        AtomicReference<StopSignal.Request> stopped = new AtomicReference<>();
        CountDownLatch reported = new CountDownLatch(1);
        String resumeWith = "resume with: " + ResumeCommand.of(program, dir);
        StopSignal.Registration registration = signal.onStop(request -> {
            stopped.compareAndSet(null, request);
            err.println("stopping: no new URLs are taken; requests in flight get " + Crawler.STOP_GRACE_SECONDS
                    + " s to finish, then are cancelled and kept for the resume; the summary is written ("
                    + request.atOnce() + "); " + resumeWith);
            err.flush();
            crawler.stop();
            try {
                if (!reported.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
                    live.close(); // the JVM may exit now (a SIGTERM's hook returns): the line goes first
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, () -> {
            crawler.halt();
            live.close(); // erased before the JVM halts, so the shell's prompt starts a line of its own
            err.println("stopped at once: requests in flight are abandoned and fetched again on resume; pages.jsonl"
                    + " holds whole lines; the last checkpoint stays; " + resumeWith);
            err.flush();
        });
        AtomicReference<AutoCloseable> fileLog = new AtomicReference<>(() -> { });
        try {
            out.println("output folder: " + dir.toAbsolutePath().normalize());
            out.flush();
            // crawl.log opens once the folder is the crawl's: a refused crawl leaves an earlier crawl's log alone
            CrawlSummary summary = crawler.run(() -> fileLog.set(fileLog(dir, logFormat,
                    start == Crawler.Start.RESUME)));
            live.close();
            out.println(summary.line());
            List<String> written = new ArrayList<>(List.of(dir.resolve(CrawlFolder.PAGES).toString(),
                    dir.resolve(CrawlFolder.SUMMARY).toString(), dir.resolve(CrawlFolder.LOG).toString()));
            if (Files.isRegularFile(dir.resolve(CrawlFolder.REPORT))) { // not when it could not be written (a warning)
                written.add(dir.resolve(CrawlFolder.REPORT).toString());
            }
            if (Files.isRegularFile(dir.resolve(CrawlFolder.AUDIT))) {
                written.add(dir.resolve(CrawlFolder.AUDIT).toString());
            }
            if (Files.isRegularFile(dir.resolve(CrawlFolder.RULES))) { // the rules learned, when any was
                written.add(dir.resolve(CrawlFolder.RULES).toString());
            }
            if (profile.output().warc()) {
                written.add("WARC files " + dir.resolve(profile.output().warcPrefix() + "-*"
                        + profile.output().warcCompression().suffix()));
            }
            out.println("wrote " + String.join(", ", written.subList(0, written.size() - 1)) + " and "
                    + written.get(written.size() - 1));
            if (stopped.get() != null) {
                return stopped.get().exitCode(); // SIGTERM's 143: the JVM's exit, which this one races
            }
            if (summary.nothingFetched()) {
                failed(err, summary.whyNothingFetched());
                return FAILED;
            }
            goOn(summary, profile, program).ifPresent(line -> {
                out.println(line);
                END.info(line);
            });
            return FINISHED;
        } catch (CrawlException e) {
            if (e.refused()) {
                err.println("crawl: " + e.getMessage());
                return CrawlerCommand.USAGE;
            }
            failed(err, e.getMessage());
            return stopped.get() != null ? stopped.get().exitCode() : FAILED;
        } catch (OutOfMemoryError e) { // told in words, not as a stack trace: the user can give more heap
            failed(err, "the JVM ran out of memory (heap -Xmx " + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MB) while the crawl " + (start == Crawler.Start.RESUME ? "was resumed" : "was started")
                    + "; give it more heap, e.g. JAVA_OPTS=-Xmx4g, or lower sieve.max-in-memory-urls, then "
                    + resumeWith);
            return FAILED;
        } finally {
            live.close();
            out.flush();
            err.flush();
            closeQuietly(fileLog.get());
            reported.countDown();
            registration.close();
        }
    }

    /** Says why the crawl failed, on the console and as crawl.log's last line. */
    private static void failed(PrintWriter err, String why) {
        err.println("crawl failed: " + why);
        END.error("crawl failed: {}", why);
    }

    /**
     * How a crawl that stopped at a limit goes on, with the command: resumed with a higher limits.max-pages, or
     * resumed as it is after limits.max-duration (which counts each run's own time); empty for any other end.
     */
    private static Optional<String> goOn(CrawlSummary summary, CrawlProfile profile, Program program) {
        Path dir = profile.output().dir();
        return switch (summary.endReason()) {
            case "max-pages" -> Optional.of("stopped at limits.max-pages " + profile.limits().maxPages() + " with "
                    + summary.pending() + " URLs pending; go on with a higher limit (0 for none): "
                    + ResumeCommand.withHigherLimit(program, dir, summary.decided()));
            case "max-duration" -> Optional.of("stopped at limits.max-duration "
                    + ProfileUnits.formatDuration(profile.limits().maxDuration())
                    + " with " + summary.pending() + " URLs pending; go on for as long again: "
                    + ResumeCommand.of(program, dir));
            default -> Optional.empty();
        };
    }

    /**
     * Makes the output folder {@code dir} before the crawl, so a folder that cannot be made or written is named as
     * the user gave it: {@code option} is "--out", or "output.dir" when it is the profile's. Prints why it cannot
     * be, "{@code command}: --out a-file: is a file, not a folder", and answers false (a usage error, exit 2).
     */
    static boolean makeOutputFolder(String command, String option, Path dir, PrintWriter err) {
        try {
            Folders.make(dir);
            return true;
        } catch (InputFileException e) {
            UsageErrors.print(err, command + ": " + option + " " + e.getMessage());
            return false;
        }
    }

    /**
     * crawl.log in the output folder, if the folder can be created (if not, the crawl reports why): a new crawl's
     * from empty, a resumed crawl's appended to.
     */
    private static AutoCloseable fileLog(Path dir, LogSetup.Format format, boolean append) {
        try {
            Files.createDirectories(dir);
            return LogSetup.logToFile(dir.resolve(CrawlFolder.LOG), format, append);
        } catch (IOException e) {
            return () -> { };
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // closing a log file; nothing left to report it to
        }
    }
}
