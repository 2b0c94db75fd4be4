package org.sievecrawler.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SeedHostsTest {

    @Test
    void knowsTheSeedsHostsOnAnyPortAndTheirOriginsOnTheirPortsOnly() {
        SeedHosts seeds = SeedHosts.of(List.of("http://127.0.0.1:8080/a", "https://docs.example/", "http://[::1]:81/"));

        assertThat(seeds.hasHost("127.0.0.1")).isTrue();
        assertThat(seeds.hasHost("docs.example")).isTrue();
        assertThat(seeds.hasHost("::1")).isTrue();
        assertThat(seeds.hasHost("127.0.0.2")).isFalse();
        assertThat(seeds.hasHost("other.example")).isFalse();
        assertThat(seeds.hasOrigin("127.0.0.1", 8080)).isTrue();
        assertThat(seeds.hasOrigin("127.0.0.1", 6379)).isFalse();
        assertThat(seeds.hasOrigin("docs.example", 443)).isTrue();
        assertThat(seeds.hasOrigin("docs.example", 80)).isFalse();
        assertThat(seeds.hasOrigin("::1", 81)).isTrue();
        assertThat(seeds.hostCount()).isEqualTo(3);
    }

    @Test
    void aNormalizedUrlGivesTheHostAndOriginHttpUrlGives() {
        UrlNormalizer normalizer = new UrlNormalizer();
        List<String> seeds = List.of("http://127.0.0.1:8080/a", "https://Docs.Example/x?y", "http://[::1]:81/",
                "https://[2001:DB8::1]/", "http://example.org", "http://example.org:80/p", "https://a.example:8443?q",
                "http://xn--bcher-kva.example/", "http://b\u00fccher.example/", "http://127.0.0.1/#top");
        for (String seed : seeds) {
            String normalized = ((LinkDecision.Accept) normalizer.normalize(seed)).url();
            HttpUrl url = HttpUrl.get(normalized);
            SeedHosts fast = SeedHosts.filling();
            fast.addNormalized(normalized);
            fast.complete();

            assertThat(fast.hasHost(url.host())).as(seed).isTrue();
            assertThat(fast.hasOrigin(url.host(), url.port())).as(seed).isTrue();
            assertThat(fast.hostCount()).as(seed).isEqualTo(1);
        }
    }

    @Test
    void addingASeedItHoldsOnceCompleteDoesNothingAndAnotherIsRefused() {
        SeedHosts seeds = SeedHosts.of(List.of("http://a.example:8080/"));

        seeds.add("a.example", 8080);
        assertThat(seeds.hostCount()).isEqualTo(1);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> seeds.add("b.example", 80))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("b.example:80 comes too late");
    }

    @Test
    void aBareHostGivenAsAnOriginAllowsEveryPort() {
        SeedHosts seeds = SeedHosts.ofOrigins(Set.of("127.0.0.1", "seed.example:8080"));

        assertThat(seeds.hasOrigin("127.0.0.1", 1234)).isTrue();
        assertThat(seeds.anyPort("127.0.0.1")).isTrue();
        assertThat(seeds.hasOrigin("seed.example", 8080)).isTrue();
        assertThat(seeds.hasOrigin("seed.example", 8081)).isFalse();
    }

    @Test
    void aHostNotFoundWhileFillingWaitsForTheRestOfTheSeeds() throws Exception {
        SeedHosts seeds = SeedHosts.filling();
        seeds.add(HttpUrl.get("http://first.example/"));
        assertThat(seeds.hasHost("first.example")).as("found: answered at once").isTrue();

        CompletableFuture<Boolean> late = CompletableFuture.supplyAsync(() -> seeds.hasHost("late.example"));
        CompletableFuture<Boolean> never = CompletableFuture.supplyAsync(() -> seeds.hasHost("never.example"));
        seeds.add(HttpUrl.get("http://late.example:8080/"));
        seeds.complete();

        assertThat(late.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(never.get(10, TimeUnit.SECONDS)).isFalse();
        assertThat(seeds.hasOrigin("late.example", 8080)).isTrue();
    }

    /**
     * 10^6 random seed hosts: every one found (no false negative), and none of 10^6 other hosts or origins taken
     * for a seed's (the bound: 10^6 * 10^6 * 2^-63, 1e-7 expected; an IPv4 literal is exact). Fixed seed.
     */
    @Test
    void aMillionSeedHostsAreAllFoundAndOtherHostsAreNot() {
        Random random = new Random(27);
        SeedHosts seeds = SeedHosts.filling();
        String[] hosts = new String[1_000_000];
        for (int i = 0; i < hosts.length; i++) {
            hosts[i] = i % 2 == 0 ? "h" + Long.toHexString(random.nextLong()) + ".example"
                    : "127." + (i >> 16 & 0xFF) + "." + (i >> 8 & 0xFF) + "." + (i & 0xFF);
            seeds.add(hosts[i], 8080);
        }
        seeds.complete();

        int missing = 0;
        for (String host : hosts) {
            missing += seeds.hasHost(host) && seeds.hasOrigin(host, 8080) ? 0 : 1;
        }
        assertThat(missing).as("seed hosts not found").isZero();
        int wrong = 0;
        for (int i = 0; i < 1_000_000; i++) {
            String other = i % 2 == 0 ? "o" + Long.toHexString(random.nextLong()) + ".example"
                    : "10." + (i >> 16 & 0xFF) + "." + (i >> 8 & 0xFF) + "." + (i & 0xFF);
            wrong += seeds.hasHost(other) || seeds.hasOrigin(hosts[i], 8081) ? 1 : 0;
        }
        assertThat(wrong).isZero();
        assertThat(seeds.bytes()).as("64 bytes per seed host at most").isLessThanOrEqualTo(64L * hosts.length);
    }
}
