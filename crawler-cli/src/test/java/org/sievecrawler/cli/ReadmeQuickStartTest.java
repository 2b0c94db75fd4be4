package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's quick start and first crawl, run as a newcomer pastes them after the build: the {@code sh} blocks
 * the README marks with {@code <!-- ReadmeQuickStartTest runs this block ... -->}, in order, in one shell in a
 * {@link LauncherCheckout} (the launcher, its jar and config/, as the build leaves them), but the {@code mvn} lines
 * (the build is the test's own) and with a local site in place of the placeholder {@code https://docs.example.org/}.
 * No crawler is on PATH before the blocks run: they must put it there.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReadmeQuickStartTest {
    private static final String MARK = "<!-- ReadmeQuickStartTest runs this block";
    private static final String PLACEHOLDER = "https://docs.example.org/";

    /** The marked blocks' lines, in order, each block's without its mvn lines. */
    private static List<String> markedCommands(List<String> readme) {
        List<String> commands = new ArrayList<>();
        for (int i = 0; i < readme.size(); i++) {
            if (!readme.get(i).startsWith(MARK)) {
                continue;
            }
            assertThat(readme.get(i + 1)).as("README.md:%d: a marked block opens with ```sh", i + 2)
                    .isEqualTo("```sh");
            for (int j = i + 2; !readme.get(j).equals("```"); j++) {
                if (!readme.get(j).startsWith("mvn ")) {
                    commands.add(readme.get(j));
                }
            }
        }
        return commands;
    }

    @Test
    void theQuickStartAndTheFirstCrawlRunAsWrittenAgainstALocalSite() throws Exception {
        List<String> commands = markedCommands(Files.readAllLines(Path.of("../README.md")));
        assertThat(String.join("\n", commands)).as("the blocks a newcomer pastes").contains("crawler demo",
                "crawler crawl " + PLACEHOLDER, "crawler profile check");
        try (LauncherCheckout checkout = LauncherCheckout.create();
                LinkedPagesSite site = LinkedPagesSite.start(2, 0)) {
            String script = "set -ex\n" + String.join("\n", commands).replace(PLACEHOLDER, site.url("/"));

            LauncherCheckout.Result run = checkout.sh(script);

            assertThat(run.exit()).as(run.output()).isZero();
            assertThat(run.output()).contains("demo site stopped.", "crawl finished: decided=", "name: site");
            assertThat(Files.readString(checkout.root().resolve("site-out/pages.jsonl")))
                    .contains(site.allUrls().stream().map(url -> "\"url\":\"" + url + "\"").toArray(String[]::new));
        }
    }
}
