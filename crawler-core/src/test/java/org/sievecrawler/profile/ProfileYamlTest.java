package org.sievecrawler.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_USER_AGENT;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_EXCLUDE;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_HOSTS;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_INCLUDE;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_MAX_DEPTH;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_MAX_PATH_SEGMENTS;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_MAX_REPEATED_SEGMENTS;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ProfileYamlTest {
    private static final Path DEFAULT_YAML = Path.of("../" + ProfileYaml.DEFAULT_YAML);

    @TempDir
    Path dir;

    static Stream<Path> shippedProfiles() throws IOException {
        return ProfileLoaderTest.shippedProfiles();
    }

    @ParameterizedTest
    @MethodSource("shippedProfiles")
    void writesAProfileThatLoadsBackEqual(Path file) throws Exception {
        CrawlProfile profile = ProfileLoader.load(file);

        assertThat(comparable(roundTrip(profile))).isEqualTo(comparable(profile));
    }

    @Test
    void writesEveryKeyOfTheDefaults() throws IOException {
        String yaml = ProfileYaml.write(CrawlProfile.defaults());

        assertThat(yaml).contains("  threads: 16\n", "  call-timeout: 1m\n", "  max-page-bytes: 10MB\n",
                "  on-overflow: warn\n", "  robots-retry: 30s\n", "  include: []\n", "  follow-nofollow: false\n",
                "  proxy: none\n", "  headers: []\n", "  trust-store: none\n");
        assertThat(keys(yaml)).containsExactlyElementsOf(keys(Files.readString(DEFAULT_YAML)));
    }

    /**
     * config/default.yaml is the table of keys written out, comments included. After a change to the table,
     * regenerate it: {@code mvn -q -pl crawler-core test -Dtest=ProfileYamlTest -Dregenerate-default-yaml}.
     */
    @Test
    void defaultYamlIsTheTableOfKeysWrittenOut() throws IOException {
        String table = ProfileYaml.documentedDefaults();
        if (System.getProperty("regenerate-default-yaml") != null) {
            Files.writeString(DEFAULT_YAML, table);
        }

        assertThat(Files.readString(DEFAULT_YAML)).as("config/default.yaml differs from the table of ProfileKeys;"
                + " regenerate it with: mvn -q -pl crawler-core test -Dtest=ProfileYamlTest -Dregenerate-default-yaml")
                .isEqualTo(table);
    }

    @Test
    void writesListsOfTheDefaultsInFlowFormAndTheirItemsPlainWhenThatReadsBackTheSame() {
        assertThat(ProfileYaml.documentedDefaults()).contains("  hosts: [same-as-seeds]\n",
                "  accept: [text/html, application/xhtml+xml]\n",
                "  user-agent: \"SieveCrawler/0.1 (+https://github.com/sievecrawler/sievecrawler)\"\n",
                "  # Fetcher threads, 1 to 1024; each holds a socket while it fetches,");
    }

    @Test
    void writesTheTrustStoreAsItsPathAndReadsItsCertificatesBackEqual() throws Exception {
        HeldCertificate ca = new HeldCertificate.Builder().certificateAuthority(0).commonName("Yaml test CA").build();
        Path pem = Files.writeString(dir.resolve("private ca.pem"), ca.certificatePem());
        CrawlProfile profile = new ProfileOverrides().set("fetch.trust-store=" + pem).applyTo(CrawlProfile.defaults());

        String yaml = ProfileYaml.write(profile);

        assertThat(profile.fetch().trustStore().certificates()).containsExactly(ca.certificate());
        assertThat(yaml).contains("  trust-store: \"" + pem + "\"\n");
        assertThat(roundTrip(profile)).isEqualTo(profile);
    }

    @Test
    void writesRatesWithoutExponents() throws Exception {
        String yaml = ProfileYaml.write(ProfileLoader.load(Path.of("../config/broad.yaml")));

        assertThat(yaml).contains("  false-positive-rate: 0.0001\n", "  expected-urls: 100000000\n",
                "  on-overflow: grow\n", "    - any\n");
    }

    @Test
    void quotesTextThatYamlWouldOtherwiseMisread() throws Exception {
        CrawlProfile odd = CrawlProfile.defaults()
                .with(FETCH_USER_AGENT, "yes \"quoted\": \\ #not-a-comment\t")
                .with(SCOPE_HOSTS, List.of("*.example.org", "same-as-seeds"))
                .with(SCOPE_INCLUDE, List.of(Pattern.compile("^https?://[^/]+/docs/\\d+$")))
                .with(SCOPE_EXCLUDE, List.of(Pattern.compile("[?&]q=")))
                .with(SCOPE_MAX_DEPTH, 4).with(SCOPE_MAX_PATH_SEGMENTS, 12).with(SCOPE_MAX_REPEATED_SEGMENTS, 2)
                .with(POLITENESS_DELAY, Duration.ofMillis(1250));

        CrawlProfile back = roundTrip(odd);

        assertThat(comparable(back)).isEqualTo(comparable(odd));
        assertThat(back.fetch().userAgent()).isEqualTo("yes \"quoted\": \\ #not-a-comment\t");
    }

    private CrawlProfile roundTrip(CrawlProfile profile) throws Exception {
        Path file = dir.resolve(profile.name() + ".yaml");
        Files.writeString(file, ProfileYaml.write(profile));
        return ProfileLoader.load(file);
    }

    /** The profile with its patterns as text, since {@link Pattern} has no equals. */
    private static List<Object> comparable(CrawlProfile profile) {
        ScopeConfig scope = profile.scope();
        return List.of(profile.name(), profile.seeds(), scope.hosts(), patterns(scope.include()),
                patterns(scope.exclude()), scope.maxDepth(), profile.limits(), profile.fetch(), profile.politeness(),
                profile.parse(), profile.sieve(), profile.output(), profile.progress());
    }

    private static List<String> patterns(List<Pattern> patterns) {
        return patterns.stream().map(Pattern::pattern).toList();
    }

    /** The keys of a YAML text as written in this house style: "group.key" for indented ones. */
    private static List<String> keys(String yaml) {
        String[] group = {""};
        return yaml.lines().filter(l -> l.matches("^ *[a-z-]+:.*")).map(l -> {
            String key = l.strip().substring(0, l.strip().indexOf(':'));
            if (!l.startsWith(" ")) {
                group[0] = key;
                return key;
            }
            return group[0] + "." + key;
        }).toList();
    }
}
