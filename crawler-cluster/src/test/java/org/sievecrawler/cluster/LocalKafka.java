package org.sievecrawler.cluster;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A one-node Kafka broker (KRaft, broker and controller in one JVM) on 127.0.0.1, for the cluster's integration
 * tests: {@link #start(Path)} runs {@code crawler-cluster/kafka-local.sh start} on a free port with the given
 * folder, so the tests run the very broker, configuration and start-up check a newcomer gets from the script;
 * {@link #close()} runs {@code kafka-local.sh stop} and waits until the broker's JVM has ended.
 *
 * <p>Each start formats a new log in its folder unless the folder already holds one (then the broker comes back
 * with its topics, on the port it was formatted for). The broker's output is {@code DIR/broker.log}; a start that
 * fails throws with the script's message and the last lines of that log. The broker's classpath, resolved through
 * Maven on the first start, is shared by every start of the build in {@code target/kafka-local-classpath.txt}.
 * A JVM that exits without {@link #close()} (a failed test run) still stops the broker, from a shutdown hook; one
 * killed with SIGKILL leaves it running, stoppable with {@code kafka-local.sh stop --dir DIR}.
 *
 * <p>Thread-safety: start and close it from one thread (the test's); {@link #bootstrap()} from any thread.
 *
 * <p>Out of scope: more than one node, replication, security (plaintext, no authentication), and speed: a start
 * takes a few seconds, so a test class starts one broker and shares it between its tests.
 */
public final class LocalKafka implements AutoCloseable {

    /** The script's exit code when the port, or the controller's port above it, is taken (a race on a busy machine). */
    private static final int PORT_TAKEN = 4;
    private static final int PORT_ATTEMPTS = 5;

    private final Path script;
    private final Path dir;
    private final String bootstrap;
    private final ProcessHandle broker;
    private final Thread stopOnExit;
    private boolean closed;

    private LocalKafka(Path script, Path dir, String bootstrap, ProcessHandle broker) {
        this.script = script;
        this.dir = dir;
        this.bootstrap = bootstrap;
        this.broker = broker;
        this.stopOnExit = new Thread(broker::destroy, "local-kafka-stop-on-exit");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
    }

    /**
     * Starts a broker on a free port of 127.0.0.1 (and the port above it, for its controller), with its log,
     * configuration and pid file in {@code dir}, and returns once it serves.
     *
     * @throws IllegalStateException if the script is missing or the broker did not start; the message is the
     *         script's, with the last lines of {@code dir/broker.log}
     */
    public static LocalKafka start(Path dir) throws IOException, InterruptedException {
        Path script = script();
        Path absolute = dir.toAbsolutePath();
        Files.createDirectories(absolute);
        Path classpathCache = script.getParent().resolve("target").resolve("kafka-local-classpath.txt");
        Result last = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            int port = freePortPair();
            last = run(script, absolute, "start", "--dir", absolute.toString(), "--port", Integer.toString(port),
                    "--classpath-file", classpathCache.toString());
            if (last.exitCode() == 0) {
                String bootstrap = last.stdout().strip();
                ProcessHandle broker = brokerProcess(absolute).orElseThrow(() -> new IllegalStateException(
                        "kafka-local.sh started a broker in " + absolute + " but its pid file names no running process"));
                return new LocalKafka(script, absolute, bootstrap, broker);
            }
            if (last.exitCode() != PORT_TAKEN) {
                break;
            }
        }
        throw new IllegalStateException("kafka-local.sh start --dir " + absolute + " failed with exit code "
                + last.exitCode() + ":\n" + last.stderr());
    }

    /** The bootstrap address, {@code 127.0.0.1:PORT}. */
    public String bootstrap() {
        return bootstrap;
    }

    /** The broker's folder: its {@code server.properties}, {@code broker.log}, {@code broker.pid} and {@code data/}. */
    public Path dir() {
        return dir;
    }

    /** Stops the broker (a clean shutdown, SIGKILL after 60 s) and returns once its JVM has ended. Idempotent. */
    @Override
    public void close() throws IOException, InterruptedException {
        if (closed) {
            return;
        }
        Result stop = run(script, dir, "stop", "--dir", dir.toString());
        if (stop.exitCode() != 0) {
            broker.destroyForcibly();
        }
        broker.onExit().join();
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting; the hook stops nothing that is still running
        }
        if (stop.exitCode() != 0) {
            throw new IllegalStateException("kafka-local.sh stop --dir " + dir + " failed with exit code "
                    + stop.exitCode() + " (the broker was killed):\n" + stop.stderr());
        }
    }

    /** crawler-cluster/kafka-local.sh: tests run in the module's folder, an IDE may run them in the project's. */
    private static Path script() {
        Path base = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        for (Path candidate : List.of(base.resolve("kafka-local.sh"), base.resolve("crawler-cluster").resolve("kafka-local.sh"))) {
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("kafka-local.sh not found in " + base + " nor in " + base.resolve("crawler-cluster")
                + ": run the test from the crawler-cluster module or the project's folder");
    }

    /**
     * A port of 127.0.0.1 that is free, with the port above it free too (the controller's). Both are closed again
     * before the script binds them, so another process may take one meanwhile: the script then refuses with exit
     * code 4 and {@link #start} tries another pair.
     */
    public static int freePortPair() throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        for (int attempt = 0; attempt < 50; attempt++) {
            try (ServerSocket broker = new ServerSocket(0, 1, loopback)) {
                int port = broker.getLocalPort();
                if (port >= 65535) {
                    continue;
                }
                try (ServerSocket controller = new ServerSocket(port + 1, 1, loopback)) {
                    return port;
                } catch (IOException taken) {
                    // the controller's port is in use; try another pair
                }
            }
        }
        throw new IOException("found no two free adjacent ports on " + loopback + " in 50 attempts");
    }

    private static Optional<ProcessHandle> brokerProcess(Path dir) throws IOException {
        Path pidFile = dir.resolve("broker.pid");
        if (!Files.isRegularFile(pidFile)) {
            return Optional.empty();
        }
        String pid = Files.readString(pidFile, StandardCharsets.UTF_8).strip();
        try {
            return ProcessHandle.of(Long.parseLong(pid)).filter(ProcessHandle::isAlive);
        } catch (NumberFormatException notAPid) {
            throw new IllegalStateException(pidFile + ": not a pid (\"" + pid + "\")", notAPid);
        }
    }

    private record Result(int exitCode, String stdout, String stderr) {
    }

    /** Runs the script to its end; it bounds its own waits (start: --timeout, 120 s by default; stop: 60 s, then SIGKILL). */
    private static Result run(Path script, Path dir, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("bash");
        command.add(script.toString());
        command.addAll(List.of(arguments));
        Path stdout = Files.createTempFile(dir, "kafka-local-", ".out");
        Path stderr = Files.createTempFile(dir, "kafka-local-", ".err");
        try {
            Process process = new ProcessBuilder(command)
                    .directory(script.getParent().toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile())
                    .start();
            int exitCode = process.waitFor();
            return new Result(exitCode, Files.readString(stdout, StandardCharsets.UTF_8),
                    Files.readString(stderr, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }
}
