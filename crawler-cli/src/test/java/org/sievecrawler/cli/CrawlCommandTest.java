package org.sievecrawler.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.fixtures.FixtureSite.linkPage;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.FETCH_USER_AGENT;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sievecrawler.checkpoint.CheckpointStore;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.FetchConfig;
import org.sievecrawler.profile.ProfileException;
import org.sievecrawler.profile.ProfileProblem;
import picocli.CommandLine;

class CrawlCommandTest {
    private static final Pattern PROGRESS_FIELD = Pattern.compile("[a-z-]+[=~][0-9.]+(e-?[0-9]+)?(%|/s|/\\d+|KB|MB|s)?");

    @TempDir
    Path dir;

    private FixtureSite site;

    @BeforeEach
    void startSite() {
        site = FixtureSite.start();
        site.page("/a", linkPage("A")).page("/b", linkPage("B")).page("/c", linkPage("C"))
                .page("/d", linkPage("D"));
    }

    @AfterEach
    void stopSiteAndResetLogging() {
        site.close();
        LogSetup.configure(0, LogSetup.Format.text);
    }

    @Test
    void theArgumentsAndTheSeedFileReplaceTheSeedsOfTheProfile() throws IOException {
        Path out = dir.resolve("out");
        CrawlProfile profile = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/a")));
        Path seeds = Files.writeString(dir.resolve("seeds.txt"), "# more seeds\n" + site.url("/c") + "\n");

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", profile)),
                "crawl", "--profile", "site.yaml", "--seeds", seeds.toString(), site.url("/b"));

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(urls(out)).containsExactlyInAnyOrder(site.url("/b"), site.url("/c"));
        assertThat(site.requests("/a")).isZero();
        assertThat(run.out()).contains("output folder: " + out.toAbsolutePath(), "crawl finished: decided=2");
        assertThat(out.resolve("summary.json")).isNotEmptyFile();
    }

    @Test
    void crawlsTheSeedsOfTheProfileWhenTheCommandLineGivesNone() throws IOException {
        Path out = dir.resolve("out");
        CrawlProfile profile = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/a"), site.url("/b")));

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", profile)),
                "crawl", "--profile", "site.yaml");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(urls(out)).containsExactlyInAnyOrder(site.url("/a"), site.url("/b"));
    }

    @Test
    void reportsBadSeedLinesWithTheirLineNumbersAndCrawlsTheRest() throws IOException {
        Path out = dir.resolve("out");
        Path seeds = Files.writeString(dir.resolve("seeds.txt"),
                "# seeds\n" + site.url("/a") + "\n\nmailto:someone@example.org\n" + site.url("/b") + "\nnot a url\n");

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--delay", "0ms",
                "--out", out.toString(), "--seeds", seeds.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(Files.readString(out.resolve("crawl.log"))).as("streamed: named in the log as they are read")
                .contains(seeds + ":4: not a usable seed: ", " (\"mailto:someone@example.org\"); skipped",
                        seeds + ":6: a space within the line: ", " (\"not a url\"); skipped",
                        "seeds: " + seeds + " read to its end: 2 seeds offered, 2 bad lines skipped in ");
        assertThat(urls(out)).containsExactlyInAnyOrder(site.url("/a"), site.url("/b"));
    }

    @Test
    void flagsOverrideTheProfile() throws IOException {
        site.page("/", linkPage("Home", "/a", "/b", "/c", "/d"));
        Path profileOut = dir.resolve("profile-out");
        Path flagOut = dir.resolve("flag-out");
        CrawlProfile profile = CommandRun.localProfile(profileOut).with(SEEDS, List.of(site.url("/")));
        profile = profile.with(FETCH_USER_AGENT, "ProfileBot/1.0");

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", profile)),
                "crawl", "--profile", "site.yaml", "--out", flagOut.toString(), "--threads", "1",
                "--max-pages", "3", "--user-agent", "FlagBot/2.0", "--delay", "0ms");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(profileOut).doesNotExist();
        assertThat(urls(flagOut)).hasSize(3);
        assertThat(run.out()).contains("crawl max-pages:");
        assertThat(site.requestLog()).isNotEmpty()
                .allSatisfy(request -> assertThat(request.getHeader("User-Agent")).isEqualTo("FlagBot/2.0"));
    }

    @Test
    void maxDepthZeroCrawlsOnlyTheSeeds() throws IOException {
        site.page("/", linkPage("Home", "/a", "/b"));
        Path out = dir.resolve("out");
        CrawlProfile profile = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/")));

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", profile)),
                "crawl", "--profile", "site.yaml", "--max-depth", "0");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(urls(out)).containsExactly(site.url("/"));
    }

    @Test
    void withoutAProfileUsesTheDefaults() throws IOException {
        Path out = dir.resolve("out");

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--delay", "0ms",
                "--out", out.toString(), site.url("/a"));

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(urls(out)).containsExactly(site.url("/a"));
        assertThat(site.requestLog()).allSatisfy(request ->
                assertThat(request.getHeader("User-Agent")).isEqualTo(FetchConfig.DEFAULT_USER_AGENT));
    }

    @Test
    void logsProgressLinesOfKeyValuePairsToCrawlLog() throws IOException {
        site.page("/", linkPage("Home", "/a", "/b", "/c", "/d"));
        Path out = dir.resolve("out");
        CrawlProfile profile = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/")));

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", profile)),
                "crawl", "--profile", "site.yaml");

        assertThat(run.exit()).as(run.err()).isZero();
        List<String> progress = Files.readAllLines(out.resolve("crawl.log")).stream()
                .filter(line -> line.contains(" org.sievecrawler.progress - fetched="))
                .map(line -> line.substring(line.indexOf(" - ") + 3))
                .toList();
        assertThat(progress).isNotEmpty().allSatisfy(line -> assertThat(line.split(" "))
                .allSatisfy(field -> assertThat(field).matches(PROGRESS_FIELD)));
        assertThat(progress.get(progress.size() - 1)).contains(" active=0/2 ")
                .containsPattern(" fpr=[0-9.e-]+% fallback=0\\.0% hosts=");
        assertThat(Files.readString(out.resolve("crawl.log"))).contains("crawl finished: decided=5");
    }

    @Test
    void quietDropsInfoLinesButKeepsProgressAndSummary() throws IOException {
        Path out = dir.resolve("out");
        CrawlProfile profile = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/a")));

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", profile)),
                "crawl", "--profile", "site.yaml", "-q");

        assertThat(run.exit()).as(run.err()).isZero();
        String log = Files.readString(out.resolve("crawl.log"));
        assertThat(log).contains("org.sievecrawler.progress - fetched=", "crawl finished:")
                .doesNotContain("crawl started:");
    }

    @Test
    void veryQuietLogsErrorsOnly() throws IOException {
        Path out = dir.resolve("out");
        CrawlProfile profile = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/a")));

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", profile)),
                "crawl", "--profile", "site.yaml", "-qq");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(out.resolve("crawl.log")).isEmptyFile();
        assertThat(run.out()).contains("crawl finished:");
    }

    @Test
    void writesOneJsonObjectPerLogLineWithLogFormatJson() throws IOException {
        Path out = dir.resolve("out");
        CrawlProfile profile = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/a")));

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", profile)),
                "crawl", "--profile", "site.yaml", "--log-format", "json");

        assertThat(run.exit()).as(run.err()).isZero();
        List<String> lines = Files.readAllLines(out.resolve("crawl.log"));
        assertThat(lines).isNotEmpty();
        List<String> messages = new ArrayList<>();
        for (String line : lines) {
            try (JsonParser json = new JsonFactory().createParser(line)) {
                assertThat(json.nextToken()).isEqualTo(JsonToken.START_OBJECT);
                while (json.nextToken() == JsonToken.FIELD_NAME) {
                    String field = json.currentName();
                    json.nextToken();
                    if (field.equals("message")) {
                        messages.add(json.getText());
                    }
                }
                assertThat(json.currentToken()).isEqualTo(JsonToken.END_OBJECT);
                assertThat(json.nextToken()).isNull();
            }
        }
        assertThat(messages).anySatisfy(message -> assertThat(message).startsWith("fetched="))
                .anySatisfy(message -> assertThat(message).startsWith("crawl finished:"));
    }

    @Test
    void anOutputFolderThatCannotBeCreatedIsAUsageErrorNamingTheOptionBeforeTheCrawl() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "not a folder");

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--delay", "0ms",
                "--out", file.toString(), site.url("/a"));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("crawl: --out " + file + ": is a file, not a folder" + System.lineSeparator());
        assertThat(site.requestLog()).isEmpty();
    }

    @Test
    void anOutputFolderOfTheProfileThatCannotBeCreatedIsNamedAsOutputDir() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "not a folder");
        CrawlProfile profile = CommandRun.localProfile(file.resolve("out"));

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", profile)), "crawl",
                "--profile", "site.yaml", site.url("/a"));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("crawl: output.dir " + file.resolve("out") + ": cannot be created: " + file
                + " is a file, not a folder" + System.lineSeparator());
    }

    @Test
    void aCrawlThatFetchesNothingFailsWithExitCodeOneAndSaysWhyInOneLine() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = socket.getLocalPort();
        }
        Path out = dir.resolve("out");

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--delay", "0ms",
                "--out", out.toString(), "http://127.0.0.1:" + port + "/");

        assertThat(run.exit()).as(run.err()).isEqualTo(1);
        assertThat(run.err().lines().filter(line -> line.startsWith("crawl failed:")))
                .containsExactly("crawl failed: no page could be fetched: http://127.0.0.1:" + port
                        + " unreachable (connection refused)");
        assertThat(run.out()).contains("crawl finished: decided=1 pages=0 redirects=0 http-errors=0 failed=1 responses=0 ",
                "unreachable: http://127.0.0.1:" + port + " (connection refused)");
        assertThat(out.resolve("summary.json")).isNotEmptyFile();
        List<String> log = Files.readAllLines(out.resolve("crawl.log"));
        assertThat(log.get(log.size() - 1)).as("crawl.log's last line").contains(" ERROR ")
                .endsWith(" - crawl failed: no page could be fetched: http://127.0.0.1:" + port
                        + " unreachable (connection refused)");
    }

    @Test
    void noSeedIsAUsageErrorWithExitCodeTwo() {
        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--out",
                dir.resolve("out").toString(), "not-a-url");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("argument 1: not a usable seed: ", " (\"not-a-url\"); skipped",
                "crawl: no usable seed: give URLs as arguments, a seed file with --seeds FILE, or seeds in the"
                        + " --profile");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void aSeedFileWithoutAUsableSeedIsAUsageErrorNamingItsBadLines() throws IOException {
        Path seeds = Files.writeString(dir.resolve("seeds.txt"), "# nothing to crawl\nftp://example.org/\n");

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--out",
                dir.resolve("out").toString(), "--seeds", seeds.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains(seeds + ":2: not a usable seed: ", "(\"ftp://example.org/\"); skipped",
                "crawl: no usable seed: give URLs as arguments, a seed file with --seeds FILE, or seeds in the"
                        + " --profile");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void aMissingSeedFileIsAUsageErrorWithExitCodeTwo() {
        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--seeds",
                dir.resolve("missing.txt").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--seeds " + dir.resolve("missing.txt") + ": no such file");
    }

    @Test
    void aProfileErrorExitsTwoWithItsMessageAndNoStackTrace() {
        CrawlerCommand root = new CrawlerCommand(new ProfileSource() {
            @Override
            public CrawlProfile load(Path file) throws ProfileException {
                throw new ProfileException(java.util.List.of(
                        new ProfileProblem(file.toString(), 3, 12, "fetch.threads", "must be in [1, 1024] (0)"),
                        new ProfileProblem(file.toString(), 7, 3, "politness",
                                "unknown key \"politness\" (did you mean \"politeness\"?)")));
            }

            @Override
            public CrawlProfile defaults() {
                return CrawlProfile.defaults();
            }
        }, onStop -> () -> { });

        CommandRun run = CommandRun.execute(root, "crawl", "--profile", "bad.yaml", site.url("/a"));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("bad.yaml:3:12: fetch.threads: must be in [1, 1024] (0)\n"
                + "bad.yaml:7:3: politness: unknown key \"politness\" (did you mean \"politeness\"?)"
                + System.lineSeparator());
        assertThat(site.requestLog()).isEmpty();
    }

    @Test
    void aFlagOutOfRangeIsAUsageErrorNamingTheKey() {
        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--threads", "0",
                site.url("/a"));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("crawl: --threads 0 (fetch.threads): must be in [1, 1024]"
                + System.lineSeparator());
    }

    @Test
    void aBadDurationIsAUsageErrorShowingTheAcceptedForms() {
        CommandRun run = CommandRun.execute("crawl", "--delay", "5 seconds", site.url("/a"));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("crawl: --delay 5 seconds (politeness.delay): must be a duration like 500ms,"
                + " 1.5s, 10s, 2m, 1h or 1d (a bare number is seconds)" + System.lineSeparator());
    }

    @Test
    void setOverridesAnyProfileKeyAndTheShorthandsGoThroughTheSameKeys() {
        CrawlCommand crawl = new CrawlCommand();
        new CommandLine(crawl).parseArgs("--delay", "1.5", "--threads", "3",
                "--set", "politeness.max-connections-per-host=4", "--set", "scope.exclude=[/calendar/, \"[?&]q=\"]",
                "--set", "fetch.headers=[From: crawler@example.org, X-Team: crawl]", "--set", "limits.max-page-bytes=2MB",
                "--set", "fetch.proxy=http://proxy.example:3128", "--set", "fetch.threads=5");

        CrawlProfile profile = crawl.overrides(CrawlProfile.defaults());

        assertThat(profile.fetch().threads()).as("the last value given wins").isEqualTo(5);
        assertThat(profile.politeness().delay()).isEqualTo(Duration.ofMillis(1500));
        assertThat(profile.politeness().maxConnectionsPerHost()).isEqualTo(4);
        assertThat(profile.scope().exclude()).extracting(Pattern::pattern).containsExactly("/calendar/", "[?&]q=");
        assertThat(profile.fetch().headers()).containsExactly("From: crawler@example.org", "X-Team: crawl");
        assertThat(profile.limits().maxPageBytes()).isEqualTo(2L * 1024 * 1024);
        assertThat(profile.fetch().proxy()).isEqualTo("http://proxy.example:3128");
    }

    @Test
    void aBadSetNamesTheKeyTheRuleAndTheValueAndAnUnknownKeyItsNearest() {
        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl",
                "--set", "politeness.delay=-3s", "--set", "politeness.dealy=2s", "--set", "delay=2s",
                "--set", "fetch.headers=Host: example.org", "--set", "threads", site.url("/a"));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().lines()).containsExactly(
                "crawl: --set politeness.delay=-3s: must be >= 0",
                "crawl: --set politeness.dealy=2s: unknown key \"politeness.dealy\" (did you mean"
                        + " \"politeness.delay\"?)",
                "crawl: --set delay=2s: unknown key \"delay\" (did you mean \"politeness.delay\"?)",
                "crawl: --set fetch.headers=Host: example.org: must not set Host: the HTTP client sets it for each"
                        + " request",
                "crawl: --set threads: must be KEY=VALUE, e.g. politeness.delay=2s");
        assertThat(site.requestLog()).isEmpty();
    }

    @Test
    void setSieveLayoutBlockedCrawlsWithTheBlockedFilterAndABadLayoutIsAUsageError() throws Exception {
        Path out = dir.resolve("out");
        site.page("/", linkPage("home", "/a", "/b", "/c", "/d"));
        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", CommandRun.localProfile(out))),
                "crawl", "--profile", "site.yaml", "--set", "sieve.layout=blocked", site.url("/"));

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(urls(out)).containsExactlyInAnyOrder(site.url("/"), site.url("/a"), site.url("/b"),
                site.url("/c"), site.url("/d"));
        assertThat(new org.sievecrawler.checkpoint.CheckpointStore(out).read().frontier().filters().get(0).layout())
                .isEqualTo(org.sievecrawler.sieve.SieveLayout.BLOCKED);

        CommandRun bad = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--set", "sieve.layout=cache",
                site.url("/"));
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).isEqualTo("crawl: --set sieve.layout=cache: must be classic or blocked"
                + System.lineSeparator());
    }

    @Test
    void helpShowsEachShorthandsDefaultAndEveryKeySetTakes() {
        CommandRun run = CommandRun.execute("crawl", "--help");

        assertThat(run.exit()).isZero();
        String unwrapped = run.out().replaceAll("\\.\\R +", ".").replaceAll("\\R {20,}", " ");
        assertThat(unwrapped).contains("sockets in all by default, fetch.max-connections sets another bound. Default: the profile's"
                + " fetch.threads, else 16.",
                "Default: the profile's politeness.delay, else 1s.", "--set=KEY=VALUE",
                "  politeness.max-connections-per-host    1", "  fetch.proxy                            none");
    }

    /** config/site.yaml's output.dir is site-out: the help said crawl-out, the built-in default, whatever the profile. */
    @Test
    void helpSaysTheOutputFolderIsTheProfilesElseCrawlOut() {
        CommandRun run = CommandRun.execute("crawl", "--help");

        assertThat(run.out().replaceAll("\\.\\R +", ".").replaceAll("\\R {20,}", " ")).contains("--out=DIR"
                + "             The output folder, relative to the working directory. Default: the profile's"
                + " output.dir, else crawl-out.");
    }

    @Test
    void aSecondCrawlIntoTheFolderOfAFinishedOneIsRefusedAndLeavesItsFilesAndLogAlone() throws IOException {
        Path out = dir.resolve("out");
        CrawlProfile profile = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/a")));
        CrawlerCommand root = CommandRun.withProfiles(Map.of("site.yaml", profile));
        assertThat(CommandRun.execute(root, "crawl", "--profile", "site.yaml").exit()).isZero();
        String pages = Files.readString(out.resolve("pages.jsonl"));
        String log = Files.readString(out.resolve("crawl.log"));

        CommandRun again = CommandRun.execute(root, "crawl", "--profile", "site.yaml");

        assertThat(again.exit()).isEqualTo(2);
        assertThat(again.err()).startsWith("crawl: " + out + " holds the output of an earlier crawl (pages.jsonl,"
                + " summary.json, checkpoint/)").contains("start afresh with --overwrite").doesNotContain("--resume");
        assertThat(out.resolve("pages.jsonl")).hasContent(pages);
        assertThat(out.resolve("crawl.log")).hasContent(log);
    }

    @Test
    void overwriteStartsAfreshWithNewPagesSummaryAndLog() throws IOException {
        Path out = dir.resolve("out");
        CrawlProfile profile = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/a")));
        CrawlerCommand root = CommandRun.withProfiles(Map.of("site.yaml", profile));
        assertThat(CommandRun.execute(root, "crawl", "--profile", "site.yaml").exit()).isZero();

        CommandRun again = CommandRun.execute(root, "crawl", "--profile", "site.yaml", "--overwrite", site.url("/b"));

        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(urls(out)).containsExactly(site.url("/b"));
        assertThat(Files.readString(out.resolve("crawl.log"))).containsOnlyOnce("crawl finished:");
    }

    @Test
    void overwriteIsRefusedWithResume() {
        CommandRun run = CommandRun.execute("crawl", "--resume", dir.toString(), "--overwrite");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--overwrite");
    }

    @Test
    void resumeWithAHigherMaxPagesExtendsACrawlThatStoppedAtItsLimit() throws IOException {
        site.page("/", linkPage("Home", "/a", "/b", "/c", "/d"));
        Path out = dir.resolve("out");
        CrawlProfile profile = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/")));
        CrawlerCommand root = CommandRun.withProfiles(Map.of("site.yaml", profile));
        CommandRun first = CommandRun.execute(root, "crawl", "--profile", "site.yaml", "--max-pages", "2");
        assertThat(first.out()).contains("crawl max-pages: decided=2", "stopped at limits.max-pages 2 with 3 URLs"
                + " pending; go on with a higher limit (0 for none): crawler crawl --resume " + out
                + " --max-pages 4");

        CommandRun same = CommandRun.execute(root, "crawl", "--resume", out.toString());
        CommandRun raised = CommandRun.execute(root, "crawl", "--resume", out.toString(), "--max-pages", "4");

        assertThat(same.exit()).isEqualTo(2);
        assertThat(same.err()).contains("stopped at limits.max-pages 2 (2 URLs decided); resume it with a higher"
                + " limit (0 for none), e.g. crawler crawl --resume " + out + " --max-pages 4");
        assertThat(raised.exit()).as(raised.err()).isZero();
        assertThat(raised.out()).contains("crawl max-pages: decided=4");
        assertThat(urls(out)).hasSize(4).doesNotHaveDuplicates();

        CommandRun set = CommandRun.execute(root, "crawl", "--resume", out.toString(), "--set", "limits.max-pages=5");

        assertThat(set.exit()).as(set.err()).isZero();
        assertThat(urls(out)).hasSize(5).doesNotHaveDuplicates();
    }

    @Test
    void resumeRefusesSeedsAndAnotherProfileNamingThemAndWhatItMayChange() {
        CommandRun run = CommandRun.execute("crawl", "--resume", dir.toString(), "--threads", "4", "--profile",
                "site.yaml", "--set", "limits.max-pages=9", "--seeds", "seeds.txt", site.url("/a"));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo("crawl: --resume " + dir + ": a resumed crawl goes on with the seeds"
                + " and profile it was started with; seed URLs, --profile, --seeds cannot be given with --resume. A"
                + " resume may change limits.*, fetch.* (not accept, allow-private-addresses), politeness.* (not"
                + " respect-robots), progress.*, checkpoint.* and name, with --set KEY=VALUE or --threads, --max-pages,"
                + " --delay, --user-agent");
    }

    /**
     * Issue 25: a crawl with a 1 s delay and 2 threads, stopped at max-pages, goes on with --delay 0.2s --threads 8;
     * the checkpoint records them and crawl.log says what changed.
     */
    @Test
    void resumeGoesOnWithANewDelayAndThreadsThatTheCheckpointRecords() throws Exception {
        site.page("/", linkPage("Home", "/a", "/b", "/c", "/d"));
        Path out = dir.resolve("out");
        CrawlProfile local = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/")));
        CrawlProfile profile = local.with(POLITENESS_DELAY, Duration.ofSeconds(1));
        CrawlerCommand root = CommandRun.withProfiles(Map.of("site.yaml", profile));
        assertThat(CommandRun.execute(root, "crawl", "--profile", "site.yaml", "--max-pages", "1").exit()).isZero();

        CommandRun resumed = CommandRun.execute(root, "crawl", "--resume", out.toString(), "--max-pages", "3",
                "--delay", "0.2s", "--threads", "8");

        assertThat(resumed.exit()).as(resumed.err()).isZero();
        assertThat(resumed.out()).contains("crawl max-pages: decided=3");
        assertThat(checkpointProfile(out)).contains("  threads: 8\n", "  delay: 200ms\n", "  max-pages: 3\n");
        assertThat(new CheckpointStore(out).readProfile().politeness().delay()).isEqualTo(Duration.ofMillis(200));
        assertThat(Files.readString(out.resolve("crawl.log"))).contains("crawl resumed: ", "; changed: limits.max-pages"
                + " 1 -> 3, fetch.threads 2 -> 8, politeness.delay 1s -> 200ms");
    }

    /** Issue 25: a change of what decides which URLs are crawled, or of the Sieve, is refused by name, untouched. */
    @Test
    void resumeRefusesAScopeOrSieveChangeNamingEachKeyAndBothValues() throws IOException {
        site.page("/", linkPage("Home", "/a", "/b"));
        Path out = dir.resolve("out");
        CrawlProfile profile = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/")));
        CrawlerCommand root = CommandRun.withProfiles(Map.of("site.yaml", profile));
        assertThat(CommandRun.execute(root, "crawl", "--profile", "site.yaml", "--max-pages", "1").exit()).isZero();
        String log = Files.readString(out.resolve("crawl.log"));
        int requests = site.requestLog().size();

        CommandRun run = CommandRun.execute(root, "crawl", "--resume", out.toString(), "--max-pages", "0",
                "--delay", "0.2s", "--max-depth", "3", "--set", "sieve.expected-urls=1000", "--out", "elsewhere");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().strip()).startsWith("crawl: --resume " + out + ": a resume of the crawl in " + out
                + " cannot change scope.max-depth (-1 in the checkpoint, 3 given): the keys that decide which URLs"
                + " the crawl takes are fixed, as the URLs already decided stay decided by the old values;"
                + " sieve.expected-urls (10000000 in the checkpoint, 1000 given): the keys that size the Sieve are"
                + " fixed, as the checkpoint holds its filters and pending URLs as they were built; output.dir (\""
                + out + "\" in the checkpoint, elsewhere given): the keys of the output are fixed, as a crawl's"
                + " output keeps one place and form from start to end. Resume without changing them, or start a new"
                + " crawl with the new values, in another folder (--out) or afresh in this one (--overwrite, which"
                + " deletes its pages).");
        assertThat(site.requestLog()).hasSize(requests);
        assertThat(out.resolve("crawl.log")).hasContent(log);
        assertThat(dir.resolve("elsewhere")).doesNotExist();
    }

    /** Issue 25: the placeholder contact of config/site.yaml is warned of once, when the crawl starts. */
    @Test
    void aCrawlWarnsOnceOfAPlaceholderContactInItsUserAgent() throws IOException {
        Path out = dir.resolve("out");
        CrawlProfile profile = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/a")));

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", profile)), "crawl",
                "--profile", "site.yaml", "--user-agent", "SieveCrawler/0.1 (contact: you@example.org)");

        assertThat(run.exit()).as(run.err()).isZero();
        String log = Files.readString(out.resolve("crawl.log"));
        assertThat(log).containsOnlyOnce("WARN").containsOnlyOnce("fetch.user-agent names the placeholder contact"
                + " you@example.org, which every server sees with each request");
        assertThat(site.requestLog()).allSatisfy(request -> assertThat(request.getHeader("User-Agent"))
                .isEqualTo("SieveCrawler/0.1 (contact: you@example.org)"));
    }

    @Test
    void resumeOfAFolderWithoutACheckpointExitsWithCodeTwo() {
        CommandRun run = CommandRun.execute("crawl", "--resume", dir.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo("crawl: --resume " + dir + ": " + dir + " holds no crawl checkpoint"
                + " (no " + dir.resolve("checkpoint/manifest.properties") + "); there is nothing to resume");
        assertThat(site.requestLog()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"CTRL_C, 130", "SIGTERM, 143"})
    void aStopRequestStopsTheCrawlGracefullyWithItsSignalsExitCode(StopSignal.Request request, int exit)
            throws Exception {
        List<String> links = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            links.add("/slow/" + i);
            site.respond("/slow/" + i, aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                    .withBody(linkPage("Slow " + i)).withFixedDelay(200));
        }
        site.page("/", linkPage("Home", links.toArray(String[]::new)));
        Path out = dir.resolve("out");
        CrawlProfile profile = CommandRun.localProfile(out).with(SEEDS, List.of(site.url("/")));
        profile = profile.with(FETCH_THREADS, 1);
        ManualStop stop = new ManualStop();
        CrawlerCommand root = new CrawlerCommand(CommandRun.profiles(Map.of("site.yaml", profile)), stop);
        ExecutorService command = Executors.newSingleThreadExecutor();
        try {
            Future<CommandRun> run = command.submit(() -> CommandRun.execute(root, "crawl", "--profile", "site.yaml"));
            assertThat(stop.registered.await(30, TimeUnit.SECONDS)).isTrue();
            awaitRequest("/slow/0");

            Thread signal = new Thread(() -> stop.action.accept(request), "test-stop");
            signal.start();
            CommandRun result = run.get(60, TimeUnit.SECONDS);
            signal.join(60_000);

            assertThat(result.exit()).as("the JVM's own status for the signal, which a SIGTERM's exit races")
                    .isEqualTo(exit);
            assertThat(result.err()).contains("stopping: no new URLs are taken", "(" + request.atOnce() + ")",
                    "resume with: crawler crawl --resume " + out);
            assertThat(result.out()).contains("crawl stopped:");
            assertThat(signal.isAlive()).isFalse();
            assertThat(Files.readString(out.resolve("summary.json"))).contains("\"endReason\" : \"stopped\"");
            assertThat(urls(out).size()).isBetween(1, 40);
        } finally {
            command.shutdownNow();
        }
    }

    /** Waits (bounded) until the site has received a request for {@code path}. */
    private void awaitRequest(String path) throws InterruptedException {
        for (int i = 0; i < 3000 && site.requests(path) == 0; i++) {
            Thread.sleep(10);
        }
        assertThat(site.requests(path)).as("requests for " + path).isPositive();
    }

    /** A Ctrl-C the test presses. */
    private static final class ManualStop implements StopSignal {
        final CountDownLatch registered = new CountDownLatch(1);
        volatile Consumer<Request> action;

        @Override
        public Registration onStop(Consumer<Request> onStop) {
            action = onStop;
            registered.countDown();
            return () -> { };
        }
    }

    /** The profile.yaml of the current checkpoint of the crawl in {@code out}. */
    private static String checkpointProfile(Path out) throws IOException {
        Properties manifest = new Properties();
        try (Reader reader = Files.newBufferedReader(new CheckpointStore(out).manifest(), StandardCharsets.ISO_8859_1)) {
            manifest.load(reader);
        }
        return Files.readString(out.resolve("checkpoint").resolve(manifest.getProperty("folder"))
                .resolve("profile.yaml"));
    }

    /** The url of every line of pages.jsonl, in order. */
    static List<String> urls(Path out) throws IOException {
        List<String> urls = new ArrayList<>();
        for (String line : Files.readAllLines(out.resolve("pages.jsonl"), StandardCharsets.UTF_8)) {
            try (JsonParser json = new JsonFactory().createParser(line)) {
                json.nextToken();
                while (json.nextToken() == JsonToken.FIELD_NAME) {
                    String field = json.currentName();
                    json.nextToken();
                    if (field.equals("url")) {
                        urls.add(json.getText());
                    }
                }
            }
        }
        return urls;
    }
}
