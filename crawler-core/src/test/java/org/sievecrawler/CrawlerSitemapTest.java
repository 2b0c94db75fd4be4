package org.sievecrawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_MAX_SITEMAPS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_MAX_SITEMAP_BYTES;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_SITEMAPS;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;

/**
 * Sitemaps end to end: a site whose pages no page links to, found through robots.txt's {@code Sitemap:} line, a
 * sitemap index and its sitemaps (one gzipped), or through {@code /sitemap.xml} with {@code scope.sitemaps}; the
 * {@code sitemap} records, the summary's counts, and the limits on size and count.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrawlerSitemapTest {
    @TempDir
    Path out;
    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSite() {
        site.close();
    }

    private CrawlProfile profile() {
        return CrawlProfile.defaults().with(SEEDS, List.of(site.url("/")))
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4)
                .with(FETCH_THREADS, 4).with(FETCH_CONNECT_TIMEOUT, Duration.ofMillis(500))
                .with(FETCH_READ_TIMEOUT, Duration.ofMillis(800)).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(5))
                .with(OUTPUT_DIR, out);
    }

    private CrawlOutput crawl(CrawlProfile profile) throws CrawlException {
        Crawler.newCrawl(profile).run();
        return CrawlOutput.read(out);
    }

    @Test
    void aSiteLinkedOnlyFromItsSitemapsIsCrawledCompletely() throws Exception {
        site.robots("User-agent: *\nDisallow: /private/\n\nSitemap: " + site.url("/sitemap_index.xml") + "\n")
                .page("/", FixtureSite.linkPage("home"))
                .respond("/sitemap_index.xml", xml(index("/sitemaps/pages.xml", "/sitemaps/more.xml.gz")))
                .respond("/sitemaps/pages.xml", xml(urlset(site.url("/a"), site.url("/b"), site.url("/private/x"))))
                .respond("/sitemaps/more.xml.gz", aResponse().withStatus(200)
                        .withHeader("Content-Type", "application/x-gzip")
                        .withBody(gzip(urlset(site.url("/c"), site.url("/d"), site.url("/a"),
                                "http://elsewhere.example/e"))));
        for (String page : List.of("/a", "/b", "/c", "/d")) {
            site.page(page, FixtureSite.linkPage(page, "/"));
        }

        CrawlOutput output = crawl(profile());

        for (String page : List.of("/", "/a", "/b", "/c", "/d")) {
            assertThat(output.record(site.url(page)).get("outcome").asText()).as(page).isEqualTo("fetched");
            assertThat(site.requests(page)).as(page).isEqualTo(1);
        }
        JsonNode b = output.record(site.url("/b"));
        assertThat(b.get("depth").asInt()).isEqualTo(1);
        assertThat(b.get("referrer").asText()).isEqualTo(site.url("/sitemaps/pages.xml"));
        assertThat(output.record(site.url("/a")).get("referrer").asText()).as("listed in both: the first read's")
                .isIn(site.url("/sitemaps/pages.xml"), site.url("/sitemaps/more.xml.gz"));
        assertThat(output.record(site.url("/d")).get("referrer").asText())
                .isEqualTo(site.url("/sitemaps/more.xml.gz"));
        assertThat(output.record(site.url("/private/x")).get("outcome").asText()).isEqualTo("robots-disallowed");

        JsonNode index = output.record(site.url("/sitemap_index.xml"));
        assertThat(index.get("outcome").asText()).isEqualTo("sitemap");
        assertThat(index.get("outlinks").asInt()).isEqualTo(2);
        assertThat(index.get("depth").asInt()).isZero();
        assertThat(index.get("referrer").asText()).isEqualTo(site.url("/robots.txt"));
        assertThat(output.record(site.url("/sitemaps/pages.xml")).get("outlinks").asInt()).isEqualTo(3);
        JsonNode gzipped = output.record(site.url("/sitemaps/more.xml.gz"));
        assertThat(gzipped.get("outcome").asText()).isEqualTo("sitemap");
        assertThat(gzipped.get("outlinks").asInt()).isEqualTo(4);
        assertThat(gzipped.get("referrer").asText()).isEqualTo(site.url("/sitemap_index.xml"));

        assertThat(output.summaryCount("sitemaps", "fetched")).isEqualTo(3);
        assertThat(output.summaryCount("sitemaps", "urlsFound")).isEqualTo(2 + 3 + 4);
        assertThat(output.summaryCount("outcomes", "sitemap")).isEqualTo(3);
        assertThat(output.summaryCount("linkRejections", "out-of-scope-host")).isEqualTo(1);
        assertThat(site.requests("/sitemap.xml")).as("scope.sitemaps is off by default").isZero();
        assertThat(output.records).as("/, 4 pages, 3 sitemaps, /private/x").hasSize(1 + 4 + 3 + 1);
    }

    @Test
    void withScopeSitemapsTheSeedHostsSitemapXmlIsReadAsATextSitemap() throws Exception {
        site.page("/", FixtureSite.linkPage("home"))
                .respond("/sitemap.xml", aResponse().withStatus(200).withHeader("Content-Type", "text/plain")
                        .withBody(site.url("/t1") + "\n" + site.url("/t2") + "\n"));
        site.page("/t1", FixtureSite.linkPage("t1")).page("/t2", FixtureSite.linkPage("t2"));

        CrawlOutput output = crawl(profile().with(SCOPE_SITEMAPS, true));

        JsonNode sitemap = output.record(site.url("/sitemap.xml"));
        assertThat(sitemap.get("outcome").asText()).isEqualTo("sitemap");
        assertThat(sitemap.get("outlinks").asInt()).isEqualTo(2);
        assertThat(sitemap.get("referrer").isNull()).isTrue();
        assertThat(output.record(site.url("/t1")).get("outcome").asText()).isEqualTo("fetched");
        assertThat(output.record(site.url("/t2")).get("depth").asInt()).isEqualTo(1);
        assertThat(output.summaryCount("sitemaps", "fetched")).isEqualTo(1);
        assertThat(output.summaryCount("sitemaps", "urlsFound")).isEqualTo(2);
    }

    @Test
    void aSiteWithoutSitemapXmlIsNotCountedAsAnHttpErrorButABrokenLinkIs() throws Exception {
        site.page("/", "<html><body><a href=\"/gone\">gone</a> <a href=\"/t1\">t1</a></body></html>")
                .page("/t1", FixtureSite.linkPage("t1"));

        CrawlOutput output = crawl(profile().with(SCOPE_SITEMAPS, true));

        JsonNode probe = output.record(site.url("/sitemap.xml"));
        assertThat(probe.get("outcome").asText()).isEqualTo("no-sitemap");
        assertThat(probe.get("status").asInt()).isEqualTo(404);
        assertThat(output.record(site.url("/gone")).get("outcome").asText()).isEqualTo("http-error");
        assertThat(output.summary.get("pages").asLong()).isEqualTo(2);
        assertThat(output.summary.get("httpErrors").asLong()).as("/gone, not the probe").isEqualTo(1);
        assertThat(output.summaryCount("httpErrorsByStatus", "404")).isEqualTo(1);
        assertThat(output.summary.get("responses").asLong()).as("/, /t1, /gone").isEqualTo(3);
        assertThat(output.summaryCount("statuses", "404")).isEqualTo(1);
        assertThat(output.summaryCount("sitemaps", "missing")).isEqualTo(1);
        assertThat(output.summaryCount("outcomes", "no-sitemap")).isEqualTo(1);
    }

    @Test
    void aHostGetsAtMostItsSitemapsAndASitemapOverTheSizeLimitIsAnError() throws Exception {
        String big = urlset(java.util.stream.IntStream.range(0, 12).mapToObj(i -> site.url("/big" + i))
                .toArray(String[]::new));
        assertThat(big.length()).isGreaterThan(600);
        assertThat(index("/s1.xml", "/s2.xml", "/s3.xml").length()).isLessThan(600);
        site.robots("Sitemap: " + site.url("/index.xml") + "\n")
                .page("/", FixtureSite.linkPage("home"))
                .respond("/index.xml", xml(index("/s1.xml", "/s2.xml", "/s3.xml")))
                .respond("/s1.xml", xml(big)).respond("/s2.xml", xml(big)).respond("/s3.xml", xml(big));

        CrawlOutput output = crawl(profile().with(SCOPE_MAX_SITEMAPS_PER_HOST, 3).with(SCOPE_MAX_SITEMAP_BYTES, 600L));

        assertThat(output.record(site.url("/index.xml")).get("outcome").asText()).isEqualTo("sitemap");
        List<JsonNode> children = List.of(output.record(site.url("/s1.xml")), output.record(site.url("/s2.xml")),
                output.record(site.url("/s3.xml")));
        assertThat(children).filteredOn(r -> r.get("outcome").asText().equals("error")).hasSize(2)
                .allMatch(r -> r.get("error").asText().endsWith("has more than scope.max-sitemap-bytes 600 bytes"));
        assertThat(children).filteredOn(r -> r.get("outcome").asText().equals("trap")).hasSize(1)
                .allMatch(r -> r.get("error").asText().equals("host " + site.origin()
                        + " reached scope.max-sitemaps-per-host 3"));
        assertThat(output.urls()).noneMatch(url -> url.contains("/big"));
        assertThat(output.summaryCount("sitemaps", "fetched")).isEqualTo(1);
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder xml(String body) {
        return aResponse().withStatus(200).withHeader("Content-Type", "application/xml").withBody(body);
    }

    private String index(String... paths) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for (String path : paths) {
            xml.append("  <sitemap><loc>").append(site.url(path)).append("</loc></sitemap>\n");
        }
        return xml.append("</sitemapindex>\n").toString();
    }

    private static String urlset(String... urls) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for (String url : urls) {
            xml.append("  <url><loc>").append(url).append("</loc></url>\n");
        }
        return xml.append("</urlset>\n").toString();
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            gzip.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }
}
