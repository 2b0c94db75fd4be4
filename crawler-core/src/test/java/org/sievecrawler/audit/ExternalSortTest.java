package org.sievecrawler.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExternalSortTest {
    @TempDir
    Path dir;

    @Test
    void sortsMoreLinesThanItHoldsBySpillingRunsAndMergingThem() throws Exception {
        Random random = new Random(28);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            lines.add("http://example.org/" + Integer.toString(random.nextInt(5_000), 36) + "\t" + i % 7);
        }
        List<String> sorted = new ArrayList<>();
        try (ExternalSort sort = new ExternalSort(dir, 16 << 10)) {
            for (String line : lines) {
                sort.add(line);
            }
            sort.sorted(sorted::add);
            assertThat(sort.runs()).as("a 16 KB bound spills").isGreaterThan(50);
        }
        List<String> expected = new ArrayList<>(lines);
        expected.sort(null);
        assertThat(sorted).isEqualTo(expected);
        try (var left = Files.list(dir)) {
            assertThat(left).as("run files deleted").isEmpty();
        }
    }

    @Test
    void sortsInMemoryWhenTheLinesFit() throws Exception {
        List<String> sorted = new ArrayList<>();
        try (ExternalSort sort = new ExternalSort(dir, 1 << 20)) {
            for (String line : List.of("b", "a", "c", "a")) {
                sort.add(line);
            }
            sort.sorted(sorted::add);
            assertThat(sort.runs()).isZero();
        }
        assertThat(sorted).containsExactly("a", "a", "b", "c");
    }
}
