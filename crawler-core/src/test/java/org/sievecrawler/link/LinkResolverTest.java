package org.sievecrawler.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_EXCLUDE;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_MAX_DEPTH;

import java.util.List;
import java.util.regex.Pattern;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.sievecrawler.profile.CrawlProfile;

class LinkResolverTest {
    private static final List<String> BASES = List.of(
            "http://127.0.0.1:8080/", "http://127.0.0.1:8080/docs/guide/index.html",
            "http://127.0.0.1:8080/docs/guide/other.html?x=1", "http://127.0.0.1:8080/docs/api/page.html#top",
            "https://127.0.0.1:8080/docs/guide/index.html", "http://example.org/a/b/c",
            "http://elsewhere.net/off/host.html", "http://10.0.0.1/private/", "http://127.0.0.1:9/other/port");
    private static final List<String> HREFS = List.of(
            "", "#frag", "?q=2", "page.html", "./page.html", "../up.html", "sub/deep.html#x", "/abs.html",
            "/docs/guide/../x.html", "//127.0.0.1:8080/proto.html", "//example.org/other", "http://127.0.0.1:8080/full",
            "https://example.org/a", "HTTP://Example.ORG/Case", "mailto:a@example.org", "javascript:void(0)",
            "  spaced.html ", "a b.html", "%7Euser/", "/private/x", "http://169.254.169.254/", "\\back\\slash",
            "http://127.0.0.1:9/other-port", "/excluded/page", "?", "..", "/", "excluded/x", "../excluded/y",
            "/" + "x".repeat(2100), "y".repeat(2100), "http://127.0.0.1:8080/docs/x.html", "http://127.0.0.1:8080//two",
            "http://127.0.0.1:8080/a/../b", "http://127.0.0.1:8080/a b", "http://127.0.0.1:8080/#f",
            "http://127.0.0.1:8080", "http://127.0.0.1:80801/x", "https://example.org/s1/x.html", "http://example.org/",
            "http://elsewhere.net/off/y", "http://10.0.0.1/private/z", "http://127.0.0.1:8080/excluded/e",
            "http://127.0.0.1:8080/" + "x".repeat(2100));
    private final UrlNormalizer normalizer = new UrlNormalizer();
    private final LinkScope scope = new LinkScope(
            CrawlProfile.defaults().with(SCOPE_EXCLUDE, List.of(Pattern.compile("/excluded/"))).with(SCOPE_MAX_DEPTH, 3)
                    .scope(),
            List.of("http://127.0.0.1:8080/", "http://example.org/"), false);

    @Test
    void decidesExactlyLikeNormalizingThenScopingEveryTimeAcrossPages() {
        LinkResolver resolver = new LinkResolver(normalizer, scope);
        for (int round = 0; round < 3; round++) { // the later rounds answer from the memo
            for (String base : BASES) {
                HttpUrl baseUrl = HttpUrl.get(base);
                // as a page fetched from its own (normalized) URL, from another URL (a <base href>), or unknown
                String fetchedFrom = switch (round) {
                    case 0 -> normalizer.normalize(base) instanceof LinkDecision.Accept a ? a.url() : null;
                    case 1 -> "http://127.0.0.1:8080/other/page.html";
                    default -> null;
                };
                LinkResolver.PageLinks page = fetchedFrom == null ? resolver.forPage(baseUrl)
                        : resolver.forPage(baseUrl, fetchedFrom);
                for (String href : HREFS) {
                    for (int depth : new int[] {1, 4}) {
                        assertThat(page.decide(href, depth))
                                .as("%s on %s at depth %d", href, base, depth)
                                .isEqualTo(direct(baseUrl, href, depth));
                    }
                }
            }
        }
    }

