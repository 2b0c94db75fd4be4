package org.sievecrawler.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.sievecrawler.profile.ProfileKeys.CHECKPOINT_INTERVAL;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_DURATION;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGE_BYTES;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC_MAX_SIZE;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC_METADATA;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC_PREFIX;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_FALSE_POSITIVE_RATE;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_MAX_IN_MEMORY_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_ON_OVERFLOW;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.sieve.OverflowPolicy;

class ProfileLoaderTest {
    /** Test profiles are loaded by their path from the module folder, so messages show short relative paths. */
    static final Path RESOURCES = Path.of("src/test/resources/profile");
    static final Path CONFIG = Path.of("../config");

    static Stream<Path> shippedProfiles() throws IOException {
        try (Stream<Path> files = Files.list(CONFIG)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    static Stream<String> mistakes() throws IOException {
        try (Stream<Path> files = Files.list(RESOURCES.resolve("mistakes"))) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".yaml"))
                    .map(n -> n.substring(0, n.length() - ".yaml".length())).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("shippedProfiles")
    void loadsEveryShippedProfile(Path file) throws ProfileException {
        assertThat(ProfileLoader.load(file).name()).isNotBlank();
    }

    @ParameterizedTest
    @MethodSource("shippedProfiles")
    void noShippedProfileSeedsAThirdPartySite(Path file) throws ProfileException {
        assertThat(ProfileLoader.load(file).seeds()).allSatisfy(seed ->
                assertThat(seed).matches("https?://(localhost|127\\.0\\.0\\.1)([:/].*)?"));
    }

    @Test
    void defaultYamlHoldsTheRecordDefaults() throws ProfileException {
        assertThat(ProfileLoader.load(CONFIG.resolve("default.yaml"))).isEqualTo(CrawlProfile.defaults());
    }

    @Test
    void loadsTheDefaultsFromTheClasspathCopyOfDefaultYaml() {
        assertThat(ProfileLoader.loadDefaults()).isEqualTo(CrawlProfile.defaults());
    }

    @ParameterizedTest
    @MethodSource("mistakes")
    void reportsEachMistakeAtItsKeyWithItsValue(String name) throws IOException {
        ProfileException thrown = catchThrowableOfType(ProfileException.class,
                () -> ProfileLoader.load(RESOURCES.resolve("mistakes/" + name + ".yaml")));

        assertThat(thrown).as(name + " must be refused").isNotNull();
        String expected = Files.readString(RESOURCES.resolve("mistakes/" + name + ".expected"),
                StandardCharsets.UTF_8).strip();
        assertThat(shortPaths(thrown.getMessage())).isEqualTo(expected);
    }

    @Test
    void reportsSeveralMistakesTogetherInFileOrder() {
        ProfileException thrown = catchThrowableOfType(ProfileException.class,
                () -> ProfileLoader.load(RESOURCES.resolve("mistakes/several.yaml")));

        assertThat(thrown.problems()).extracting(ProfileProblem::keyPath)
                .containsExactly("fetch.threads", "fetch.user-agnet", "politeness.delay", "scope.exclude[0]");
        assertThat(thrown.problems()).extracting(ProfileProblem::line).containsExactly(3, 4, 6, 8);
    }

    @Test
    void reportsAMissingFileWithoutAStackTrace() {
        Path missing = RESOURCES.resolve("no-such-profile.yaml");

        assertThatThrownBy(() -> ProfileLoader.load(missing)).isInstanceOf(ProfileException.class)
                .hasMessage(missing + ":1:1: cannot read the profile: no such file");
    }

    @Test
    void fillsAbsentKeysWithDefaultsAndNamesTheProfileAfterItsFile() throws ProfileException {
        CrawlProfile profile = ProfileLoader.load(RESOURCES.resolve("partial.yaml"));
        CrawlProfile defaults = CrawlProfile.defaults();

        assertThat(profile.name()).isEqualTo("partial");
        assertThat(profile.fetch()).isEqualTo(defaults.with(FETCH_THREADS, 4).fetch());
        assertThat(profile.politeness()).isEqualTo(defaults.politeness());
        assertThat(profile.sieve()).isEqualTo(defaults.with(SIEVE_EXPECTED_URLS, 1_000_000_000L)
                .with(SIEVE_FALSE_POSITIVE_RATE, 1e-4).with(SIEVE_ON_OVERFLOW, OverflowPolicy.GROW)
                .with(SIEVE_MAX_IN_MEMORY_URLS, 5000).sieve());
        assertThat(profile.checkpoint()).isEqualTo(defaults.with(CHECKPOINT_INTERVAL, Duration.ZERO).checkpoint());
        assertThat(profile.limits()).isEqualTo(defaults.with(LIMITS_MAX_PAGES, 500L)
                .with(LIMITS_MAX_DURATION, Duration.ofMinutes(90)).with(LIMITS_MAX_PAGE_BYTES, 512L * 1024).limits());
        assertThat(profile.output()).isEqualTo(defaults.with(OUTPUT_WARC, true).with(OUTPUT_WARC_PREFIX, "site-a")
                .with(OUTPUT_WARC_MAX_SIZE, 100L * 1024 * 1024).with(OUTPUT_WARC_METADATA, true).output());
    }

    @Test
    void deepMergesTheParentNamedByExtendsRelativeToTheFile() throws ProfileException {
        CrawlProfile profile = ProfileLoader.load(RESOURCES.resolve("extends/sub/child.yaml"));

        assertThat(profile.name()).isEqualTo("child");
        assertThat(profile.seeds()).containsExactly("https://example.org/");
        assertThat(profile.fetch().threads()).isEqualTo(32);
        assertThat(profile.fetch().userAgent()).isEqualTo("Base/1.0");
        assertThat(profile.fetch().retries()).isEqualTo(CrawlProfile.defaults().fetch().retries());
        assertThat(profile.politeness().delay()).isEqualTo(Duration.ofMillis(250));
        assertThat(profile.scope().exclude()).extracting(p -> p.pattern()).containsExactly("/child/");
        assertThat(profile.scope().maxDepth()).isEqualTo(3);
    }

    @Test
    void namesAnUnnamedChildAfterItsFileNotAfterItsParent() throws ProfileException {
        CrawlProfile profile = ProfileLoader.load(RESOURCES.resolve("extends/sub/unnamed.yaml"));

        assertThat(profile.name()).isEqualTo("unnamed");
        assertThat(profile.fetch().threads()).isEqualTo(8);
        assertThat(profile.fetch().retries()).isEqualTo(4);
    }

    @Test
    void reportsAMistakeInTheParentAtItsOwnFileAndLine() {
        ProfileException thrown = catchThrowableOfType(ProfileException.class,
                () -> ProfileLoader.load(RESOURCES.resolve("extends/bad-child.yaml")));

        assertThat(shortPaths(thrown.getMessage())).isEqualTo(String.join("\n",
                "extends/bad-child.yaml:4:3: fetch.retries: must be >= 0 (-1)",
                "extends/bad-parent.yaml:3:3: politeness.max-connections-per-host: must be >= 1 (0)"));
    }

    @Test
    void refusesProfilesThatExtendEachOtherInACycle() {
        assertThatThrownBy(() -> ProfileLoader.load(RESOURCES.resolve("extends/cycle-a.yaml")))
                .isInstanceOf(ProfileException.class)
                .satisfies(e -> assertThat(shortPaths(e.getMessage())).isEqualTo("extends/cycle-b.yaml:1:1: extends:"
                        + " profiles extend each other in a cycle: cycle-a.yaml -> cycle-b.yaml -> cycle-a.yaml"
                        + " (cycle-a.yaml)"));
    }

    @Test
    void reportsAnUnreadableParentAtTheExtendsKey() {
        assertThatThrownBy(() -> ProfileLoader.load(RESOURCES.resolve("extends/missing-parent.yaml")))
                .isInstanceOf(ProfileException.class)
                .satisfies(e -> assertThat(shortPaths(e.getMessage())).isEqualTo("extends/missing-parent.yaml:2:1:"
                        + " extends: cannot read extends/gone.yaml: no such file (gone.yaml)"));
    }

    @Test
    void ownServerExtendsTheDefaultsAndDropsTheDelay() throws ProfileException {
        CrawlProfile profile = ProfileLoader.load(CONFIG.resolve("own-server.yaml"));

        assertThat(profile.politeness().delay()).isEqualTo(Duration.ZERO);
        assertThat(profile.politeness().maxConnectionsPerHost()).isGreaterThan(1);
        assertThat(profile.sieve()).isEqualTo(CrawlProfile.defaults().sieve());
    }

    /** Issue 25: config/site.yaml waits 1 s, not 2, and its placeholder contact is warned of. */
    @Test
    void siteWaitsOneSecondPerRequestAndItsPlaceholderContactIsWarnedOf() throws ProfileException {
        CrawlProfile profile = ProfileLoader.load(CONFIG.resolve("site.yaml"));

        assertThat(profile.politeness().delay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(profile.politeness().maxConnectionsPerHost()).isEqualTo(1);
        assertThat(profile.politeness().respectRobots()).isTrue();
        assertThat(profile.fetch().placeholderContact()).hasValueSatisfying(warning -> assertThat(warning)
                .startsWith("fetch.user-agent names the placeholder contact you@example.org"));
    }

    /** Issue 27: config/broad.yaml follows links to any host, politely, with a budget per host. */
    @Test
    void broadFollowsAnyHostPolitelyWithABudgetPerHost() throws ProfileException {
        CrawlProfile profile = ProfileLoader.load(CONFIG.resolve("broad.yaml"));

        assertThat(profile.scope().hosts()).containsExactly(ScopeConfig.ANY);
        assertThat(profile.scope().sitemaps()).isFalse();
        assertThat(profile.fetch().allowPrivateAddresses()).isFalse();
        assertThat(profile.politeness().respectRobots()).isTrue();
        assertThat(profile.politeness().delay()).isPositive();
        assertThat(profile.politeness().maxConnectionsPerHost()).isEqualTo(1);
        assertThat(profile.limits().maxPagesPerHost()).isBetween(1L, 10_000L);
        assertThat(profile.sieve().expectedUrls()).isGreaterThanOrEqualTo(100_000_000L);
    }

    static String shortPaths(String message) {
        return message.replace(RESOURCES + "/", "");
    }
}
