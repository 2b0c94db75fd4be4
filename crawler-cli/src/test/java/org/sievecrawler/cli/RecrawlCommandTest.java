package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.fixtures.FixtureSite.linkPage;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;

/** {@code crawl --since DIR} as a user types it: the earlier crawl's profile and seeds, and the mistakes refused. */
class RecrawlCommandTest {
    @TempDir
    Path dir;
    private FixtureSite site;

    @BeforeEach
    void startSite() {
        site = FixtureSite.start();
        site.page("/", linkPage("home", "/a", "/b")).page("/a", linkPage("A")).page("/b", linkPage("B"));
    }

    @AfterEach
    void stopSite() {
        site.close();
        LogSetup.configure(0, LogSetup.Format.text);
    }

    private Path firstCrawl() {
        Path first = dir.resolve("first");
        CrawlProfile profile = CommandRun.localProfile(first).with(SEEDS, List.of(site.url("/")));
        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", profile)), "crawl",
                "--profile", "site.yaml");
        assertThat(run.exit()).as(run.err()).isZero();
        return first;
    }

    @Test
    void recrawlsTheEarlierCrawlsUrlsWithItsProfileIntoAFolderOfItsOwn() throws IOException {
        Path first = firstCrawl();
        Path second = dir.resolve("second");

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--since", first.toString(),
                "--out", second.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(Files.readAllLines(second.resolve("pages.jsonl"))).hasSize(3);
        assertThat(Files.readString(second.resolve("crawl.log"))).contains("recrawl of " + first);
        assertThat(Files.readAllLines(first.resolve("pages.jsonl"))).hasSize(3); // the earlier crawl untouched
    }

    @Test
    void aRecrawlIntoTheEarlierCrawlsOwnFolderIsRefused() {
        Path first = firstCrawl();

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--since", first.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("crawl: --since " + first + ": a recrawl writes to a folder of its own, and"
                + " output.dir names the earlier crawl's; give another with --out DIR").doesNotContain("Exception");
    }

    @Test
    void aFolderThatHoldsNoCrawlIsRefusedByName() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("empty"));

        CommandRun missing = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--since",
                dir.resolve("nowhere").toString(), "--out", dir.resolve("x").toString());
        CommandRun notACrawl = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--since",
                empty.toString(), "--out", dir.resolve("x").toString());

        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("crawl: --since " + dir.resolve("nowhere") + ": no such folder");
        assertThat(notACrawl.exit()).isEqualTo(2);
        assertThat(notACrawl.err()).contains("crawl: --since " + empty + ": holds no pages.jsonl, so it is not the"
                + " folder of a crawl");
        assertThat(dir.resolve("x")).doesNotExist();
    }

    @Test
    void sinceCannotBeGivenWithResume() {
        Path first = firstCrawl();

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of()), "crawl", "--resume", first.toString(),
                "--since", first.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--since cannot be given with --resume");
    }
}
