package org.sievecrawler.link;

import org.sievecrawler.fixtures.TsvTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_EXCLUDE;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_HOSTS;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_INCLUDE;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_MAX_DEPTH;

import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.sievecrawler.link.LinkDecision.Accept;
import org.sievecrawler.link.LinkDecision.Reject;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ScopeConfig;

class LinkScopeTest {
    private static final List<String> SEED = List.of("https://example.org/");

    private final UrlNormalizer normalizer = new UrlNormalizer();

    @Test
    void refusesPrivateAddressesInEveryForm() throws IOException {
        LinkScope scope = new LinkScope(ScopeConfig.defaults(), SEED, false);
        List<String[]> rows = read("/link/private-addresses.tsv", 3);
        assertThat(rows).hasSizeGreaterThan(30);
        for (String[] row : rows) {
            String url = ((Accept) normalizer.normalize(row[0])).url();
            assertThat(label(scope.decide(url, 1))).as("%s (%s) normalized to %s", row[0], row[2], url)
                    .isEqualTo(row[1]);
            // The guard does not rely on the normalizer having rewritten the host.
            assertThat(label(scope.decide(row[0], 1))).as("%s (%s) as given", row[0], row[2]).isEqualTo(row[1]);
        }
    }

    @Test
    void allowsEveryPrivateAddressWhenTheProfileSaysSo() throws IOException {
        LinkScope scope = new LinkScope(CrawlProfile.defaults().with(SCOPE_HOSTS, List.of("*.localhost", "localhost",
                "127.0.0.1", "10.0.0.1", "[::1]", "169.254.169.254")).scope(), SEED, true);
        for (String url : List.of("http://localhost/", "http://api.localhost/", "http://127.0.0.1:6379/",
                "http://10.0.0.1/", "http://[::1]/", "http://169.254.169.254/latest/meta-data/")) {
            assertThat(scope.decide(url, 1)).as(url).isEqualTo(new Accept(url));
        }
    }

    @Test
    void matchesHostPatterns() throws IOException {
        List<String[]> rows = read("/link/host-patterns.tsv", 4);
        assertThat(rows).hasSizeGreaterThan(20);
        for (String[] row : rows) {
            String pattern = UrlNormalizerTest.unescape(row[0]);
            LinkScope scope = new LinkScope(CrawlProfile.defaults().with(SCOPE_HOSTS, List.of(pattern)).scope(),
                    List.of("https://seed.example/"), false);
            assertThat(label(scope.decide(row[1], 1))).as("pattern %s, url %s (%s)", row[0], row[1], row[3])
                    .isEqualTo(row[2]);
        }
    }

    @Test
    void keepsACrawlOfAPrivateSeedOnThatHostAndPort() {
        LinkScope scope = new LinkScope(ScopeConfig.defaults(), List.of("http://127.0.0.1:8080/"), false);
        assertThat(scope.decide("http://127.0.0.1:8080/", 0)).isEqualTo(new Accept("http://127.0.0.1:8080/"));
        assertThat(scope.decide("http://127.0.0.1:8080/a/b?c", 3)).isEqualTo(new Accept("http://127.0.0.1:8080/a/b?c"));
        assertThat(scope.decide("http://127.0.0.1:6379/", 1)).isEqualTo(new Reject(RejectReason.PRIVATE_ADDRESS,
                "host \"127.0.0.1\" is in 127.0.0.0/8 loopback and 127.0.0.1:6379 is not a seed's host and port"));
        assertThat(scope.decide("http://100.100.100.200/", 1)).isEqualTo(new Reject(RejectReason.PRIVATE_ADDRESS,
                "host \"100.100.100.200\" is in 100.64.0.0/10 shared address space and 100.100.100.200:80 is not a"
                        + " seed's host and port"));
        assertThat(label(scope.decide("http://127.0.0.1/", 1))).isEqualTo("private-address");
        assertThat(label(scope.decide("http://localhost:8080/", 1))).isEqualTo("private-address");
        assertThat(label(scope.decide("http://10.0.0.1:8080/", 1))).isEqualTo("private-address");
        assertThat(label(scope.decide("http://example.org/", 1))).isEqualTo("out-of-scope-host");
    }

