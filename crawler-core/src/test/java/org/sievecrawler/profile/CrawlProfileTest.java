package org.sievecrawler.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_HOSTS;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_IGNORE_PARAMS;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_FALSE_POSITIVE_RATE;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.TsvTable;

class CrawlProfileTest {
    @TempDir
    Path dir;

    static Stream<Object[]> settings() throws IOException {
        return TsvTable.named("/resume/changes.tsv", 2);
    }

    /**
     * The settings of the payload table {@code /resume/changes.tsv} (src-test-fixtures), one for every key: {@code
     * with} gives the profile {@code --set KEY=VALUE} gives, and changes that key alone.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("settings")
    void setsEveryKeyAsSetDoesAndNoOtherKey(String setting, TsvTable.Row row) throws IOException {
        String caCertificate = new HeldCertificate.Builder().certificateAuthority(0).build().certificatePem();
        String given = setting.replace("{ca.pem}", Files.writeString(dir.resolve("ca.pem"), caCertificate).toString());
        CrawlProfile defaults = CrawlProfile.defaults();
        CrawlProfile viaSet = new ProfileOverrides().set(given).applyTo(defaults);
        ProfileKey<?> key = ProfileKeys.named(setting.substring(0, setting.indexOf('=')));

        CrawlProfile viaWith = withValueIn(defaults, key, viaSet);

        assertThat(viaWith).as(row.where()).isEqualTo(viaSet);
        assertThat(ProfileChange.between(defaults, viaWith)).as(row.where()).extracting(ProfileChange::key)
                .containsExactly(key);
    }

    @Test
    void refusesAValueAgainstItsKeysRuleNamingTheKeyTheRuleAndTheValue() {
        CrawlProfile defaults = CrawlProfile.defaults();

        assertThatIllegalArgumentException().isThrownBy(() -> defaults.with(FETCH_THREADS, 0))
                .withMessage("fetch.threads must be in [1, 1024], was 0");
        assertThatIllegalArgumentException().isThrownBy(() -> new ProfileOverrides().set("fetch.threads=0")
                .applyTo(defaults)).as("the same rule, in the words of --set")
                .withMessage("--set fetch.threads=0: must be in [1, 1024]");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> defaults.with(SCOPE_HOSTS, List.of("example.org", "https://example.org")))
                .withMessage("scope.hosts[1] must be a host name such as example.org or *.example.org,"
                        + " same-as-seeds or any (no scheme, port or path), was \"https://example.org\"");
        assertThatIllegalArgumentException().isThrownBy(() -> defaults.with(SEEDS, null))
                .withMessage("seeds must be given, was null");
    }

    @Test
    void refusesAnIgnoredParamThatIsNoParameterNameOrAGlobNotAtTheEnd() {
        CrawlProfile defaults = CrawlProfile.defaults();
        String rule = " must be a query parameter name such as sid, or a prefix ending in * such as utm_* (no =, &, #,"
                + " whitespace, or * but at the end), was ";
        for (String bad : List.of("a=b", "a&b", "x#y", "two words", "tab\tname", "", "*", "*_id", "utm_**", "u*m")) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> defaults.with(SCOPE_IGNORE_PARAMS, List.of("sid", bad))).as(bad)
                    .withMessageStartingWith("scope.ignore-params[1]" + rule);
        }
        assertThat(defaults.with(SCOPE_IGNORE_PARAMS, List.of("sid", "utm_*", "PHPSESSID", "caf\u00e9", "a%5Fb"))
                .scope().ignoreParams()).containsExactly("sid", "utm_*", "PHPSESSID", "caf\u00e9", "a%5Fb");
        assertThat(new ProfileOverrides().set("scope.ignore-params=[]").applyTo(defaults).scope().ignoreParams())
                .isEmpty();
    }

    @Test
    void refusesARuleSpanningKeysNamingItsGroupAsSetDoes() {
        CrawlProfile finer = CrawlProfile.defaults().with(SIEVE_FALSE_POSITIVE_RATE, 0.001);

        Throwable viaWith = catchThrowable(() -> finer.with(SIEVE_EXPECTED_URLS, 100_000_000_000L));
        Throwable viaSet = catchThrowable(() -> new ProfileOverrides().set("sieve.expected-urls=100000000000")
                .applyTo(finer));

        assertThat(viaWith).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("sieve: ")
                .hasMessageContaining("expected-urls").hasMessage(viaSet.getMessage());
    }

    private static <T> CrawlProfile withValueIn(CrawlProfile profile, ProfileKey<T> key, CrawlProfile source) {
        return profile.with(key, key.valueIn(source));
    }
}
