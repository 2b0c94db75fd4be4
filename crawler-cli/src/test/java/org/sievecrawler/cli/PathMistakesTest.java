package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.PathMistakes;
import org.sievecrawler.fixtures.TsvTable;

/**
 * The payload table {@code /errors/path-mistakes.tsv} (src-test-fixtures), row by row: each file and folder mistake
 * given to each option that takes a path ({@code --out}, {@code --seeds}, {@code --profile}, {@code --resume},
 * {@code profile check}, {@code report}, {@code warc ls}, in {@code crawl}, {@code demo} and the cluster commands)
 * prints exactly its line on standard error, nothing on standard output, no Java class name, and exits 2. Rows run in
 * this process, except those {@link PathMistakes#child} runs in a child process: the read-only ones, whose mount
 * namespace holds the read-only file system, and, for root, the permission ones, without the capabilities that let
 * root pass file permissions.
 */
class PathMistakesTest {
    private static final String TABLE = "/errors/path-mistakes.tsv";

    @TempDir
    Path dir;

    static Stream<Object[]> rows() throws IOException {
        return TsvTable.named(TABLE, 4);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void printsTheMistakeInWordsAndExitsTwo(String name, TsvTable.Row row) throws Exception {
        String mistake = row.cell(1);
        Optional<String> unavailable = PathMistakes.unavailable(mistake, dir);
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> row.where() + ": " + unavailable.orElse(""));
        Path path = PathMistakes.make(mistake, dir);
        Path profile = Files.writeString(dir.resolve("profile.yaml"), "name: t\nscope:\n  hosts: [a.example]\n");
        String[] args = Arrays.stream(row.cell(2).split(" ")).map(arg -> fill(arg, path, profile))
                .toArray(String[]::new);

        List<String> jar = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        jar.addAll(List.of(args));
        Optional<List<String>> child = PathMistakes.child(mistake, dir, jar);

        CommandRun run = child.isPresent() ? inChild(child.get()) : CommandRun.execute(args);

        assertThat(run.exit()).as(row.where() + "\n" + run.err()).isEqualTo(2);
        assertThat(run.err()).as(row.where()).isEqualTo(fill(row.cell(3), path, profile) + System.lineSeparator());
        assertThat(run.out()).as(row.where()).isEmpty();
        assertThat(run.err()).as(row.where()).doesNotContainPattern(PathMistakes.JAVA_NAME);
    }

    private String fill(String text, Path path, Path profile) {
        return text.replace("{path}", path.toString()).replace("{file}", dir.resolve(PathMistakes.A_FILE).toString())
                .replace("{parent}", String.valueOf(path.getParent())).replace("{profile}", profile.toString());
    }

    /** The crawler's main class run in a child process, as {@code command}: the mistake needs one. */
    private CommandRun inChild(List<String> command) throws IOException, InterruptedException {
        Path out = dir.resolve("child.out");
        Path err = dir.resolve("child.err");
        Process child = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!child.waitFor(60, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new AssertionError("the child did not end within 60 s: " + Files.readString(err));
        }
        return new CommandRun(child.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