    @Test
    void allowsOnlyTheSeedsOwnPrivateOriginsNextToPublicSeeds() {
        LinkScope scope = new LinkScope(CrawlProfile.defaults()
                .with(SCOPE_HOSTS, List.of("same-as-seeds", "*.example.org")).scope(),
                List.of("https://example.org/", "http://[::1]:9000/"), false);
        assertThat(label(scope.decide("https://docs.example.org/", 1))).isEqualTo("accept");
        assertThat(label(scope.decide("http://[::1]:9000/x", 1))).isEqualTo("accept");
        assertThat(label(scope.decide("http://[::1]:9001/x", 1))).isEqualTo("private-address");
        assertThat(label(scope.decide("http://127.0.0.1:9000/x", 1))).isEqualTo("private-address");
    }

    @Test
    void treatsAPrivateSeedWithoutAPortAsItsDefaultPort() {
        LinkScope scope = new LinkScope(ScopeConfig.defaults(), List.of("https://LOCALHOST/"), false);
        assertThat(label(scope.decide("https://localhost/a", 1))).isEqualTo("accept");
        assertThat(label(scope.decide("http://localhost/a", 1))).isEqualTo("private-address");
        assertThat(label(scope.decide("https://localhost:8443/a", 1))).isEqualTo("private-address");
    }

    @Test
    void refusesUrlsMatchingAnExcludePattern() {
        LinkScope scope = new LinkScope(CrawlProfile.defaults()
                .with(SCOPE_EXCLUDE, List.of(Pattern.compile("/private/"), Pattern.compile("\\.pdf$"))).scope(), SEED,
                false);
        assertThat(scope.decide("https://example.org/a/private/b", 1))
                .isEqualTo(new Reject(RejectReason.EXCLUDED, "URL matches scope.exclude pattern \"/private/\""));
        assertThat(label(scope.decide("https://example.org/doc.pdf", 1))).isEqualTo("excluded");
        assertThat(label(scope.decide("https://example.org/doc.pdf?x=1", 1))).isEqualTo("accept");
    }

    @Test
    void refusesUrlsMatchingNoIncludePatternWhenThereAreSome() {
        LinkScope scope = new LinkScope(CrawlProfile.defaults()
                .with(SCOPE_INCLUDE, List.of(Pattern.compile("/docs/"), Pattern.compile("^https://example\\.org/$")))
                .with(SCOPE_EXCLUDE, List.of(Pattern.compile("/docs/old/"))).scope(), SEED, false);
        assertThat(label(scope.decide("https://example.org/", 0))).isEqualTo("accept");
        assertThat(label(scope.decide("https://example.org/en/docs/intro", 1))).isEqualTo("accept");
        assertThat(scope.decide("https://example.org/blog/", 1)).isEqualTo(
                new Reject(RejectReason.NOT_INCLUDED, "URL matches none of the 2 scope.include patterns"));
        assertThat(label(scope.decide("https://example.org/docs/old/x", 1))).as("exclude wins").isEqualTo("excluded");
    }

    @Test
    void refusesLinksDeeperThanMaxDepth() {
        LinkScope scope = new LinkScope(CrawlProfile.defaults().with(SCOPE_MAX_DEPTH, 2).scope(), SEED, false);
        assertThat(label(scope.decide("https://example.org/", 0))).isEqualTo("accept");
        assertThat(label(scope.decide("https://example.org/a", 2))).isEqualTo("accept");
        assertThat(scope.decide("https://example.org/a/b", 3))
                .isEqualTo(new Reject(RejectReason.TOO_DEEP, "depth 3 is more than scope.max-depth 2"));
    }

    @Test
    void followsSeedsOnlyWhenMaxDepthIsZero() {
        LinkScope scope = new LinkScope(CrawlProfile.defaults().with(SCOPE_MAX_DEPTH, 0).scope(), SEED, false);
        assertThat(label(scope.decide("https://example.org/", 0))).isEqualTo("accept");
        assertThat(label(scope.decide("https://example.org/a", 1))).isEqualTo("too-deep");
    }

    @Test
    void hasNoDepthLimitAtMinusOne() {
        LinkScope scope = new LinkScope(ScopeConfig.defaults(), SEED, false);
        assertThat(label(scope.decide("https://example.org/a", 1_000_000))).isEqualTo("accept");
    }

