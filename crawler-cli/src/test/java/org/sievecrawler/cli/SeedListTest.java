package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.TsvTable;

class SeedListTest {
    @TempDir
    Path dir;

    @Test
    void readsOneUrlPerLineSkippingBlankLinesAndComments() throws Exception {
        SeedList seeds = new SeedList();

        seeds.addFile(resource("/cli/seeds.txt"));

        assertThat(seeds.seeds()).containsExactly("https://example.org/", "https://example.org/docs/a",
                "http://example.com/b");
    }

    @Test
    void reportsEachBadLineWithItsLineNumberAndSkipsIt() throws Exception {
        SeedList seeds = new SeedList();
        Path file = resource("/cli/seeds.txt");

        seeds.addFile(file);

        assertThat(seeds.problems()).hasSize(2);
        assertThat(seeds.problems().get(0)).startsWith(file + ":5: not a usable seed: scheme \"ftp\" is not http or")
                .endsWith(" (\"ftp://example.org/file\"); skipped");
        assertThat(seeds.problems().get(1)).startsWith(file + ":7: a space within the line: ")
                .endsWith(" (\"not a url\"); skipped");
    }

    @Test
    void keepsTheFirstOfDuplicateSeedsInOrder() {
        SeedList seeds = new SeedList();

        seeds.add("profile: seeds[0]", "https://example.org/b");
        seeds.add("argument 1", "https://example.org/a");
        seeds.add("argument 2", "HTTPS://EXAMPLE.ORG/b");

        assertThat(seeds.seeds()).containsExactly("https://example.org/b", "https://example.org/a");
        assertThat(seeds.problems()).isEmpty();
    }

    @Test
    void namesWhereABadSeedCameFrom() {
        SeedList seeds = new SeedList();

        seeds.add("argument 2", "javascript:alert(1)");

        assertThat(seeds.seeds()).isEmpty();
        assertThat(seeds.problems()).singleElement().asString().startsWith("argument 2: not a usable seed: ")
                .endsWith(" (\"javascript:alert(1)\"); skipped");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lines")
    void readsEachLineOfTheTableAsItsSeedOrItsProblem(String name, TsvTable.Row row) throws Exception {
        Path file = Files.write(dir.resolve(name + ".txt"), bytes(row.cell(1)));
        SeedList seeds = new SeedList();

        seeds.addFile(file);

        if (row.cell(2).isEmpty()) {
            assertThat(seeds.seeds()).as(row.where()).isEmpty();
        } else {
            assertThat(seeds.seeds()).as(row.where()).containsExactly(row.cell(2));
        }
        String problem = row.cell(3).replace("{file}", file.toString());
        if (problem.isEmpty()) {
            assertThat(seeds.problems()).as(row.where()).isEmpty();
        } else {
            assertThat(seeds.problems()).as(row.where()).containsExactly(problem);
        }
    }

    @Test
    void skipsABadLineAndReadsTheRestOfTheFileCountingWhatWasSkipped() throws Exception {
        Path file = Files.write(dir.resolve("seeds.txt"), bytes("https://a.example/ # first\n"
                + "https://b.example/caf\\xe9\nhttps://c.example/ d\nhttps://d.example/\n"));
        SeedList seeds = new SeedList();

        seeds.addFile(file);

        assertThat(seeds.seeds()).containsExactly("https://a.example/", "https://d.example/");
        assertThat(seeds.report("crawl")).hasSize(3).startsWith(seeds.problems().toArray(String[]::new))
                .endsWith("crawl: skipped 2 bad seeds (named above); 2 seeds left");
        assertThat(seeds.problems().get(0)).startsWith(file + ":2: not UTF-8 text");
        assertThat(seeds.problems().get(1)).startsWith(file + ":3: a space within the line");
    }

    static Stream<Object[]> lines() throws IOException {
        return TsvTable.named("/errors/seed-lines.tsv", 4);
    }

    /** {@code line} as bytes: each char its byte (ISO-8859-1), "\\xHH" the byte HH, "\\t" a tab. */
    private static byte[] bytes(String line) {
        StringBuilder latin1 = new StringBuilder();
        for (int i = 0; i < line.length(); i++) {
            if (line.startsWith("\\x", i)) {
                latin1.append((char) Integer.parseInt(line.substring(i + 2, i + 4), 16));
                i += 3;
            } else if (line.startsWith("\\t", i)) {
                latin1.append('\t');
                i++;
            } else {
                latin1.append(line.charAt(i));
            }
        }
        return latin1.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(SeedListTest.class.getResource(name).toURI());
    }
}
