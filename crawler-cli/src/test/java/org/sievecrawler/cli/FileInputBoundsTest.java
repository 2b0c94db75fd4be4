package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.HostileFiles;
import org.sievecrawler.fixtures.TsvTable;

/**
 * The payload table {@code /bounds/file-inputs.tsv} (src-test-fixtures), row by row, through the command line in
 * this process: a profile, a file it extends and a seed file that is {@code /dev/zero}, a FIFO, a folder, a 3 GiB
 * sparse file, one 50 MiB string, a value or key over its bound, or not UTF-8, each refused with exit code 2 and
 * its message, and no stack trace (an OutOfMemoryError would end this JVM).
 */
class FileInputBoundsTest {
    private static final String TABLE = "/bounds/file-inputs.tsv";

    @TempDir
    Path dir;

    static Stream<Object[]> rows() throws IOException {
        return TsvTable.named(TABLE, 4);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void refusesTheHostileFileWithExitCodeTwoAndAMessageNamingIt(String name, TsvTable.Row row) throws Exception {
        Optional<String> unavailable = HostileFiles.unavailable(row.cell(1));
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> row.where() + ": " + unavailable.orElse(""));
        Path file = HostileFiles.make(row.cell(1), dir);
        Path child = Files.writeString(dir.resolve("child.yaml"), "extends: " + file + "\n");
        String[] args = Arrays.stream(row.cell(2).split(" ")).map(arg -> fill(arg, file, child))
                .toArray(String[]::new);

        CommandRun run = CommandRun.execute(args);

        String message = fill(row.cell(3), file, child);
        assertThat(run.exit()).as(row.where() + "\n" + run.err()).isEqualTo(2);
        assertThat(List.of(run.err().split("\\R"))).as(row.where()).anySatisfy(line ->
                assertThat(line).startsWith(message));
        assertThat(run.err()).as(row.where()).doesNotContain("\tat ", "Exception", "Error");
    }

    private static String fill(String text, Path file, Path child) {
        return text.replace("{file}", file.toString()).replace("{extends}", child.toString());
    }
}
