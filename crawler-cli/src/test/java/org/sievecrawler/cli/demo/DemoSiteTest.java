package org.sievecrawler.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DemoSiteTest {
    private final HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private DemoSite site;

    @BeforeEach
    void start() throws Exception {
        site = DemoSite.start();
    }

    @AfterEach
    void stop() {
        site.close();
    }

    @Test
    void servesAHomePageOn127001LinkingEverySection() throws Exception {
        HttpResponse<String> home = get("/");

        assertThat(site.homeUrl()).matches("http://127\\.0\\.0\\.1:\\d+/");
        assertThat(home.statusCode()).isEqualTo(200);
        assertThat(home.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(home.body()).contains("<title>Demo documentation</title>", "href=\"/docs/getting-started/\"",
                "href=\"/docs/reference/\"");
    }

    @Test
    void documentationPagesLinkToTheirNeighbours() throws Exception {
        HttpResponse<String> page = get("/docs/sieve/02.html");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<title>Sieve, part 2</title>", "href=\"/docs/sieve/01.html\"",
                "href=\"/docs/sieve/03.html\"", "href=\"/docs/sieve/\"");
    }

    @Test
    void isTheSameOnEveryRequest() throws Exception {
        assertThat(get("/docs/scope/07.html").body()).isEqualTo(get("/docs/scope/07.html").body());
    }

    @Test
    void robotsTxtDisallowsPrivatePages() throws Exception {
        assertThat(get("/robots.txt").body()).isEqualTo("User-agent: *\nDisallow: /private/\n");
    }

    @Test
    void oldAddressesRedirectToTheNewOnes() throws Exception {
        HttpResponse<String> old = get("/old/profiles/04.html");

        assertThat(old.statusCode()).isEqualTo(301);
        assertThat(old.headers().firstValue("Location")).hasValue("/docs/profiles/04.html");
    }

    @Test
    void unknownAndOutOfRangePagesAreNotFound() throws Exception {
        assertThat(get("/docs/sieve/missing-5.html").statusCode()).isEqualTo(404);
        assertThat(get("/docs/sieve/21.html").statusCode()).isEqualTo(404);
        assertThat(get("/docs/no-such-section/").statusCode()).isEqualTo(404);
    }

    @Test
    void countsItsPages() {
        assertThat(DemoSite.pageCount()).isEqualTo(1 + 15 * 21);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(site.homeUrl()).resolve(path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