    @Test
    void decidesARedirectTargetAsTheSameLinkOnTheRedirectingPage() {
        LinkResolver resolver = new LinkResolver(normalizer, scope);
        for (String base : BASES) {
            if (!(normalizer.normalize(base) instanceof LinkDecision.Accept from)) {
                continue; // a redirect comes from a URL the crawl fetched: a normalized one
            }
            LinkResolver.PageLinks page = resolver.forPage(HttpUrl.get(from.url()), from.url());
            for (String location : HREFS) {
                for (int depth : new int[] {1, 4}) {
                    RedirectTarget target = resolver.decideRedirect(from.url(), location, depth);
                    LinkDecision asLink = page.decide(location, depth);
                    LinkDecision resolved = normalizer.resolve(HttpUrl.get(from.url()), location);
                    if (resolved instanceof LinkDecision.Reject reject) {
                        assertThat(target).as("%s from %s", location, from.url())
                                .isEqualTo(new RedirectTarget.Unusable(reject.detail()));
                    } else {
                        String to = ((LinkDecision.Accept) resolved).url();
                        assertThat(target).as("%s from %s at depth %d", location, from.url(), depth)
                                .isEqualTo(new RedirectTarget.Resolved(to, asLink));
                    }
                }
            }
        }
    }

    @Test
    void findsNoTargetInARedirectWithoutLocation() {
        assertThat(new LinkResolver(normalizer, scope).decideRedirect("http://127.0.0.1:8080/", null, 0))
                .isEqualTo(new RedirectTarget.Unusable("no Location header"));
    }

    @Test
    void takesTheParseFreePathOnlyWhereItGivesTheSameDecisionOnRandomLinks() {
        String[] parts = {"a", "b.html", "..", ".", "../", "./", "/", "//", "%7e", "%41", "x y", "\u00e9", "?q=1", "#f",
            "s3", "p5.html", ".hidden", "a..b", "~user", "-_", "Z9", "", "...", "excluded/", "http://127.0.0.1:8080",
            "http://127.0.0.1:8080/", "https://example.org/", "http://example.org", "http://elsewhere.net/",
            "http://10.0.0.1/", "http://127.0.0.1:9/"};
        List<String> bases = List.of("http://127.0.0.1:8080/", "http://127.0.0.1:8080/docs/", "http://127.0.0.1:8080/a/b/c.html",
                "https://example.org/s1/p2.html", "http://example.org/a/b/", "http://127.0.0.1:8080/x?q=1",
                "http://elsewhere.net/off/", "http://10.0.0.1/a/", "http://127.0.0.1:9/b/c");
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        LinkResolver resolver = new LinkResolver(normalizer, scope);
        for (int trial = 0; trial < 20_000; trial++) {
            StringBuilder href = new StringBuilder(random.nextInt(4) == 0 ? "/" : "");
            for (int i = random.nextInt(1, 5); i > 0; i--) {
                href.append(parts[random.nextInt(parts.length)]);
                if (random.nextBoolean()) {
                    href.append('/');
                }
            }
            HttpUrl base = HttpUrl.get(bases.get(random.nextInt(bases.size())));
            assertThat(resolver.forPage(base).decide(href.toString(), 1))
                    .as("%s on %s", href, base)
                    .isEqualTo(direct(base, href.toString(), 1));
        }
    }

    @Test
    void staysRightWhenManyMoreLinksThanSlotsCollide() {
        LinkResolver resolver = new LinkResolver(normalizer, scope);
        for (int round = 0; round < 2; round++) {
            LinkResolver.PageLinks page = resolver.forPage(HttpUrl.get("http://127.0.0.1:8080/dir/"));
            for (int i = 0; i < 3 * LinkResolver.SLOTS; i++) {
                assertThat(page.decide("/p" + i, 1)).isEqualTo(new LinkDecision.Accept("http://127.0.0.1:8080/p" + i));
                assertThat(page.decide("p" + i, 1))
                        .isEqualTo(new LinkDecision.Accept("http://127.0.0.1:8080/dir/p" + i));
            }
        }
    }

    private LinkDecision direct(HttpUrl base, String href, int depth) {
        LinkDecision decision = normalizer.resolve(base, href);
        return decision instanceof LinkDecision.Accept accept ? scope.decide(accept.url(), depth) : decision;
    }
}
