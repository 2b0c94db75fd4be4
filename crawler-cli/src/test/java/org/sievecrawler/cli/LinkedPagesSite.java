package org.sievecrawler.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sievecrawler.fixtures.FixtureSite;

/**
 * A site of {@code pages} HTML pages on 127.0.0.1 served by WireMock: {@code /} links to {@code /p/0}, and page i
 * to pages i + 1, 7i + 3 and 31i + 11 (mod pages) and back to {@code /}, so a crawl from {@code /} reaches them all.
 * Pages wait a fixed delay before they answer, which sets how fast a crawl can go. WireMock's request journal
 * counts every request it received, answered or not: the server's side of "fetched twice".
 *
 * <p>Thread-safe as WireMock is: the crawl in a child JVM requests pages while the test reads the counts.
 */
final class LinkedPagesSite implements AutoCloseable {
    private final int pages;
    private final WireMockServer server;

    /** Renders page i from its path, so one stub serves all of them (thousands of stubs would slow WireMock). */
    private static final class Pages implements ResponseDefinitionTransformerV2 {
        private final int pages;

        Pages(int pages) {
            this.pages = pages;
        }

        @Override
        public ResponseDefinition transform(ServeEvent serveEvent) {
            String path = serveEvent.getRequest().getUrl();
            int i = Integer.parseInt(path.substring("/p/".length()));
            return ResponseDefinitionBuilder.like(serveEvent.getResponseDefinition())
                    .withBody(FixtureSite.linkPage("p" + i, "/p/" + (i + 1) % pages, "/p/" + (i * 7 + 3) % pages,
                            "/p/" + (i * 31 + 11) % pages, "/"))
                    .build();
        }

        @Override
        public boolean applyGlobally() {
            return false;
        }

        @Override
        public String getName() {
            return "pages";
        }
    }

    private LinkedPagesSite(int pages, WireMockServer server) {
        this.pages = pages;
        this.server = server;
    }

    /** Starts the site on a free port of 127.0.0.1, each page answering after {@code delayMillis}. */
    static LinkedPagesSite start(int pages, int delayMillis) {
        WireMockServer server = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1")
                .dynamicPort().containerThreads(32).jettyAcceptors(2).extensions(new Pages(pages)));
        server.start();
        server.stubFor(get(urlPathEqualTo("/")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "text/html; charset=utf-8")
                .withBody(FixtureSite.linkPage("home", "/p/0"))));
        LinkedPagesSite site = new LinkedPagesSite(pages, server);
        site.delayPages(delayMillis);
        return site;
    }

    /** From now on pages answer after {@code delayMillis} (0 for at once). */
    void delayPages(int delayMillis) {
        ResponseDefinitionBuilder page = aResponse().withStatus(200)
                .withHeader("Content-Type", "text/html; charset=utf-8").withTransformers("pages");
        server.stubFor(get(urlPathMatching("/p/[0-9]+"))
                .willReturn(delayMillis > 0 ? page.withFixedDelay(delayMillis) : page));
    }

    /** From now on /robots.txt answers 200 with {@code body} (it is missing before). */
    void robots(String body) {
        server.stubFor(get(urlPathEqualTo("/robots.txt")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "text/plain; charset=utf-8").withBody(body)));
    }

    /** The absolute URL of {@code path} on this site. */
    String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    /** Every path of the site: {@code /} and the pages. */
    List<String> allPaths() {
        List<String> paths = new ArrayList<>(List.of("/"));
        for (int i = 0; i < pages; i++) {
            paths.add("/p/" + i);
        }
        return paths;
    }

    /** Every URL of the site, as a crawl records it. */
    List<String> allUrls() {
        return allPaths().stream().map(this::url).toList();
    }

    /** The requests received so far, of any path. */
    int requestCount() {
        return server.countRequestsMatching(anyRequestedFor(anyUrl()).build()).getCount();
    }

    /** The requests received so far, by path. */
    Map<String, Integer> requestsPerPath() {
        Map<String, Integer> counts = new HashMap<>();
        for (LoggedRequest request : server.findAll(anyRequestedFor(anyUrl()))) {
            counts.merge(request.getUrl(), 1, Integer::sum);
        }
        return counts;
    }

    @Override
    public void close() {
        server.stop();
    }
}
