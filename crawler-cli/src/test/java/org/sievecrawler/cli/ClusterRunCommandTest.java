package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code crawler cluster run} facing a user's mistakes and a cluster that is not there: each refused before any
 * cluster or output folder is touched where it can be, with one line naming the input, and the exit code its help
 * lists. No broker: the "no answer" case asks a port nothing listens on. (A run on a real broker:
 * crawler-cluster's ClusterRunOnKafkaTest.)
 */
class ClusterRunCommandTest {
    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    private Path profile(String yaml) throws IOException {
        return Files.writeString(dir.resolve("profile.yaml"), yaml, StandardCharsets.UTF_8);
    }

    /** A profile a cluster process can run with: listed hosts, no seeds. */
    private Path goodProfile() throws IOException {
        return profile("name: t\nscope:\n  hosts: [a.example]\n");
    }

    private CommandRun run(String... options) {
        String[] args = new String[options.length + 6];
        System.arraycopy(new String[] {"cluster", "run", "--bootstrap", "127.0.0.1:9", "--crawl", "docs"}, 0, args, 0,
                6);
        System.arraycopy(options, 0, args, 6, options.length);
        return CommandRun.execute(args);
    }

    private static void assertNoStackTrace(CommandRun run) {
        assertThat(run.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void withoutAProfileItIsAUsageErrorNamingTheOption() {
        CommandRun run = run("--out", dir.resolve("out").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("cluster run: missing required option: '--profile=FILE'" + NL);
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void aProfileThatIsNotThereIsNamedWithExitCodeTwo() {
        Path missing = dir.resolve("missing.yaml");

        CommandRun run = run("--profile", missing.toString(), "--out", dir.resolve("out").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(missing + ":1:1: cannot read the profile: no such file" + NL);
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void aProfileThatIsNotYamlIsNamedWithItsLineWithExitCodeTwo() throws IOException {
        Path bad = profile("name: t\nscope: [\n");

        CommandRun run = run("--profile", bad.toString(), "--out", dir.resolve("out").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith(bad + ":3:1: YAML syntax error: ");
        assertNoStackTrace(run);
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void aBadValueInTheProfileOrInASetNamesTheKeyTheRuleAndTheValue() throws IOException {
        Path bad = profile("name: t\nscope:\n  hosts: [a.example]\nfetch:\n  threads: -3\n");

        CommandRun inFile = run("--profile", bad.toString(), "--out", dir.resolve("out").toString());
        CommandRun inSet = run("--profile", goodProfile().toString(), "--out", dir.resolve("out").toString(),
                "--set", "fetch.threads=0");

        assertThat(inFile.exit()).isEqualTo(2);
        assertThat(inFile.err()).isEqualTo(bad + ":5:3: fetch.threads: must be in [1, 1024] (-3)" + NL);
        assertThat(inSet.exit()).isEqualTo(2);
        assertThat(inSet.err()).isEqualTo("cluster run: --set fetch.threads=0: must be in [1, 1024]" + NL);
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void noBrokerAtTheAddressIsExitCodeOneNamingItWithinTheTimeoutWithoutAStackTrace() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path out = dir.resolve("out");

        long start = System.nanoTime();
        CommandRun run = CommandRun.execute("cluster", "run", "--bootstrap", "127.0.0.1:" + port, "--crawl", "docs",
                "--profile", goodProfile().toString(), "--out", out.toString(), "--timeout", "1s");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("cluster run: no answer from the Kafka cluster at 127.0.0.1:" + port
                + " within 1s");
        assertThat(run.err().lines()).hasSize(1);
        assertNoStackTrace(run);
        assertThat(run.out()).isEmpty();
        assertThat(System.nanoTime() - start).as("bounded by --timeout").isLessThan(10_000_000_000L);
        assertThat(out).as("no output folder for a run that never started").doesNotExist();
    }

    @Test
    void anOutputFolderThatIsAFileIsAUsageErrorNamingItBeforeTheClusterIsAsked() throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "x");

        CommandRun itself = run("--profile", goodProfile().toString(), "--out", file.toString(), "--timeout", "30s");
        CommandRun under = run("--profile", goodProfile().toString(), "--out", file.resolve("out").toString(),
                "--timeout", "30s");

        assertThat(itself.exit()).isEqualTo(2);
        assertThat(itself.err()).isEqualTo("cluster run: --out " + file + ": is a file, not a folder" + NL);
        assertThat(under.exit()).isEqualTo(2);
        assertThat(under.err()).isEqualTo("cluster run: --out " + file.resolve("out") + ": cannot be created: " + file
                + " is a file, not a folder" + NL);
    }

    @Test
    void withoutOutAFileAtTheProfilesOutputDirIsNamedAsOutputDirAndTheName() throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "x");

        Path profile = profile("name: t\nscope:\n  hosts: [a.example]\noutput:\n  dir: " + file + "\n");

        CommandRun run = run("--profile", profile.toString(), "--name", "p1", "--timeout", "30s");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("cluster run: output.dir (+ /p1) " + file.resolve("p1") + ": cannot be"
                + " created: " + file + " is a file, not a folder" + NL);
    }

    @Test
    void aNameTheCheckpointMarksCannotCarryIsAUsageErrorBeforeTheClusterIsAsked() throws IOException {
        CommandRun run = run("--profile", goodProfile().toString(), "--out", dir.resolve("out").toString(),
                "--name", "a;b", "--timeout", "30s");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("cluster run: --name: a member name is not empty and has no ';' or '=', was"
                + " \"a;b\"" + NL);
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void theHelpListsEveryExitCode() {
        CommandRun run = CommandRun.execute("cluster", "run", "--help");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("Exit codes:").contains(" 0 ").contains(" 1 ").contains(" 2 ").contains(" 3 ")
                .contains("130 ").contains("143 ");
        assertThat(run.out().lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(80));
    }
}
