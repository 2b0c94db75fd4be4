package org.sievecrawler.report;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_RETRIES;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_ROBOTS_RETRY;
import static org.sievecrawler.profile.ProfileKeys.PROGRESS_INTERVAL;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_FALSE_POSITIVE_RATE;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.Crawler;
import org.sievecrawler.escape.Json;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.fixtures.HostileText;
import org.sievecrawler.profile.CrawlProfile;

/**
 * The report a crawl writes at its end, opened in headless Chromium: its script ran without errors and drew every
 * chart its data called for, on canvases with pixels painted; a screenshot goes to target/report-screenshot.png. The
 * same with each text of the payload table /escape/script-data.tsv in every text of the crawl's files: the page is
 * intact, all charts are drawn, the text is shown as text, and none of it runs. Skipped, saying why,
 * when no Chromium is found (PATH: chromium, chromium-browser, google-chrome; or the CHROMIUM variable); .ci/run
 * installs Debian's chromium when it can.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CrawlReportChromiumTest {
    @TempDir
    Path out;
    @TempDir
    Path browserProfile;
    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSite() {
        site.close();
    }

    @Test
    void theReportOfACrawlRendersItsChartsInChromium() throws Exception {
        Path chromium = chromium().orElse(null);
        Assumptions.assumeTrue(chromium != null, "no Chromium found on PATH (chromium, chromium-browser,"
                + " google-chrome) nor in $CHROMIUM: `apt-get install -y chromium` (.ci/run does it as root)");
        Map<String, String> pages = new TreeMap<>(FixtureSite.linkedPages(60));
        site.pages(pages);
        site.page("/index.html", FixtureSite.linkPage("with errors", "/", "/missing", "/broken", "/forbidden",
                "/c1", "/to-nowhere"));
        for (int i = 1; i <= 5; i++) { // a chain, for the depth histogram
            site.page("/c" + i, FixtureSite.linkPage("c" + i, "/c" + (i + 1)));
        }
        site.respond("/broken", aResponse().withStatus(500));
        site.respond("/forbidden", aResponse().withStatus(403));
        // the page: its error text puts "<!--<script>" in the report's data, which swallowed the page
        site.redirect("/to-nowhere", 302, "http://a b/<!--<script>");
        CrawlProfile profile = CrawlProfile.defaults()
                .with(SEEDS, List.of(site.url("/index.html"), "http://localhost:" + site.port() + "/p30"))
                .with(POLITENESS_DELAY, Duration.ofMillis(20)).with(POLITENESS_ROBOTS_RETRY, Duration.ofMillis(100))
                .with(FETCH_THREADS, 4).with(FETCH_RETRIES, 0).with(LIMITS_MAX_PAGES_PER_HOST, 20L)
                .with(SIEVE_EXPECTED_URLS, 1_000L).with(SIEVE_FALSE_POSITIVE_RATE, 0.01)
                .with(PROGRESS_INTERVAL, Duration.ofMillis(200))
                .with(OUTPUT_DIR, out);

        Crawler.newCrawl(profile).run();

        Path report = out.resolve("report.html");
        assertThat(report).exists();
        assertThat(Files.readAllLines(out.resolve("progress.jsonl"))).isNotEmpty();
        assertThat(Files.readString(out.resolve("pages.jsonl"))).contains("http://a b/<!--<script>");
        String dom = run(chromium, "--dump-dom", report.toUri().toString());
        Map<String, String> attributes = htmlAttributes(dom);
        assertThat(attributes).doesNotContainKey("data-errors");
        assertThat(attributes).containsEntry("data-charts-expected", "8").containsEntry("data-charts", "8")
                .containsEntry("data-charts-painted", "8");
        assertThat(Pattern.compile("<canvas").matcher(dom).results().count()).isEqualTo(8);
        assertThat(dom).contains("Pages per second", "Outcomes", "HTTP statuses", "Depth", "Top hosts", "Top errors",
                "Links not followed (by reason)", "Sieve: seen~ and false-positive rate");
        long overBudget = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.resolve("summary.json").toFile()).path("linkRejections")
                .path("over-host-budget").asLong();
        assertThat(overBudget).as("60 pages a host, 20 admitted").isPositive();
        assertThat(dom).contains("over host budget (limits.max-pages-per-host): <b>" + overBudget + "</b>");

        Path screenshot = Path.of("target", "report-screenshot.png").toAbsolutePath();
        Files.deleteIfExists(screenshot);
        run(chromium, "--screenshot=" + screenshot, "--window-size=1280,1400", "--hide-scrollbars",
                report.toUri().toString());
        byte[] png = Files.readAllBytes(screenshot);
        assertThat(png.length).isGreaterThan(20_000); // charts, not a blank page
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    @ParameterizedTest
    @MethodSource("org.sievecrawler.fixtures.HostileText#scriptData")
    void aReportWhoseTextsAreMadeToBreakItDrawsAllItsChartsAndRunsNoneOfThem(HostileText.ScriptData row)
            throws Exception {
        Path chromium = chromium().orElse(null);
        Assumptions.assumeTrue(chromium != null, "no Chromium found on PATH (chromium, chromium-browser,"
                + " google-chrome) nor in $CHROMIUM: `apt-get install -y chromium` (.ci/run does it as root)");
        HostileCrawlFolder.write(out, row.text());

        String dom = run(chromium, "--dump-dom", CrawlReport.write(out).toUri().toString());

        Map<String, String> attributes = htmlAttributes(dom);
        assertThat(attributes).as("no script error, no injected code ran").doesNotContainKeys("data-errors",
                "data-injected");
        String charts = String.valueOf(HostileCrawlFolder.CHARTS);
        assertThat(attributes).containsEntry("data-charts-expected", charts).containsEntry("data-charts", charts)
                .containsEntry("data-charts-painted", charts);
        String tables = String.valueOf(HostileCrawlFolder.TABLES);
        assertThat(attributes).as("a table for each list of audit.json").containsEntry("data-tables-expected", tables)
                .containsEntry("data-tables", tables);
        assertThat(Pattern.compile("<table").matcher(dom).results().count()).isEqualTo(HostileCrawlFolder.TABLES);
        assertThat(Pattern.compile("href=\"([^\"]*)\"").matcher(dom).results().map(m -> m.group(1)))
                .as("links only to http(s) URLs").isNotEmpty().allMatch(href -> href.startsWith("http://a.test/")
                        || href.startsWith("http://b.test/"));
        assertThat(dom).as("the end reason shown as text").contains("ended: <b>" + Json.wellFormed(row.text())
                .replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\u00a0", "&nbsp;") + "</b>");
        assertThat(dom).doesNotContain("<img");
        assertThat(dom).as("a recrawl's changes lead").contains("Changes since 2026-01-01 00:00:00Z")
                .contains("Unlinked: no page links to them any more (1)");
        assertThat(dom.indexOf("Changes since")).isLessThan(dom.indexOf("Broken links"));
        assertThat(dom).as("the rules learned, after the audit").contains("Rules learned (1)");
        assertThat(dom.indexOf("Rules learned")).isGreaterThan(dom.indexOf("Slowest pages"));
    }

    /** The data- attributes the page's script set on its html element. */
    private static Map<String, String> htmlAttributes(String dom) {
        int end = dom.indexOf('>', dom.indexOf("<html"));
        String tag = dom.substring(dom.indexOf("<html"), end + 1);
        Map<String, String> attributes = new TreeMap<>();
        Matcher m = Pattern.compile("\\s(data-[a-z-]+)=\"([^\"]*)\"").matcher(tag);
        while (m.find()) {
            attributes.put(m.group(1), m.group(2));
        }
        return attributes;
    }

    /** Runs headless Chromium with {@code args}, in a new profile folder, and returns what it printed to stdout. */
    private String run(Path chromium, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + Files.createTempDirectory(browserProfile, "chromium")));
        command.addAll(List.of(args));
        Path stdout = Files.createTempFile(browserProfile, "stdout", ".txt");
        Path stderr = Files.createTempFile(browserProfile, "stderr", ".txt");
        Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                .start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("chromium did not end within 60 s: " + command);
        }
        assertThat(process.exitValue()).as("chromium's exit status; stderr: %s", Files.readString(stderr))
                .isZero();
        return Files.readString(stdout);
    }

    private static Optional<Path> chromium() {
        String given = System.getenv("CHROMIUM");
        if (given != null && !given.isBlank()) {
            return Optional.of(Path.of(given));
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }
}
