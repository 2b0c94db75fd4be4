package org.sievecrawler.audit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.headRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_ALLOW_PRIVATE_ADDRESSES;
import static org.sievecrawler.profile.ProfileKeys.FETCH_RETRIES;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_LINKS;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_CHECK_EXTERNAL;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_SITEMAPS;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.Crawler;
import org.sievecrawler.profile.CrawlProfile;

/**
 * The audit's contract on a site of real pages (src-test-fixtures' audit-site: Debian's python-django-doc with
 * broken internal and external links, redirect chains, a redirect into a 404, a loop, an exact and a near duplicate,
 * duplicate and missing titles and a sitemap-only orphan put in, made by make-audit-site.py): crawled as
 * config/site.yaml crawls (sitemaps, the link graph, external links checked), audit.json lists exactly what was put
 * in, no more, no fewer, as the fixture's expected.json says.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AuditSiteContractTest {
    private static final String FIXTURE = "/audit-site/";
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path out;
    private final WireMockServer site = server();
    /** Another host: localhost, not the seed's 127.0.0.1. */
    private final WireMockServer external = server();

    @AfterEach
    void stop() {
        site.stop();
        external.stop();
    }

    private static WireMockServer server() {
        WireMockServer server = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1")
                .dynamicPort().containerThreads(16).jettyAcceptors(1));
        server.start();
        server.stubFor(any(anyUrl()).atPriority(10).willReturn(aResponse().withStatus(404)));
        return server;
    }

    private String siteOrigin() {
        return "http://127.0.0.1:" + site.port();
    }

    private String externalOrigin() {
        return "http://localhost:" + external.port();
    }

    /** {@code text} with the fixture's SITE and EXTERNAL put in. */
    private String origins(String text) {
        return text.replace("SITE", siteOrigin()).replace("EXTERNAL", externalOrigin());
    }

    private static String fixture(String name) {
        try (InputStream in = AuditSiteContractTest.class.getResourceAsStream(FIXTURE + name)) {
            if (in == null) {
                throw new IllegalStateException("src-test-fixtures has no " + FIXTURE + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void serve() {
        for (String page : List.of("index.html", "no-title.html", "orphan.html", "copy-of-page-10.html",
                "page-11-v2.html")) {
            servePage(page);
        }
        for (int i = 1; i <= 12; i++) {
            servePage(String.format("page-%02d.html", i));
        }
        site.stubFor(any(urlEqualTo("/")).willReturn(aResponse().withStatus(301).withHeader("Location",
                "/index.html")));
        site.stubFor(any(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "text/plain").withBody(origins(fixture("robots.txt")))));
        site.stubFor(any(urlEqualTo("/sitemap.xml")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/xml").withBody(origins(fixture("sitemap.xml")))));
        for (String row : fixture("site.tsv").split("\n")) {
            if (row.isBlank() || row.startsWith("#")) {
                continue;
            }
            String[] cells = row.split("\t", -1);
            ResponseDefinitionBuilder response = aResponse().withStatus(Integer.parseInt(cells[2]));
            if (!cells[3].isEmpty()) {
                response = response.withHeader("Location", cells[3]);
            } else {
                response = response.withHeader("Content-Type", "text/html").withBody("<title>" + cells[1]
                        + "</title>");
            }
            (cells[0].equals("SITE") ? site : external).stubFor(any(urlEqualTo(cells[1])).willReturn(response));
        }
    }

    private void servePage(String name) {
        site.stubFor(any(urlEqualTo("/" + name)).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "text/html; charset=utf-8").withBody(origins(fixture(name)))));
    }

    @Test
    void auditJsonListsExactlyWhatWasPutInTheSite() throws Exception {
        serve();
        CrawlProfile profile = CrawlProfile.defaults().with(SEEDS, List.of(siteOrigin() + "/index.html"))
                .with(SCOPE_SITEMAPS, true).with(OUTPUT_LINKS, true).with(SCOPE_CHECK_EXTERNAL, true)
                .with(FETCH_ALLOW_PRIVATE_ADDRESSES, true) // the external host is localhost
                .with(POLITENESS_DELAY, Duration.ZERO).with(FETCH_THREADS, 4).with(FETCH_RETRIES, 0)
                .with(OUTPUT_DIR, out);

        Crawler.newCrawl(profile).run();

        JsonNode audit = JSON.readTree(out.resolve(Audit.FILE).toFile());
        JsonNode expected = JSON.readTree(origins(fixture("expected.json")));
        assertThat(brokenLinks(audit.get("brokenLinks"))).as("brokenLinks")
                .isEqualTo(brokenLinks(expected.get("brokenLinks")));
        assertThat(redirects(audit.get("redirects"))).as("redirects")
                .isEqualTo(redirects(expected.get("redirects")));
        assertThat(groups(audit.get("duplicates"), "urls", "kind")).as("duplicates")
                .isEqualTo(groups(expected.get("duplicates"), "urls", "kind"));
        assertThat(groups(audit.get("titles").get("duplicates"), "urls", null)).as("duplicate titles")
                .isEqualTo(groups(expected.get("titles").get("duplicates"), "urls", null));
        assertThat(urls(audit.get("titles").get("missing"))).as("pages without a title")
                .isEqualTo(urls(expected.get("titles").get("missing")));
        assertThat(urls(audit.get("orphans"))).as("orphans").isEqualTo(urls(expected.get("orphans")));
        assertThat(external.findAll(headRequestedFor(urlEqualTo("/not-there"))))
                .as("each external link checked once, with HEAD").hasSize(1);
        assertThat(external.findAll(getRequestedFor(anyUrl()))).extracting(request -> request.getUrl())
                .as("its robots.txt read first, and no page with GET: HEAD was answered").containsExactly("/robots.txt");
    }

    /** Each broken link as "url status <- page "text" (kind)" lines, sorted. */
    private static List<String> brokenLinks(JsonNode list) {
        List<String> lines = new ArrayList<>();
        for (JsonNode broken : list) {
            TreeSet<String> from = new TreeSet<>();
            for (JsonNode link : broken.get("linkedFrom")) {
                from.add(link.get("page").asText() + " \"" + link.get("text").asText() + "\" ("
                        + link.get("kind").asText() + ")");
            }
            lines.add(broken.get("url").asText() + " " + broken.get("status").asInt() + " <- " + from);
        }
        lines.sort(null);
        return lines;
    }

    /** Each redirect chain as "from: url status, ... -> to (final status | loop)", sorted. */
    private static List<String> redirects(JsonNode list) {
        List<String> lines = new ArrayList<>();
        for (JsonNode chain : list) {
            StringBuilder line = new StringBuilder(chain.get("from").asText()).append(":");
            for (JsonNode hop : chain.get("chain")) {
                line.append(' ').append(hop.get("url").asText()).append(' ').append(hop.get("status").asInt());
            }
            line.append(" -> ").append(chain.get("to").asText());
            JsonNode last = chain.get("final");
            if (chain.path("loop").asBoolean()) {
                line.append(" (loop)");
            } else if (last != null && !last.isNull()) {
                line.append(" (").append(last.isObject() ? last.get("status").asInt() : last.asInt()).append(')');
            }
            lines.add(line.toString());
        }
        lines.sort(null);
        return lines;
    }

    /** Each group's URLs (of {@code field}, or the group itself when an array), sorted, with its kind. */
    private static List<String> groups(JsonNode list, String field, String kind) {
        List<String> lines = new ArrayList<>();
        for (JsonNode group : list) {
            JsonNode urls = group.isArray() ? group : group.get(field);
            lines.add((kind == null ? "" : group.get(kind).asText() + " ") + urls(urls));
        }
        lines.sort(null);
        return lines;
    }

    /** The URLs of a list of URLs or of objects with a url, sorted. */
    private static List<String> urls(JsonNode list) {
        return StreamSupport.stream(list.spliterator(), false)
                .map(item -> item.isObject() ? item.get("url").asText() : item.asText()).sorted().toList();
    }
}
