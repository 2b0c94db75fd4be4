package org.sievecrawler.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SortedFileTest {
    @TempDir
    Path dir;

    @Test
    void fieldsWithTabsLineEndsAndBackslashesComeBackWhole() {
        String[] fields = {"http://a.test/x\ty", "", "two\nlines\r", "back\\slash\\", "\\t"};

        String line = SortedFile.line(fields);

        assertThat(line).doesNotContain("\n", "\r");
        assertThat(line.chars().filter(c -> c == '\t').count()).isEqualTo(fields.length - 1);
        assertThat(SortedFile.fields(line)).containsExactly(fields);
        assertThat(SortedFile.key(line)).isEqualTo("http://a.test/x\\ty");
    }

    @Test
    void manyRunsMergeToTheOrderOfOneSortAndTheRunsAreDeleted() throws Exception {
        Random random = new Random(28);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            lines.add(SortedFile.line("http://h" + random.nextInt(50) + ".test/" + random.nextInt(1000),
                    String.valueOf(i)));
        }
        Path in = dir.resolve("in");
        Files.write(in, lines, StandardCharsets.UTF_8);

        SortedFile.sort(in, dir.resolve("out"), 4_000); // about 40 runs

        List<String> expected = new ArrayList<>(lines);
        expected.sort(null);
        assertThat(Files.readAllLines(dir.resolve("out"), StandardCharsets.UTF_8)).isEqualTo(expected);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("out");
        }
    }

    @Test
    void aKeySortsBeforeTheLongerKeysItBegins() throws Exception {
        Path in = dir.resolve("in");
        Files.write(in, List.of(SortedFile.line("http://a.test/ab", "2"), SortedFile.line("http://a.test/a", "1"),
                SortedFile.line("http://a.test/a-b", "3")), StandardCharsets.UTF_8);

        SortedFile.sort(in, dir.resolve("out"));

        assertThat(Files.readAllLines(dir.resolve("out"))).extracting(SortedFile::key)
                .containsExactly("http://a.test/a", "http://a.test/a-b", "http://a.test/ab");
    }
}
