package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.cluster.LocalKafka;
import org.sievecrawler.fixtures.FixtureSite;

/**
 * The README's cluster quick start, run as written: the shell block README.md marks with {@code <!--
 * ClusterQuickStartTest runs this block ... -->} is taken from it (so this test breaks when the README drifts), and
 * run by bash in a folder of its own, as the README's folder, against a broker that its own
 * {@code crawler-cluster/kafka-local.sh start} starts, and a local site of two hosts. The substitutions, all of them:
 * <ul>
 *   <li>{@code kafka-local.sh start} gets {@code --dir} (a folder of the test's), {@code --port} (a free one) and
 *       {@code --classpath-file} (the build's cache, as {@code LocalKafka} shares it); {@code kafka-local.sh stop}
 *       gets the same {@code --dir}: the test's broker, never one on 9092 that someone else runs;
 *   <li>the README's sites {@code https://docs.example.org/} and {@code https://blog.example.org/} are
 *       {@code http://docs.test:PORT/} and {@code http://blog.test:PORT/}: one WireMock site on 127.0.0.1 whose two
 *       names the crawler's JVM resolves from a hosts file of the test's ({@code -Djdk.net.hosts.file});
 *   <li>the {@code crawler} on {@code PATH} (the README's quick start puts the launcher there) is a script of the
 *       test's that runs the same main class on this test's class path (the launcher is made by {@code package},
 *       after the tests); {@code crawler-cluster} and {@code config} are links to the project's folders, so
 *       {@code config/site.yaml} is the shipped profile.
 * </ul>
 * What it checks is the list: the files named exist (the script runs), the seeds are written once (the
 * shipped profile lists none), the two hosts are crawled by two processes (each wrote pages), every page is fetched
 * once, {@code committed} has moved when the crawl drains, and {@code --wait-done} ends. (That a drained process says
 * so once and goes quiet shows at its next progress line, 10 s later, after this crawl has ended: ProgressReporterTest.)
 */
class ClusterQuickStartTest {
    private static final String MARK = "<!-- ClusterQuickStartTest runs this block";
    private static final int PAGES = 5;
    private static final long WITHIN_SECONDS = 240;

    @TempDir
    Path dir;

