package org.sievecrawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_LINKS;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.audit.Audit;
import org.sievecrawler.audit.AuditSection;
import org.sievecrawler.audit.BrokenLinks;
import org.sievecrawler.audit.Orphans;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.graph.Edge;
import org.sievecrawler.graph.LinksFile;
import org.sievecrawler.profile.CrawlProfile;

/**
 * The link graph end to end: a site with broken links from several pages, a redirect into a 404, an image, a
 * stylesheet, a link out of scope and a page only its sitemap lists; links.tsv.zst holds every edge, audit.json's
 * brokenLinks and orphans list exactly what was put there, also when the on-disk sort spills.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrawlerLinkGraphTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path out;
    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSite() {
        site.close();
    }

    @BeforeEach
    void buildSite() {
        site.robots("User-agent: *\n\nSitemap: " + site.url("/sitemap.xml") + "\n")
                .page("/", "<html><head><title>home</title><link rel=stylesheet href=/style.css></head><body>"
                        + "<a href=/a>Page  A</a> <a href=/b>B</a> <a href=/missing>Gone <b>page</b></a>"
                        + " <a href='http://elsewhere.invalid/x' rel=nofollow>away</a>"
                        + " <img src=/img/broken.png alt=Logo> <a href='mailto:x@example.org'>mail</a></body></html>")
                .page("/a", FixtureSite.linkPage("a", "/", "/gone")
                        .replace("</body>", "<a href=/missing>missing again</a></body>"))
                .page("/b", FixtureSite.linkPage("b", "/", "/old"))
                .page("/orphan", FixtureSite.linkPage("orphan", "/"))
                .respond("/gone", aResponse().withStatus(410))
                .redirect("/old", 301, "/missing2")
                .respond("/style.css", aResponse().withStatus(200).withHeader("Content-Type", "text/css")
                        .withBody("body{}"))
                .respond("/sitemap.xml", aResponse().withStatus(200).withHeader("Content-Type", "application/xml")
                        .withBody("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
                                + "<url><loc>" + site.url("/a") + "</loc></url>\n"
                                + "<url><loc>" + site.url("/orphan") + "</loc></url>\n</urlset>\n"));
    }

    private CrawlProfile profile() {
        return CrawlProfile.defaults().with(SEEDS, List.of(site.url("/")))
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4)
                .with(FETCH_THREADS, 4).with(FETCH_CONNECT_TIMEOUT, Duration.ofMillis(500))
                .with(FETCH_READ_TIMEOUT, Duration.ofMillis(800)).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(5))
                .with(OUTPUT_DIR, out).with(OUTPUT_LINKS, true);
    }

    @Test
    void theGraphHoldsEveryLinkOfEveryKindWithItsTextAndScope() throws Exception {
        Crawler.newCrawl(profile()).run();

        List<Edge> edges = new ArrayList<>();
        assertThat(LinksFile.read(out, edges::add)).isZero();
        assertThat(edges.stream().filter(e -> e.from().equals(site.url("/"))))
                .extracting(Edge::to, Edge::kind, Edge::nofollow, Edge::inScope, Edge::text)
                .containsExactly(
                        tuple(site.url("/style.css"), Edge.Kind.STYLESHEET, false, true, ""),
                        tuple(site.url("/a"), Edge.Kind.A, false, true, "Page A"),
                        tuple(site.url("/b"), Edge.Kind.A, false, true, "B"),
                        tuple(site.url("/missing"), Edge.Kind.A, false, true, "Gone page"),
                        tuple("http://elsewhere.invalid/x", Edge.Kind.A, true, false, "away"),
                        tuple(site.url("/img/broken.png"), Edge.Kind.IMG, false, true, "Logo"));
        assertThat(edges).contains(
                new Edge(site.url("/old"), site.url("/missing2"), Edge.Kind.REDIRECT, false, true, ""),
                new Edge(site.url("/sitemap.xml"), site.url("/orphan"), Edge.Kind.SITEMAP, false, true, ""));
        assertThat(site.requests("/img/broken.png")).as("images are recorded, not crawled").isZero();
        assertThat(site.requests("/style.css")).as("stylesheets are recorded, not crawled").isZero();
    }

    @Test
    void auditListsEveryBrokenLinkWithAllItsLinkingPagesAndTheSitemapOnlyOrphan() throws Exception {
        Crawler.newCrawl(profile()).run();

        JsonNode audit = JSON.readTree(Audit.write(out, Audit.sections(out)).toFile());
        assertBroken(audit.get("brokenLinks"));
        assertOrphans(audit.get("orphans"));
        try (var files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("no sort runs or findings left behind").noneMatch(n -> n.startsWith(".") || n.startsWith("sort-"));
        }
    }

    @Test
    void aSortThatSpillsFindsTheSame() throws Exception {
        Crawler.newCrawl(profile()).run();

        List<AuditSection> tiny = List.of(BrokenLinks.of(out, 256), Orphans.of(out, 64));
        assertThat(tiny).extracting(AuditSection::findings).containsExactly(3L, 1L);
        JsonNode audit = JSON.readTree(Audit.write(out, tiny).toFile());
        assertBroken(audit.get("brokenLinks"));
        assertOrphans(audit.get("orphans"));
    }

    private void assertBroken(JsonNode broken) {
        assertThat(broken).as("/missing2 not: only the redirect from /old leads there, and /old is listed")
                .hasSize(3);
        assertThat(broken.get(0).get("url").asText()).isEqualTo(site.url("/gone"));
        assertThat(broken.get(0).get("status").asInt()).isEqualTo(410);
        assertThat(linkers(broken.get(0))).containsExactly(site.url("/a") + " a /gone");
        assertThat(broken.get(1).get("url").asText()).isEqualTo(site.url("/missing"));
        assertThat(broken.get(1).get("status").asInt()).isEqualTo(404);
        assertThat(linkers(broken.get(1))).containsExactly(site.url("/") + " a Gone page",
                site.url("/a") + " a missing again");
        assertThat(broken.get(2).get("url").asText()).as("a redirect into a 404").isEqualTo(site.url("/old"));
        assertThat(broken.get(2).get("status").asInt()).isEqualTo(404);
        assertThat(broken.get(2).get("error").asText()).isEqualTo("redirects to " + site.url("/missing2") + ": HTTP 404");
        assertThat(linkers(broken.get(2))).containsExactly(site.url("/b") + " a /old");
    }

    private void assertOrphans(JsonNode orphans) {
        assertThat(orphans).hasSize(1);
        assertThat(orphans.get(0).get("url").asText()).isEqualTo(site.url("/orphan"));
        assertThat(orphans.get(0).get("listedIn")).extracting(JsonNode::asText)
                .containsExactly(site.url("/sitemap.xml"));
    }

    private static List<String> linkers(JsonNode finding) {
        List<String> linkers = new ArrayList<>();
        finding.get("linkedFrom").forEach(l -> linkers.add(l.get("page").asText() + " " + l.get("kind").asText()
                + " " + l.get("text").asText()));
        return linkers;
    }
}
