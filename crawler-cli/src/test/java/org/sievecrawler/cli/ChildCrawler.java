package org.sievecrawler.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs {@code crawler ARGS} in child JVMs, as a user runs the jar, so a test can kill one (SIGKILL, SIGTERM, SIGINT)
 * and resume it in the next; every child's output is appended to one log file, read back with {@link #output()}.
 *
 * <p>A child hears SIGINT, as a crawl started at a terminal does, even when this JVM inherited it as ignored (SIG_IGN:
 * {@code mvn verify &} in a script, which a shell without job control starts so, and a child inherits it through
 * {@code exec}; the JVM then never installs its handler): {@code ProcessBuilder} cannot set a child's signals, so the
 * child is started through {@code perl}, which sets SIGINT back to its default and then execs the JVM (same process,
 * same pid). Perl is in every Debian (perl-base is essential); where SIGINT is ignored and perl is missing,
 * {@link #hearsSigint()} says so, for a test to skip.
 *
 * <p>Not thread-safe: one test thread starts the children. Waiting for them and signalling them is the test's.
 */
final class ChildCrawler {
    /** Runs its arguments as a command, SIGINT at its default: {@code perl -e RESTORE_SIGINT java ...}. */
    static final List<String> RESTORE_SIGINT = List.of("perl", "-e",
            "$SIG{INT} = 'DEFAULT'; exec { $ARGV[0] } @ARGV or die \"exec $ARGV[0]: $!\\n\"");
    private static final boolean SIGINT_IGNORED = sigintIgnored(procStatus());

    private final Path log;
    private final List<String> jvmOptions;

    /** Children whose output goes to {@code log} (appended), run with {@code jvmOptions} (e.g. -Xmx256m) too. */
    ChildCrawler(Path log, String... jvmOptions) {
        this.log = log;
        this.jvmOptions = List.of(jvmOptions);
    }

    /** Starts {@code crawler ARGS} in a child JVM on this JVM's class path, with this one's JVM options. */
    Process start(String... args) throws IOException {
        return start(List.of(), args);
    }

    /**
     * Starts {@code crawler ARGS} in a child JVM on this JVM's class path with this one's JVM options and
     * {@code moreOptions} too, e.g. {@code -Djdk.net.hosts.file=FILE} for host names of the test's own.
     */
    Process start(List<String> moreOptions, String... args) throws IOException {
        List<String> command = new ArrayList<>(SIGINT_IGNORED ? RESTORE_SIGINT : List.of());
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")); // a quicker start for a short crawl
        command.addAll(jvmOptions);
        command.addAll(moreOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.sievecrawler.cli.Main"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    /**
     * Whether the children hear SIGINT: this JVM's is not ignored, or perl runs to set it back for them; where not,
     * a test that sends one is skipped, saying so.
     */
    static boolean hearsSigint() {
        return !SIGINT_IGNORED || perlRuns();
    }

    /**
     * Whether SIGINT is ignored by the process whose {@code /proc/PID/status} is {@code status}: its {@code SigIgn}
     * line, a hexadecimal mask of signals 1 to 64, has bit 1 (SIGINT is 2) set. False where there is no such line
     * (not Linux).
     */
    static boolean sigintIgnored(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & 2) != 0;
            }
        }
        return false;
    }

    private static String procStatus() {
        try {
            return Files.readString(Path.of("/proc/self/status"));
        } catch (IOException e) {
            return ""; // not Linux: SIGINT taken as not ignored
        }
    }

    /** Whether {@code perl} runs here. */
    static boolean perlRuns() {
        return InstalledCommands.runs("perl", "-e", "exit 0");
    }

    /** Everything the children have written so far. */
    String output() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }
}