    @Test
    void theReadmesClusterQuickStartRunsAsWritten() throws Exception {
        Path root = projectRoot();
        String block = quickStart(Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8));
        try (FixtureSite site = FixtureSite.start()) {
            site.pages(FixtureSite.linkedPages(PAGES));
            Path work = Files.createDirectories(dir.resolve("work"));
            Path kafka = dir.resolve("kafka");
            Map<String, String> substitutions = new LinkedHashMap<>();
            substitutions.put("crawler-cluster/kafka-local.sh start", "crawler-cluster/kafka-local.sh start --dir "
                    + kafka + " --port " + LocalKafka.freePortPair() + " --classpath-file "
                    + root.resolve("crawler-cluster/target/kafka-local-classpath.txt"));
            substitutions.put("crawler-cluster/kafka-local.sh stop", "crawler-cluster/kafka-local.sh stop --dir " + kafka);
            substitutions.put("https://docs.example.org/", "http://docs.test:" + site.port() + "/");
            substitutions.put("https://blog.example.org/", "http://blog.test:" + site.port() + "/");
            String script = block;
            for (Map.Entry<String, String> s : substitutions.entrySet()) {
                assertThat(script).as("the README's quick start names " + s.getKey()).contains(s.getKey());
                script = script.replace(s.getKey(), s.getValue());
            }
            Files.createSymbolicLink(work.resolve("crawler-cluster"), root.resolve("crawler-cluster"));
            Files.createSymbolicLink(work.resolve("config"), root.resolve("config"));
            Path bin = dir.resolve("bin");
            launcher(bin.resolve("crawler"),
                    Files.writeString(dir.resolve("hosts"), "127.0.0.1 docs.test\n127.0.0.1 blog.test\n"));
            Path scriptFile = Files.writeString(dir.resolve("quick-start.sh"), "set -e\n" + script);
            Path output = dir.resolve("output.txt");

            int exit = run(work, bin, scriptFile, output, kafka, root);
            String out = Files.readString(output, StandardCharsets.UTF_8);

            System.out.println(out);
            assertThat(exit).as(out).isZero();
            assertThat(out).contains("created 5 topics",
                    "sent 2 seeds to 2 of 12 partitions of docs.frontier",
                    "seed hosts placed to share them out among the processes: docs.test on 0, blog.test on 7",
                    "crawl docs has drained");
            assertThat(out.split("fetch.user-agent names the placeholder contact you@example.org", -1))
                    .as("each process warns once of site.yaml's placeholder contact, as a crawl does").hasSize(3);
            Path p1 = work.resolve("out/p1");
            Path p2 = work.resolve("out/p2");
            assertThat(pages(p1)).as("process 1 crawled a host").isNotEmpty();
            assertThat(pages(p2)).as("process 2 crawled the other").isNotEmpty();
            List<String> recorded = new ArrayList<>(pages(p1));
            recorded.addAll(pages(p2));
            assertThat(recorded).as("every page of both hosts recorded once").hasSize(2 * (PAGES + 1))
                    .doesNotHaveDuplicates();
            Map<String, Integer> requested = new HashMap<>();
            site.requestLog().stream().filter(r -> !r.getUrl().equals("/robots.txt"))
                    .forEach(r -> requested.merge(r.getHeader("Host") + r.getUrl(), 1, Integer::sum));
            assertThat(requested).as("every page of both hosts fetched once (robots.txt: once by each owner of a"
                    + " host, and the first process may own both before the second joins)")
                    .hasSize(2 * (PAGES + 1)).allSatisfy((page, times) -> assertThat(times).as(page).isOne());
            assertThat(committedOfPartitionsWithRecords(out)).as("committed moved while the crawl ran")
                    .isNotEmpty().allSatisfy((partition, committed) -> assertThat(committed).isPositive());
        }
    }

    /** The shell block of {@code readme} that the line {@link #MARK} opens. */
    static String quickStart(String readme) {
        int mark = readme.indexOf(MARK);
        assertThat(mark).as("README.md marks the cluster quick start with " + MARK).isNotNegative();
        int start = readme.indexOf("\n", mark) + 1;
        assertThat(readme.substring(start)).as("the marked block opens with ```sh").startsWith("```sh\n");
        int end = readme.indexOf("\n```", start + 6);
        return readme.substring(start + 6, end + 1);
    }

    /** The committed offset of each partition with records sent, from the last status table in {@code out}. */
    private static Map<Integer, Long> committedOfPartitionsWithRecords(String out) {
        String table = out.substring(out.lastIndexOf("partition  owner"));
        Map<Integer, Long> committed = new HashMap<>();
        Matcher row = Pattern.compile("(?m)^(\\d+) +\\S+ +(\\d+) +(\\S+) ").matcher(table);
        while (row.find()) {
            if (Long.parseLong(row.group(2)) > 0) {
                committed.put(Integer.parseInt(row.group(1)), row.group(3).equals("-") ? 0 : Long.parseLong(row.group(3)));
            }
        }
        return committed;
    }

    private static List<String> pages(Path out) throws IOException {
        Path pages = out.resolve("pages.jsonl");
        if (!Files.exists(pages)) {
            return List.of();
        }
        List<String> urls = new ArrayList<>();
        for (String line : Files.readAllLines(pages)) {
            urls.add(new com.fasterxml.jackson.databind.ObjectMapper().readTree(line).get("url").asText());
        }
        return urls;
    }

    /**
     * Runs the script by bash in {@code work}, {@code bin} first on PATH; on a time-out its processes are killed and
     * the broker stopped.
     */
    private static int run(Path work, Path bin, Path script, Path output, Path kafka, Path root) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", script.toString());
        builder.environment().put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
        Process bash = builder.directory(work.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            if (!bash.waitFor(WITHIN_SECONDS, TimeUnit.SECONDS)) {
                bash.descendants().forEach(ProcessHandle::destroyForcibly);
                bash.destroyForcibly().waitFor();
                throw new AssertionError("the quick start did not end within " + WITHIN_SECONDS + " s:\n"
                        + Files.readString(output));
            }
            return bash.exitValue();
        } finally {
            bash.descendants().forEach(ProcessHandle::destroyForcibly);
            // the script's last line stops the broker; if it failed before, stop it here
            new ProcessBuilder("bash", root.resolve("crawler-cluster/kafka-local.sh").toString(), "stop", "--dir",
                    kafka.toString()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start().waitFor(90, TimeUnit.SECONDS);
        }
    }

    /** The {@code crawler} command: this test's class path, names resolved from {@code hosts}. */
    private static void launcher(Path at, Path hosts) throws IOException {
        Files.createDirectories(at.getParent());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(at, "#!/bin/sh\nexec '" + java + "' -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
                + " -Djdk.net.hosts.file='" + hosts + "' -cp '" + System.getProperty("java.class.path")
                + "' org.sievecrawler.cli.Main \"$@\"\n");
        Files.setPosixFilePermissions(at, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** The project's folder: the one above crawler-cli, where README.md is. */
    private static Path projectRoot() {
        Path base = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        for (Path candidate : List.of(base, base.getParent())) {
            if (candidate != null && Files.isRegularFile(candidate.resolve("README.md"))
                    && Files.isDirectory(candidate.resolve("crawler-cluster"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("no README.md with crawler-cluster beside it in " + base + " or above it");
    }
}
