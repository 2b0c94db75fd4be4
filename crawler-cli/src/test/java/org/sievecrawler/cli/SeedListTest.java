package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SeedListTest {

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
        assertThat(seeds.problems().get(0)).startsWith(file + ":5: \"ftp://example.org/file\" is not a usable seed:")
                .endsWith("; skipped");
        assertThat(seeds.problems().get(1)).startsWith(file + ":7: \"not a url\" is not a usable seed:");
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
        assertThat(seeds.problems()).singleElement().asString().startsWith("argument 2: \"javascript:alert(1)\"");
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(SeedListTest.class.getResource(name).toURI());
    }
}
