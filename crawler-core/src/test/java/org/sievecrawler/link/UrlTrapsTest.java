package org.sievecrawler.link;

import org.sievecrawler.fixtures.TsvTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.sievecrawler.profile.ScopeConfig;

class UrlTrapsTest {
    private final UrlTraps defaults = UrlTraps.of(ScopeConfig.defaults());

    @Test
    void decidesTheCasesOfTheTableWithTheDefaultLimits() throws IOException {
        List<String[]> rows = read("/link/url-traps.tsv");
        assertThat(rows).hasSizeGreaterThan(20);
        for (String[] row : rows) {
            Optional<String> expected = row[1].equals("-") ? Optional.empty() : Optional.of(row[1]);
            assertThat(defaults.trap(row[0])).as("%s (%s)", row[0], row[2]).isEqualTo(expected);
        }
    }

    @Test
    void zeroMeansNoLimit() {
        UrlTraps none = new UrlTraps(0, 0);
        assertThat(none.trap("https://example.org/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a"))
                .isEmpty();
        assertThat(new UrlTraps(0, 3).trap("https://example.org/" + "s/".repeat(100) + "x")).isNotEmpty();
        assertThat(new UrlTraps(2, 0).trap("https://example.org/a/a/a")).contains(
                "path has 3 segments, more than scope.max-path-segments 2");
    }

    @Test
    void aStricterLimitRefusesTheFirstRepeat() {
        UrlTraps once = new UrlTraps(32, 1);
        assertThat(once.trap("https://example.org/a/b/c")).isEmpty();
        assertThat(once.trap("https://example.org/a/b/b")).contains(
                "path repeats segment \"b\" 2 times in a row, more than scope.max-repeated-segments 1");
        assertThat(once.trap("https://example.org/q/a/b/a/b")).contains(
                "path repeats 2 segments \"a/b\" 2 times in a row, more than scope.max-repeated-segments 1");
    }

    @Test
    void runsLongerThanEightSegmentsAreLeftToTheSegmentLimit() {
        String nine = "1/2/3/4/5/6/7/8/9/";
        UrlTraps repeatsOnly = new UrlTraps(0, 3);
        assertThat(repeatsOnly.trap("https://example.org/" + nine.repeat(5))).isEmpty();
        String eight = "1/2/3/4/5/6/7/8/";
        assertThat(repeatsOnly.trap("https://example.org/" + eight.repeat(4))).contains("path repeats 8 segments"
                + " \"1/2/3/4/5/6/7/8\" 4 times in a row, more than scope.max-repeated-segments 3");
    }

    @Test
    void refusesNegativeLimits() {
        assertThatIllegalArgumentException().isThrownBy(() -> new UrlTraps(-1, 3)).withMessageContaining("-1");
    }

    /**
     * The defaults never refuse a page of Debian's documentation packages, when they are installed: the paths as
     * nginx serves them from /usr/share/doc (the crawl benchmark's layout), which is deeper than any one package.
     */
    @Test
    void theDefaultsRefuseNoPageOfDebianDocumentationPackages() throws IOException {
        List<Path> packages = Stream.of("rust-doc", "apache2-doc", "libboost1.81-doc", "python-django-doc")
                .map(name -> Path.of("/usr/share/doc", name)).filter(Files::isDirectory).collect(Collectors.toList());
        Assumptions.assumeFalse(packages.isEmpty(), "no Debian documentation package installed");
        int pages = 0;
        for (Path root : packages) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".html"))::iterator) {
                    String url = "http://127.0.0.1:8000" + file;
                    assertThat(defaults.trap(url)).as(url).isEmpty();
                    pages++;
                }
            }
        }
        assertThat(pages).isPositive();
    }

    private static List<String[]> read(String resource) throws IOException {
        return TsvTable.cells(resource, 3);
    }
}
