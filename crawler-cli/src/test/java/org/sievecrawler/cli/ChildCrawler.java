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
 * <p>Not thread-safe: one test thread starts the children. Waiting for them and signalling them is the test's.
 */
final class ChildCrawler {
    private final Path log;
    private final List<String> jvmOptions;

    /** Children whose output goes to {@code log} (appended), run with {@code jvmOptions} (e.g. -Xmx256m) too. */
    ChildCrawler(Path log, String... jvmOptions) {
        this.log = log;
        this.jvmOptions = List.of(jvmOptions);
    }

    /** Starts {@code crawler ARGS} in a child JVM on this JVM's class path. */
    Process start(String... args) throws IOException {
        return start(List.of(), args);
    }

    /**
     * Starts {@code crawler ARGS} in a child JVM on this JVM's class path with {@code jvmOptions} too, e.g.
     * {@code -Djdk.net.hosts.file=FILE} for host names of the test's own.
     */
    Process start(List<String> jvmOptions, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")); // a quicker start for a short crawl
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.sievecrawler.cli.Main"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    /** Everything the children have written so far. */
    String output() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }
}