    @Test
    void reportsTheFirstFailedRuleInDocumentedOrder() {
        LinkScope scope = new LinkScope(CrawlProfile.defaults().with(SCOPE_INCLUDE, List.of(Pattern.compile("/docs/")))
                .with(SCOPE_EXCLUDE, List.of(Pattern.compile("secret"))).with(SCOPE_MAX_DEPTH, 1).scope(), SEED, false);
        assertThat(label(scope.decide("http://10.0.0.1/secret", 5))).isEqualTo("private-address");
        assertThat(label(scope.decide("https://other.org/secret", 5))).isEqualTo("out-of-scope-host");
        assertThat(label(scope.decide("https://example.org/secret", 5))).isEqualTo("excluded");
        assertThat(label(scope.decide("https://example.org/blog", 5))).isEqualTo("not-included");
        assertThat(label(scope.decide("https://example.org/docs/", 5))).isEqualTo("too-deep");
        assertThat(label(scope.decide("https://example.org/docs/", 1))).isEqualTo("accept");
    }

    @Test
    void followsAnyHostWhileTheOtherRulesStillApply() {
        LinkScope scope = new LinkScope(CrawlProfile.defaults().with(SCOPE_HOSTS, List.of("any"))
                .with(SCOPE_EXCLUDE, List.of(Pattern.compile("secret"))).with(SCOPE_MAX_DEPTH, 1).scope(), SEED, false);
        assertThat(label(scope.decide("https://unrelated.example.net/", 1))).isEqualTo("accept");
        assertThat(label(scope.decide("http://10.0.0.1/", 1))).isEqualTo("private-address");
        assertThat(label(scope.decide("https://unrelated.example.net/secret", 1))).isEqualTo("excluded");
        assertThat(label(scope.decide("https://unrelated.example.net/", 2))).isEqualTo("too-deep");
    }

    @Test
    void normalizesSeedsBeforeTakingTheirHosts() {
        LinkScope scope = new LinkScope(ScopeConfig.defaults(), List.of("  HTTP://WWW.Example.ORG.:80/#x "), false);
        assertThat(label(scope.decide("https://www.example.org/", 1))).isEqualTo("accept");
    }

    @Test
    void refusesUrlsThatAreNotNormalized() {
        LinkScope scope = new LinkScope(ScopeConfig.defaults(), SEED, false);
        assertThat(label(scope.decide("ftp://example.org/", 1))).isEqualTo("malformed");
        assertThat(label(scope.decide("/relative", 1))).isEqualTo("malformed");
        assertThat(label(scope.decide("https://user@example.org/", 1))).isEqualTo("malformed");
        assertThat(label(scope.decide("https://[::1/", 1))).isEqualTo("malformed");
        assertThat(label(scope.decide("https://example.org/" + "a".repeat(3000), 1))).isEqualTo("too-long");
    }

    @Test
    void rejectsInvalidConfigurationNamingTheValue() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new LinkScope(ScopeConfig.defaults(), List.of("mailto:a@b.c"), false))
                .withMessageContaining("seed \"mailto:a@b.c\"").withMessageContaining("unsupported-scheme");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new LinkScope(ScopeConfig.defaults(), List.of(), false))
                .withMessageContaining("same-as-seeds\" needs at least one seed");
        for (String pattern : List.of("https://example.org", "example.org:8080", "example.org/path", "*", "a b.org",
                "*.", "")) {
            assertThatIllegalArgumentException().as(pattern)
                    .isThrownBy(() -> new LinkScope(CrawlProfile.defaults()
                    .with(SCOPE_HOSTS, List.of(pattern)).scope(), SEED, false))
                    .withMessageContaining("scope.hosts[0] must be a host name such as example.org")
                    .withMessageContaining("was \"" + pattern + "\""); // refused by the record, by the key's rule
        }
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new LinkScope(ScopeConfig.defaults(), SEED, false).decide("https://example.org/", -1))
                .withMessage("depth must be >= 0 (seeds are 0), was -1");
    }

    private static String label(LinkDecision decision) {
        return decision instanceof Reject reject ? reject.reason().label() : "accept";
    }

    private static List<String[]> read(String resource, int columns) throws IOException {
        return TsvTable.cells(resource, columns);
    }
}
