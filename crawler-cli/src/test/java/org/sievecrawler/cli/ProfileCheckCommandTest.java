package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileYaml;

class ProfileCheckCommandTest {
    @TempDir
    Path dir;

    @Test
    void printsTheEffectiveProfile() {
        CrawlProfile profile = CommandRun.localProfile(dir.resolve("out")).with(SEEDS, List.of("https://example.org/"));
        profile = profile.with(POLITENESS_DELAY, Duration.ofMillis(250));

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", profile)),
                "profile", "check", "site.yaml");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out().strip()).isEqualTo(ProfileYaml.write(profile).strip());
        assertThat(run.err()).isEmpty();
    }

    /** Issue 25: config/site.yaml ships the placeholder contact you@example.org; checking it says so. */
    @Test
    void warnsOfThePlaceholderContactOfTheShippedSiteProfile() {
        CommandRun run = CommandRun.execute("profile", "check", "../config/site.yaml");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("contact: you@example.org");
        assertThat(run.err().strip()).isEqualTo("../config/site.yaml: warning: fetch.user-agent names the placeholder"
                + " contact you@example.org, which every server sees with each request: site operators use it to"
                + " reach you, and a domain reserved for examples reaches no one; set your own contact in the profile"
                + " or on the command line (--user-agent, --set fetch.headers=...)");
    }

    @Test
    void aProfileWithMistakesExitsTwoNamingTheFileWithoutAStackTrace() throws IOException {
        Path file = Files.writeString(dir.resolve("bad.yaml"), "name: bad\nfetch:\n  thraeds: 0\n");

        CommandRun run = CommandRun.execute("profile", "check", file.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith(file + ":").doesNotContain("Exception", "\tat ");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void profileWithoutASubcommandIsAUsageError() {
        CommandRun run = CommandRun.execute("profile");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Usage: crawler profile", "check");
    }
}
