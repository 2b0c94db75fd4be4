package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.fixtures.FixtureSite.linkPage;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FixtureSite;

/** {@code --fail-on} of crawl and report, and {@code report --format markdown}, on a site with one redirect. */
class FailOnTest {
    @TempDir
    Path dir;

    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSiteAndResetLogging() {
        site.close();
        LogSetup.configure(0, LogSetup.Format.text);
    }

    private Path crawled(String... options) {
        site.page("/", linkPage("home", "/moved", "/a")).page("/a", linkPage("a")).redirect("/moved", 301, "/a");
        Path out = dir.resolve("out");
        String[] args = new String[options.length + 5];
        args[0] = "crawl";
        System.arraycopy(options, 0, args, 1, options.length);
        args[options.length + 1] = "--delay";
        args[options.length + 2] = "0ms";
        args[options.length + 3] = "--out=" + out;
        args[options.length + 4] = site.url("/");
        CommandRun crawl = CommandRun.execute(CommandRun.withProfiles(Map.of()), args);
        lastCrawl = crawl;
        return out;
    }

    private CommandRun lastCrawl;

    @Test
    void aCrawlFailsOnTheRedirectItFoundPrintingItsChain() {
        crawled("--fail-on", "redirects");

        assertThat(lastCrawl.exit()).as(lastCrawl.err()).isEqualTo(6);
        assertThat(lastCrawl.out()).contains("redirects: 1\n",
                "  [1 hop] " + site.url("/moved") + " -> " + site.url("/a") + " (200)\n",
                "      301 " + site.url("/moved") + "\n",
                "crawl: --fail-on: the audit found 1 redirects (");
    }

    @Test
    void aReportPassesWhenTheListNamedIsEmptyAndFailsWhenItIsNot() {
        Path out = crawled();
        assertThat(lastCrawl.exit()).as(lastCrawl.err()).isZero();

        CommandRun failing = CommandRun.execute("report", "--fail-on", "redirects", out.toString());
        assertThat(failing.exit()).isEqualTo(6);
        assertThat(failing.out()).contains("report: --fail-on: the audit found 1 redirects");

        site.close();
        FixtureSite plain = FixtureSite.start();
        try {
            plain.page("/", linkPage("home", "/a")).page("/a", linkPage("a"));
            Path clean = dir.resolve("clean");
            CommandRun crawl = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--fail-on",
                    "redirects", "--delay", "0ms", "--out", clean.toString(), plain.url("/"));
            assertThat(crawl.exit()).as(crawl.err()).isZero();
            assertThat(crawl.out()).contains("redirects: none");
        } finally {
            plain.close();
        }
    }

    @Test
    void anUnknownListIsAUsageErrorNamingTheChoices() {
        CommandRun run = CommandRun.execute("report", "--fail-on", "redirects,broken", dir.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--fail-on: \"broken\" is not a list of the audit: choose from broken-links,"
                + " redirects, duplicates");
    }

    @Test
    void aCrawlFailsOnABrokenLinkPrintingThePagesLinkingToIt() {
        site.page("/", linkPage("home", "/gone", "/a")).page("/a", linkPage("a", "/gone"));
        Path out = dir.resolve("out");

        CommandRun crawl = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--fail-on",
                "broken-links", "--set", "output.links=true", "--delay", "0ms", "--out", out.toString(),
                site.url("/"));

        assertThat(crawl.exit()).as(crawl.err()).isEqualTo(6);
        assertThat(crawl.out()).contains("[404] " + site.url("/gone"), "from " + site.url("/") + " ",
                "from " + site.url("/a") + " ");
    }

    @Test
    void brokenLinksWithoutTheLinkGraphIsAUsageErrorNamingTheKey() {
        site.page("/", linkPage("home", "/gone"));

        CommandRun crawl = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--fail-on",
                "broken-links", "--set", "output.links=false", "--delay", "0ms", "--out",
                dir.resolve("out").toString(), site.url("/"));

        assertThat(crawl.exit()).isEqualTo(2);
        assertThat(crawl.err()).contains("--fail-on broken-links needs the link graph",
                "--set output.links=true");
        assertThat(site.requests("/")).as("no crawl").isZero();
    }

    @Test
    void markdownSummarisesTheAuditWithItsFindingsEscaped() {
        Path out = crawled();

        CommandRun run = CommandRun.execute("report", "--format", "markdown", out.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("## Crawl audit: ")
                .contains("**2** pages, **0** HTTP errors, **0** failed, 1 redirects, 3 responses, 3 URLs decided.",
                        "| list | findings |", "| redirects | 1 |",
                        "### redirects\n\n- \\[1 hop\\] " + site.url("/moved") + " -\\> " + site.url("/a") + " (200)\n"
                                + "  - 301 " + site.url("/moved") + "\n");
    }
}
