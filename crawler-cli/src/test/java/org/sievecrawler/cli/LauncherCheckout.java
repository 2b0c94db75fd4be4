package org.sievecrawler.cli;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * A checkout of the crawler as a newcomer has it after the build, in a folder of its own: the launcher script
 * {@code crawler-cli/target/crawler} (copied from {@code src/main/sh}, as the build does) beside a
 * {@code crawler.jar} that runs the crawler's classes and libraries from this JVM's class path (a jar of a manifest
 * only, whose Class-Path lists them: the tests run before the build packages the real jar; test classes and test
 * jars are left out, so the logging configuration is the jar's, config/logback.xml), and the shipped
 * {@code config/}. Commands run
 * in it through {@code sh}, as a user pastes them into a shell, with a home folder of its own ({@code HOME}), the
 * JDK running the tests ({@code JAVA_HOME}) and a {@code PATH} of the system's folders only, so no {@code crawler}
 * is on it unless a test puts it there.
 *
 * <p>Not thread-safe: one test's thread runs its commands. {@link #close()} deletes the folder.
 */
final class LauncherCheckout implements AutoCloseable {
    /** The launcher's path in a checkout, as the README and a newcomer type it. */
    static final String LAUNCHER = "crawler-cli/target/crawler";
    /** The system folders a shell's PATH holds, where sh, rm and the like are. */
    private static final String SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin";

    private final Path root;

    private LauncherCheckout(Path root) {
        this.root = root;
    }

    /** A new checkout in a temporary folder: the launcher and its jar, config/ and an empty home folder. */
    static LauncherCheckout create() throws IOException {
        Path root = Files.createTempDirectory("checkout").toRealPath();
        Path target = Files.createDirectories(root.resolve("crawler-cli/target"));
        Path launcher = Files.copy(Path.of("src/main/sh/crawler"), target.resolve("crawler"));
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        writeClassPathJar(target.resolve("crawler.jar"));
        Path config = Files.createDirectories(root.resolve("config"));
        try (Stream<Path> files = Files.list(Path.of("../config"))) {
            for (Path file : files.toList()) {
                Files.copy(file, config.resolve(file.getFileName()));
            }
        }
        Files.createDirectories(root.resolve("home"));
        Files.createDirectories(root.resolve("tmp"));
        return new LauncherCheckout(root);
    }

    /** A jar holding only a manifest: Main-Class the crawler's, Class-Path this JVM's class path but its tests'. */
    private static void writeClassPathJar(Path jar) throws IOException {
        Manifest manifest = new Manifest();
        Attributes attributes = manifest.getMainAttributes();
        attributes.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        attributes.put(Attributes.Name.MAIN_CLASS, Main.class.getName());
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.endsWith("test-classes") && !entry.endsWith("-tests.jar") && !entry.endsWith("-test.jar")) {
                entries.add(Path.of(entry).toAbsolutePath().toUri().toString()); // a folder's URI ends with '/'
            }
        }
        attributes.put(Attributes.Name.CLASS_PATH, String.join(" ", entries));
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream ignored = new JarOutputStream(out,
                manifest)) {
            // the manifest is the whole jar
        }
    }

    /** The checkout's folder, where commands run. */
    Path root() {
        return root;
    }

    /** The home folder of the commands ({@code HOME}, {@code ~}). */
    Path home() {
        return root.resolve("home");
    }

    /** What a command printed (standard output and error, interleaved) and its exit code. */
    record Result(int exit, String output) {
    }

    /** Runs {@code script} in sh in the checkout's folder, with the system's PATH; waits up to 120 s. */
    Result sh(String script) throws IOException, InterruptedException {
        return sh(script, Map.of());
    }

    /**
     * Runs {@code script} in sh in the checkout's folder, its environment the checkout's ({@code HOME},
     * {@code JAVA_HOME}, the system's {@code PATH}) with {@code env} over it; waits up to 120 s.
     */
    Result sh(String script, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", script).directory(root.toFile())
                .redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        environment.clear();
        environment.putAll(environment());
        environment.putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("sh -c " + script + " did not end in 120 s: "
                    + new String(output, StandardCharsets.UTF_8));
        }
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    /** Starts {@code script} in sh in the checkout's folder, its output appended to {@code log}; not waited for. */
    Process start(String script, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", script).directory(root.toFile())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().clear();
        builder.environment().putAll(environment());
        return builder.start();
    }

    /**
     * The commands' environment: the checkout's home and temporary folder, this JDK, the system's PATH, and JVM
     * flags for a quick start (C1 only: these crawls are short).
     */
    private Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", home().toString());
        env.put("PATH", SYSTEM_PATH);
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("CRAWLER_JVM_FLAGS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
        env.put("JAVA_OPTS", "-Djava.io.tmpdir=" + root.resolve("tmp"));
        env.put("LANG", "C.UTF-8");
        return env;
    }

    @Override
    public void close() throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
