package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
        CrawlProfile profile = CommandRun.localProfile(dir.resolve("out")).withSeeds(List.of("https://example.org/"));
        profile = profile.withPoliteness(profile.politeness().withDelay(Duration.ofMillis(250)));

        CommandRun run = CommandRun.execute(CommandRun.withProfiles(Map.of("site.yaml", profile)),
                "profile", "check", "site.yaml");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out().strip()).isEqualTo(ProfileYaml.write(profile).strip());
        assertThat(run.err()).isEmpty();
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
