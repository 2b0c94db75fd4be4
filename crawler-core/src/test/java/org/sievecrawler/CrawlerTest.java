package org.sievecrawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sievecrawler.profile.ProfileKeys.FETCH_ALLOW_PRIVATE_ADDRESSES;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_MAX_REDIRECTS;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_RETRIES;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.FETCH_TRUST_STORE;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGE_BYTES;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_RESPECT_ROBOTS;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_ROBOTS_RETRY;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_HOSTS;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_MAX_DEPTH;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_FALSE_POSITIVE_RATE;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_MAX_IN_MEMORY_URLS;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.checkpoint.Checkpoint;
import org.sievecrawler.checkpoint.CheckpointStore;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.fixtures.SocketSite;
import org.sievecrawler.politeness.HostKey;
import org.sievecrawler.fetch.TlsSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.progress.CrawlSummary;
import org.sievecrawler.shell.Program;
import org.sievecrawler.trust.TrustStore;

/** End-to-end crawls of WireMock fixture sites on 127.0.0.1, asserting on pages.jsonl and summary.json. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrawlerTest {
    @TempDir
    Path out;
    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSite() {
        site.close();
    }

    private CrawlProfile profile(String... seeds) {
        return CrawlProfile.defaults().with(SEEDS, List.of(seeds))
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4)
                .with(POLITENESS_ROBOTS_RETRY, Duration.ofMillis(100))
                .with(FETCH_THREADS, 4).with(FETCH_CONNECT_TIMEOUT, Duration.ofMillis(500))
                .with(FETCH_READ_TIMEOUT, Duration.ofMillis(800)).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(5))
                .with(SIEVE_EXPECTED_URLS, 100_000L).with(SIEVE_FALSE_POSITIVE_RATE, 0.001)
                .with(OUTPUT_DIR, out);
    }

    private CrawlOutput crawl(CrawlProfile profile) throws CrawlException {
        return crawl(profile, out);
    }

    private static CrawlOutput crawl(CrawlProfile profile, Path folder) throws CrawlException {
        Crawler.newCrawl(profile).run();
        return CrawlOutput.read(folder);
    }

    @Test
    void fetchesEveryPageOfALinkCycleExactlyOnce() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/a", "/b", "/", "#top"))
                .page("/a", FixtureSite.linkPage("a", "/b", "/c", "/a#section", site.url("/")))
                .page("/b", FixtureSite.linkPage("b", "/c", "/a", "./"))
                .page("/c", FixtureSite.linkPage("c", "/", "/a", "/b", "c"));

        CrawlOutput output = crawl(profile(site.url("/")));

        assertThat(output.urls()).containsExactlyInAnyOrder(site.url("/"), site.url("/a"), site.url("/b"),
                site.url("/c"));
        for (String path : List.of("/", "/a", "/b", "/c")) {
            assertThat(site.requests(path)).as("requests of %s", path).isEqualTo(1);
            assertThat(output.record(site.url(path)).get("outcome").asText()).isEqualTo("fetched");
        }
        assertThat(output.record(site.url("/a")).get("title").asText()).isEqualTo("a");
        assertThat(output.record(site.url("/a")).get("depth").asInt()).isEqualTo(1);
        assertThat(output.record(site.url("/a")).get("referrer").asText()).isEqualTo(site.url("/"));
        assertThat(output.record(site.url("/")).get("outlinks").asInt()).isEqualTo(4);
        assertThat(output.summary.get("endReason").asText()).isEqualTo("finished");
        assertThat(output.summary.get("decided").asLong()).isEqualTo(4);
        assertThat(output.summaryCount("outcomes", "fetched")).isEqualTo(4);
        assertThat(output.summaryCount("statuses", "200")).isEqualTo(4);
    }

    @Test
    void fetchesEveryPageOnceWhenMostPendingUrlsSpillToDisk() throws Exception {
        String[] links = new String[60];
        for (int i = 0; i < links.length; i++) {
            links[i] = "/p" + i;
            site.page(links[i], FixtureSite.linkPage("p" + i, "/", "/p" + (i + 1) % links.length));
        }
        site.page("/", FixtureSite.linkPage("home", links));
        CrawlProfile profile = profile(site.url("/"));

        CrawlOutput output = crawl(profile.with(SIEVE_MAX_IN_MEMORY_URLS, 5));

        assertThat(output.urls()).hasSize(61);
        for (String link : links) {
            assertThat(site.requests(link)).as("requests of %s", link).isEqualTo(1);
        }
        assertThat(out.resolve("frontier")).as("a finished crawl's spill and journal are deleted").doesNotExist();
    }

    @Test
    void resolvesRelativeAbsoluteBaseAndFragmentLinks() throws Exception {
        site.page("/dir/index.html", FixtureSite.linkPage("index", "page1.html", "/abs.html", site.url("/full.html"),
                        "#fragment", "../up.html", "sub/deep.html#part", "  spaced.html  "))
                .page("/dir/page1.html", "<html><head><base href=\"/based/\"><title>p1</title></head>"
                        + "<body><a href=\"rel.html\">rel</a></body></html>");
        for (String path : List.of("/abs.html", "/full.html", "/up.html", "/dir/sub/deep.html", "/dir/spaced.html",
                "/based/rel.html")) {
            site.page(path, FixtureSite.linkPage(path));
        }

        CrawlOutput output = crawl(profile(site.url("/dir/index.html")));

        assertThat(output.outcomes()).containsOnlyKeys(site.url("/dir/index.html"), site.url("/dir/page1.html"),
                site.url("/abs.html"), site.url("/full.html"), site.url("/up.html"), site.url("/dir/sub/deep.html"),
                site.url("/dir/spaced.html"), site.url("/based/rel.html"));
        assertThat(output.outcomes().values()).containsOnly("fetched");
    }

    @Test
    void obeysRobotsDisallowAllowWildcardsAndCrawlDelay() throws Exception {
        site.robots("User-agent: *\nDisallow: /private/\nAllow: /private/open.html\nDisallow: /*.pdf$\n"
                        + "Crawl-delay: 0.3\n")
                .page("/", FixtureSite.linkPage("home", "/private/secret.html", "/private/open.html", "/doc.pdf",
                        "/doc.pdf.html", "/public.html"));
        for (String path : List.of("/private/secret.html", "/private/open.html", "/doc.pdf", "/doc.pdf.html",
                "/public.html")) {
            site.page(path, FixtureSite.linkPage(path));
        }

        CrawlOutput output = crawl(profile(site.url("/")));

        assertThat(output.record(site.url("/private/secret.html")).get("outcome").asText())
                .isEqualTo("robots-disallowed");
        assertThat(output.record(site.url("/doc.pdf")).get("outcome").asText()).isEqualTo("robots-disallowed");
        assertThat(output.record(site.url("/doc.pdf")).get("status").asInt()).isZero();
        assertThat(site.requests("/private/secret.html")).isZero();
        assertThat(site.requests("/doc.pdf")).isZero();
        assertThat(output.record(site.url("/private/open.html")).get("outcome").asText()).isEqualTo("fetched");
        assertThat(output.record(site.url("/doc.pdf.html")).get("outcome").asText()).isEqualTo("fetched");
        assertThat(site.requests("/robots.txt")).isEqualTo(1);
        assertThat(output.summaryCount("outcomes", "robots-disallowed")).isEqualTo(2);
        assertThat(output.summaryCount("robots", "fetches")).as("summary.json counts it").isEqualTo(1);
        assertThat(output.summaryCount("robots", "expiries")).isZero();
        // Crawl-delay 0.3 s: no two requests to the host start less than 300 ms apart (from robots.txt on).
        List<LoggedRequest> log = site.requestLog();
        assertThat(log.get(0).getUrl()).isEqualTo("/robots.txt");
        for (int i = 1; i < log.size(); i++) {
            long gap = log.get(i).getLoggedDate().getTime() - log.get(i - 1).getLoggedDate().getTime();
            assertThat(gap).as("gap before %s", log.get(i).getUrl()).isGreaterThanOrEqualTo(290);
        }
    }

    @Test
    void allowsEverythingWhenRobotsTxtIsMissing() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/a")).page("/a", FixtureSite.linkPage("a"));

        CrawlOutput output = crawl(profile(site.url("/")));

        assertThat(site.requests("/robots.txt")).isEqualTo(1);
        assertThat(output.outcomes().values()).containsOnly("fetched");
    }

    @Test
    void refusesAHostWhoseRobotsTxtKeepsAnswering503() throws Exception {
        site.respond("/robots.txt", aResponse().withStatus(503))
                .page("/", FixtureSite.linkPage("home"));

        CrawlOutput output = crawl(profile(site.url("/")));

        JsonNode home = output.record(site.url("/"));
        assertThat(home.get("outcome").asText()).isEqualTo("robots-disallowed");
        assertThat(home.get("error").asText()).contains("robots.txt answered 503");
        assertThat(site.requests("/robots.txt")).isEqualTo(3);
        assertThat(site.requests("/")).isZero();
    }

    @Test
    void refusesAHostWhoseRobotsTxtTimesOut() throws Exception {
        site.respond("/robots.txt", aResponse().withStatus(200).withBody("User-agent: *\nDisallow:\n")
                        .withFixedDelay(1_500))
                .page("/", FixtureSite.linkPage("home"));

        CrawlOutput output = crawl(profile(site.url("/")));

        JsonNode home = output.record(site.url("/"));
        assertThat(home.get("outcome").asText()).isEqualTo("robots-disallowed");
        assertThat(home.get("error").asText()).contains("robots.txt could not be fetched");
        assertThat(site.requests("/")).isZero();
    }

    /**
     * Issue 12's exploit: the seed's robots.txt redirects to another port of its private address. That hop is
     * refused as a link there would be (not a seed's host and port), nothing connects to the other port, and
     * robots.txt counts as unavailable: everything allowed (RFC 9309 2.3.1.2).
     */
    @Test
    void refusesARobotsRedirectToAnotherPortOfThePrivateSeedAndAllowsEverything() throws Exception {
        try (FixtureSite other = FixtureSite.start()) {
            other.robots("User-agent: *\nDisallow: /\n");
            site.respond("/robots.txt", aResponse().withStatus(301).withHeader("Location", other.url("/robots.txt")))
                    .page("/", FixtureSite.linkPage("home", "/a")).page("/a", FixtureSite.linkPage("a"));

            CrawlOutput output = crawl(profile(site.url("/")).with(OUTPUT_DIR, out).with(OUTPUT_WARC, true));

            assertThat(output.outcomes().values()).containsOnly("fetched");
            assertThat(output.urls()).containsExactlyInAnyOrder(site.url("/"), site.url("/a"));
            assertThat(other.server().getAllServeEvents()).as("requests to the other port").isEmpty();
        }
    }

    /**
     * Issue 24: the seed's robots.txt redirects to {@code http://0x7f.1:PORT/}, a name that does not resolve. The host
     * that redirected answered, so it is not unreachable: robots.txt is unavailable and its pages are crawled.
     */
    @Test
    void crawlsTheSeedHostWhenItsRobotsRedirectsToAnUnparsableLiteral() throws Exception {
        site.respond("/robots.txt", aResponse().withStatus(301).withHeader("Location",
                        "http://0x7f.1:" + site.port() + "/"))
                .page("/", FixtureSite.linkPage("home", "/a")).page("/a", FixtureSite.linkPage("a"));

        CrawlOutput output = crawl(profile(site.url("/")));

        assertThat(output.outcomes()).containsOnlyKeys(site.url("/"), site.url("/a"));
        assertThat(output.outcomes().values()).containsOnly("fetched");
        assertThat(output.summary.get("endReason").asText()).isEqualTo("finished");
    }

    /**
     * Issue 24: an https seed whose certificate a private CA signed. Without fetch.trust-store the host is unreachable
     * and its records say which key to set; with the CA's PEM file in fetch.trust-store the pages are fetched.
     */
    @Test
    void crawlsAnHttpsSiteOfAPrivateCaOnlyWithItInFetchTrustStore() throws Exception {
        try (TlsSite tls = TlsSite.start()) {
            CrawlProfile profile = profile(tls.url("/"), tls.url("/other"));

            CrawlOutput refused = crawl(profile);

            String why = "TLS handshake failed: unable to find a valid certification path; to trust a private CA set"
                    + " fetch.trust-store";
            assertThat(refused.outcomes().values()).containsOnly("unreachable");
            assertThat(refused.records).extracting(r -> r.get("error").asText())
                    .containsOnly(HostKey.of(tls.url("/")) + " unreachable (" + why + "); not tried");

            Path pem = tls.writeCaPem(out.resolve("ca.pem"));
            CrawlOutput fetched = crawl(profile.with(FETCH_TRUST_STORE, TrustStore.read(pem))
                    .with(OUTPUT_DIR, out.resolve("trusted")), out.resolve("trusted"));

            assertThat(fetched.outcomes()).containsOnlyKeys(tls.url("/"), tls.url("/other"));
            assertThat(fetched.outcomes().values()).containsOnly("fetched");
        }
    }

    @Test
    void recordsRedirectsFollowsTheirTargetsOnceAndStopsLoopsAndLongChains() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/old", "/loop1", "/away", "/r1"))
                .redirect("/old", 301, "/new")
                .page("/new", FixtureSite.linkPage("new", "/old"))
                .redirect("/loop1", 302, "/loop2")
                .redirect("/loop2", 302, "/loop1")
                .redirect("/away", 301, "http://example.com/elsewhere")
                .redirect("/r1", 302, "/r2").redirect("/r2", 302, "/r3").redirect("/r3", 302, "/r4")
                .page("/r4", FixtureSite.linkPage("r4"));
        CrawlProfile profile = profile(site.url("/"));
        profile = profile.with(FETCH_MAX_REDIRECTS, 2).with(FETCH_RETRIES, 2);

        CrawlOutput output = crawl(profile);

        JsonNode old = output.record(site.url("/old"));
        assertThat(old.get("outcome").asText()).isEqualTo("redirect");
        assertThat(old.get("status").asInt()).isEqualTo(301);
        assertThat(old.get("redirectTo").asText()).isEqualTo(site.url("/new"));
        assertThat(output.record(site.url("/new")).get("outcome").asText()).isEqualTo("fetched");
        assertThat(site.requests("/old")).isEqualTo(1);
        assertThat(site.requests("/loop1")).isEqualTo(1);
        assertThat(site.requests("/loop2")).isEqualTo(1);
        JsonNode elsewhere = output.record("http://example.com/elsewhere");
        assertThat(elsewhere.get("outcome").asText()).isEqualTo("out-of-scope");
        assertThat(elsewhere.get("referrer").asText()).isEqualTo(site.url("/away"));
        JsonNode r3 = output.record(site.url("/r3"));
        assertThat(r3.get("outcome").asText()).isEqualTo("error");
        assertThat(r3.get("error").asText()).isEqualTo("redirect chain longer than fetch.max-redirects 2");
        assertThat(site.requests("/r4")).isZero();
    }

    @Test
    void retriesA429AfterItsRetryAfterAndA503ThenSucceeds() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/busy", "/flaky"))
                .sequence("/busy", aResponse().withStatus(429).withHeader("Retry-After", "1"),
                        aResponse().withStatus(200).withHeader("Content-Type", "text/html").withBody("<title>ok</title>"))
                .sequence("/flaky", aResponse().withStatus(503),
                        aResponse().withStatus(200).withHeader("Content-Type", "text/html").withBody("<title>up</title>"));

        CrawlOutput output = crawl(profile(site.url("/")));

        assertThat(output.record(site.url("/busy")).get("outcome").asText()).isEqualTo("fetched");
        assertThat(output.record(site.url("/flaky")).get("title").asText()).isEqualTo("up");
        assertThat(site.requests("/busy")).isEqualTo(2);
        assertThat(site.requests("/flaky")).isEqualTo(2);
        List<LoggedRequest> busy = site.requestLog().stream().filter(r -> r.getUrl().equals("/busy")).toList();
        long waited = busy.get(1).getLoggedDate().getTime() - busy.get(0).getLoggedDate().getTime();
        assertThat(waited).as("Retry-After: 1 honoured").isGreaterThanOrEqualTo(990);
    }

    @Test
    void givesUpAfterTheConfiguredRetriesWithTheStatusRecorded() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/down")).respond("/down", aResponse().withStatus(503));
        CrawlProfile profile = profile(site.url("/"));
        profile = profile.with(FETCH_RETRIES, 1);

        CrawlOutput output = crawl(profile);

        JsonNode down = output.record(site.url("/down"));
        assertThat(down.get("outcome").asText()).isEqualTo("http-error");
        assertThat(down.get("status").asInt()).isEqualTo(503);
        assertThat(down.get("error").asText()).contains("after 2 attempts");
        assertThat(site.requests("/down")).isEqualTo(2);
    }

    @Test
    void crawlsAFastHostAtFullSpeedBesideADelayedOneWithOneFetcherThread() throws Exception {
        try (FixtureSite slow = FixtureSite.start()) {
            slow.robots("User-agent: *\nCrawl-delay: 1\n")
                    .page("/", FixtureSite.linkPage("slow", "/s1", "/s2")).page("/s1", "s1").page("/s2", "s2");
            String[] fastPages = new String[15];
            for (int i = 0; i < fastPages.length; i++) {
                fastPages[i] = "/f" + i;
                site.page(fastPages[i], FixtureSite.linkPage("f" + i));
            }
            site.page("/", FixtureSite.linkPage("fast", fastPages));
            CrawlProfile profile = profile(slow.url("/"), site.url("/"));
            profile = profile.with(FETCH_THREADS, 1);

            CrawlOutput output = crawl(profile);

            assertThat(output.records).hasSize(19);
            long fastDone = site.requestLog().stream().mapToLong(r -> r.getLoggedDate().getTime()).max().orElseThrow();
            List<LoggedRequest> slowLog = slow.requestLog();
            long slowSecondPage = slowLog.get(2).getLoggedDate().getTime(); // robots.txt, /, then this
            assertThat(fastDone).as("all 16 fast pages before the slow host's second page")
                    .isLessThan(slowSecondPage);
            assertThat(slowSecondPage - slowLog.get(1).getLoggedDate().getTime()).isGreaterThanOrEqualTo(990);
        }
    }

    @Test
    void keepsUpToMaxConnectionsPerHostRequestsInFlightAtOnce() throws Exception {
        String[] links = new String[8];
        for (int i = 0; i < links.length; i++) {
            links[i] = "/wait" + i;
            site.respond(links[i], aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                    .withBody("<title>w</title>").withFixedDelay(300));
        }
        site.page("/", FixtureSite.linkPage("home", links));

        crawl(profile(site.url("/"))); // 4 threads, 4 connections per host

        List<Long> arrivals = site.requestLog().stream().filter(r -> r.getUrl().startsWith("/wait"))
                .map(r -> r.getLoggedDate().getTime()).sorted().toList();
        assertThat(arrivals).hasSize(8);
        // Two waves of four: the first four arrive together, before any of them was answered.
        assertThat(arrivals.get(3) - arrivals.get(0)).isLessThan(250);
        assertThat(arrivals.get(4) - arrivals.get(0)).isGreaterThanOrEqualTo(250);
    }

    @Test
    void cutsAHugeBodyAndAGzipBombAtTheMaximumPageSize() throws Exception {
        byte[] bomb;
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(compressed)) {
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 64; i++) {
                gzip.write(zeros); // 64 MiB of zeros, ~64 KiB compressed
            }
        }
        bomb = compressed.toByteArray();
        site.page("/", FixtureSite.linkPage("home", "/huge", "/bomb"))
                .page("/huge", "<title>huge</title>" + "<p>lorem ipsum</p>".repeat(100_000))
                .respond("/bomb", aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                        .withHeader("Content-Encoding", "gzip").withBody(bomb));
        CrawlProfile profile = profile(site.url("/"));
        profile = profile.with(LIMITS_MAX_PAGE_BYTES, 256L * 1024);

        CrawlOutput output = crawl(profile);

        for (String path : List.of("/huge", "/bomb")) {
            JsonNode record = output.record(site.url(path));
            assertThat(record.get("outcome").asText()).as(path).isEqualTo("truncated");
            assertThat(record.get("bytes").asLong()).as(path).isEqualTo(256 * 1024);
            assertThat(record.get("error").asText()).contains("limits.max-page-bytes");
        }
        assertThat(output.record(site.url("/huge")).get("title").asText()).isEqualTo("huge");
    }

    @Test
    void recordsNonHtmlContentWithoutParsingIt() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/report.pdf", "/data.json"))
                .respond("/report.pdf", aResponse().withStatus(200).withHeader("Content-Type", "application/pdf")
                        .withBody("%PDF-1.4 <a href=\"/hidden\">"))
                .respond("/data.json", aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                        .withBody("{\"a\": \"<a href='/hidden2'>\"}"));

        CrawlOutput output = crawl(profile(site.url("/")));

        JsonNode pdf = output.record(site.url("/report.pdf"));
        assertThat(pdf.get("outcome").asText()).isEqualTo("not-html");
        assertThat(pdf.get("contentType").asText()).isEqualTo("application/pdf");
        assertThat(output.record(site.url("/data.json")).get("outcome").asText()).isEqualTo("not-html");
        assertThat(output.urls()).doesNotContain(site.url("/hidden"), site.url("/hidden2"));
    }

    @Test
    void recordsEachResponsesValidatorsAsSentForALaterConditionalRequest() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/tagged", "/dated.pdf", "/bare"))
                .respond("/tagged", aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                        .withHeader("ETag", "\"64a3-5f0c\"").withBody("<title>tagged</title>"))
                .respond("/dated.pdf", aResponse().withStatus(200).withHeader("Content-Type", "application/pdf")
                        .withHeader("ETag", "W/\"x\"").withHeader("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT")
                        .withBody("%PDF-1.4"))
                .respond("/bare", aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                        .withHeader("ETag", "\"" + "e".repeat(300) + "\"").withBody("<title>bare</title>"));

        CrawlOutput output = crawl(profile(site.url("/")));

        // as sent: WireMock's Jetty gzips the body for the crawler's Accept-Encoding and marks the ETag so, the value
        // it will recognise in a later If-None-Match
        assertThat(output.record(site.url("/tagged")).get("etag").asText()).isEqualTo("\"64a3-5f0c--gzip\"");
        assertThat(output.record(site.url("/tagged")).has("lastModified")).isFalse();
        JsonNode pdf = output.record(site.url("/dated.pdf")); // not HTML: revalidated all the same
        assertThat(pdf.get("etag").asText()).startsWith("W/\"x");
        assertThat(pdf.get("lastModified").asText()).isEqualTo("Wed, 21 Oct 2015 07:28:00 GMT");
        assertThat(output.record(site.url("/bare")).has("etag")).as("past its bound: left out, not cut").isFalse();
    }

    @Test
    void decodesAWindows1252PageDeclaredOnlyInItsMetaTag() throws Exception {
        byte[] body = FixtureSite.windows1252("<html><head><meta charset=\"windows-1252\">"
                + "<title>Caf\u00e9 \u20ac 5 \u2013 na\u00efve</title></head><body>\u00fcber</body></html>");
        site.page("/", FixtureSite.linkPage("home", "/cp1252"))
                .respond("/cp1252", aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                        .withBody(body));

        CrawlOutput output = crawl(profile(site.url("/")));

        assertThat(output.record(site.url("/cp1252")).get("title").asText())
                .isEqualTo("Caf\u00e9 \u20ac 5 \u2013 na\u00efve");
    }

    @Test
    void countsThePagesTheScannerReadAndThoseLeftToJsoupByReason() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/t1", "/t2", "/svg"))
                .page("/t1", "<table><a href=/fostered>x</a></table>")
                .page("/t2", "<table><tr><td>x</td></tr><a href=/fostered>y</a></table>")
                .page("/svg", "<a href=/fostered><svg><path d=M0/></svg></a><template></template>")
                .page("/fostered", "f");

        CrawlOutput output = crawl(profile(site.url("/")));

        assertThat(output.urls()).contains(site.url("/fostered"));
        JsonNode parser = output.summary.get("parser");
        assertThat(parser.get("scanned").asLong()).isEqualTo(2);
        assertThat(parser.get("fellBack").asLong()).isEqualTo(3);
        assertThat(parser.get("fallbackReasons").fieldNames()).toIterable()
                .containsExactly("foster-parented <a>", "<template>");
        assertThat(parser.get("fallbackReasons").get("foster-parented <a>").asLong()).isEqualTo(2);
    }

    @Test
    void followsTheLinksOfMalformedHtml() throws Exception {
        site.page("/", "<html><body><a href=/m1>one<a href='/m2'>two<div><table><a href=\"/m3\">three"
                        + "<p <a href=/broken>x</a><!-- <a href=/commented> --><a href=/m4")
                .page("/m1", "m1").page("/m2", "m2").page("/m3", "m3");

        CrawlOutput output = crawl(profile(site.url("/")));

        assertThat(output.urls()).contains(site.url("/m1"), site.url("/m2"), site.url("/m3"));
        assertThat(output.urls()).doesNotContain(site.url("/commented"));
        assertThat(output.record(site.url("/")).get("outcome").asText()).isEqualTo("fetched");
    }

    @Test
    void neitherLeavesTheSiteNorFollowsLinksToPrivateAddresses() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "http://example.com/off-site", "http://169.254.169.254/latest/",
                "http://127.0.0.1:1/other-service", "http://10.0.0.1/", "mailto:someone@example.org",
                "javascript:void(0)", "/ok"))
                .page("/ok", "ok");

        CrawlOutput output = crawl(profile(site.url("/")));

        assertThat(output.urls()).containsExactlyInAnyOrder(site.url("/"), site.url("/ok"));
        assertThat(output.summaryCount("linkRejections", "out-of-scope-host")).isEqualTo(1);
        assertThat(output.summaryCount("linkRejections", "private-address")).isEqualTo(3);
        assertThat(output.summaryCount("linkRejections", "unsupported-scheme")).isEqualTo(2);
    }

    @Test
    void followsLinksToAnotherHostWhenScopeHostsIsAny() throws Exception {
        try (FixtureSite other = FixtureSite.start()) {
            String elsewhere = "http://localhost:" + other.port(); // another host name than the seed's 127.0.0.1
            site.page("/", FixtureSite.linkPage("home", elsewhere + "/b"));
            other.page("/b", FixtureSite.linkPage("b", "/c")).page("/c", "c");
            CrawlProfile broad = profile(site.url("/")).with(SCOPE_HOSTS, List.of("any"))
                    .with(FETCH_ALLOW_PRIVATE_ADDRESSES, true); // both servers are on loopback

            CrawlOutput output = crawl(broad);

            assertThat(output.urls()).containsExactlyInAnyOrder(site.url("/"), elsewhere + "/b", elsewhere + "/c");
            assertThat(other.requests("/b")).isEqualTo(1);
            assertThat(output.record(elsewhere + "/c").get("outcome").asText()).isEqualTo("fetched");
        }
    }

    @Test
    void keepsToTheSeedsHostsByDefaultWhereAnyWouldFollowTheLink() throws Exception {
        try (FixtureSite other = FixtureSite.start()) {
            site.page("/", FixtureSite.linkPage("home", "http://localhost:" + other.port() + "/b"));
            other.page("/b", "b");

            CrawlOutput output = crawl(profile(site.url("/")).with(FETCH_ALLOW_PRIVATE_ADDRESSES, true));

            assertThat(output.urls()).containsExactly(site.url("/"));
            assertThat(output.summaryCount("linkRejections", "out-of-scope-host")).isEqualTo(1);
            assertThat(other.requests("/b")).isZero();
        }
    }

    /** Issue 27: limits.max-pages-per-host is spent as URLs are admitted; the rest are counted, not recorded. */
    @Test
    void countsAHostsUrlsPastItsBudgetWithoutRecordingThemOrSpendingMaxPages() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/a", "/b", "/c", "/d", "/e"));
        for (String page : List.of("/a", "/b", "/c", "/d", "/e")) {
            site.page(page, FixtureSite.linkPage(page, "/", "/a"));
        }
        CrawlProfile profile = profile(site.url("/")).with(LIMITS_MAX_PAGES_PER_HOST, 3L).with(LIMITS_MAX_PAGES, 4L);

        CrawlOutput output = crawl(profile);

        assertThat(output.urls()).containsExactlyInAnyOrder(site.url("/"), site.url("/a"), site.url("/b"));
        assertThat(output.summaryCount("linkRejections", "over-host-budget")).as("/c, /d, /e, each once").isEqualTo(3);
        assertThat(output.summaryCount("outcomes", "trap")).isZero();
        assertThat(output.summary.get("endReason").asText()).as("3 records: max-pages 4 not reached")
                .isEqualTo("finished");
        assertThat(site.requests("/c")).isZero();
    }

    /** Issue 27: the URLs a host had admitted before a stop still count against its budget when the crawl resumes. */
    @Test
    void aResumedCrawlGoesOnFromTheHostBudgetItsCheckpointSpent() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/a", "/b", "/c", "/d"))
                .page("/a", FixtureSite.linkPage("a", "/e")).page("/b", "b").page("/c", "c").page("/d", "d")
                .page("/e", "e");
        crawl(profile(site.url("/")).with(LIMITS_MAX_PAGES_PER_HOST, 4L).with(FETCH_THREADS, 1)
                .with(LIMITS_MAX_PAGES, 1L)); // "/" fetched: /a, /b and /c admitted, /d over the budget
        CrawlProfile saved = new CheckpointStore(out).readProfile();

        Crawler.resuming(saved.with(LIMITS_MAX_PAGES, 0L)).run();

        CrawlOutput output = CrawlOutput.read(out);
        assertThat(output.urls()).containsExactlyInAnyOrder(site.url("/"), site.url("/a"), site.url("/b"),
                site.url("/c"));
        assertThat(output.summaryCount("linkRejections", "over-host-budget")).as("/d before the stop, /e after")
                .isEqualTo(2);
        assertThat(site.requests("/e")).isZero();
    }

    @Test
    void stopsAtTheMaximumNumberOfPages() throws Exception {
        String[] links = new String[20];
        for (int i = 0; i < links.length; i++) {
            links[i] = "/p" + i;
            site.page(links[i], FixtureSite.linkPage("p" + i));
        }
        site.page("/", FixtureSite.linkPage("home", links));
        CrawlProfile profile = profile(site.url("/"));
        profile = profile.with(LIMITS_MAX_PAGES, 5L);

        CrawlOutput output = crawl(profile);

        assertThat(output.records).hasSize(5);
        assertThat(output.summary.get("endReason").asText()).isEqualTo("max-pages");
        assertThat(output.summary.get("pending").asLong()).isEqualTo(16);
    }

    @Test
    void aCrawlStoppedMidwayStillWritesItsSummary() throws Exception {
        String[] links = new String[40];
        for (int i = 0; i < links.length; i++) {
            links[i] = "/slow" + i;
            site.respond(links[i], aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                    .withBody("<title>slow</title>").withFixedDelay(100));
        }
        site.page("/", FixtureSite.linkPage("home", links));
        CrawlProfile profile = profile(site.url("/"));
        profile = profile.with(FETCH_THREADS, 1);
        Crawler crawler = Crawler.newCrawl(profile);

        CompletableFuture<CrawlSummary> running = CompletableFuture.supplyAsync(() -> {
            try {
                return crawler.run();
            } catch (CrawlException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(1_000); // robots.txt, the home page and a few of the 100 ms pages
        crawler.stop();
        CrawlSummary summary = running.get(20, TimeUnit.SECONDS);

        CrawlOutput output = CrawlOutput.read(out);
        assertThat(summary.endReason()).isEqualTo("stopped");
        assertThat(output.summary.get("endReason").asText()).isEqualTo("stopped");
        assertThat(output.records.size()).isBetween(1, 40);
        assertThat(output.summary.get("decided").asLong()).isEqualTo(output.records.size());
        assertThat(output.summary.get("pending").asLong()).isPositive();
    }

    @Test
    void refusesANewCrawlIntoAFolderHoldingAFinishedCrawlNamingOverwriteAndLeavesItAlone() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/a")).page("/a", FixtureSite.linkPage("a"));
        crawl(profile(site.url("/")));
        byte[] pages = Files.readAllBytes(out.resolve("pages.jsonl"));
        byte[] summary = Files.readAllBytes(out.resolve("summary.json"));

        assertThatThrownBy(() -> Crawler.newCrawl(profile(site.url("/"))).run())
                .isInstanceOfSatisfying(CrawlException.class, e -> assertThat(e.refused()).isTrue())
                .hasMessage(out + " holds the output of an earlier crawl (pages.jsonl, summary.json, checkpoint/);"
                        + " a new crawl would mix its pages with them: start afresh with --overwrite, which deletes"
                        + " its pages.jsonl, summary.json, checkpoint/ and crawl.log, progress.jsonl, report.html, audit.json, changes.jsonl, rules.jsonl (no"
                        + " other file), or choose another output folder");
        assertThat(out.resolve("pages.jsonl")).hasBinaryContent(pages);
        assertThat(out.resolve("summary.json")).hasBinaryContent(summary);
    }

    @Test
    void overwriteStartsAfreshDeletingOnlyTheCrawlersOwnFiles() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/a")).page("/a", FixtureSite.linkPage("a"));
        crawl(profile(site.url("/")));
        Files.writeString(out.resolve("notes.txt"), "mine\n");

        Crawler.of(profile(site.url("/")), Crawler.Start.OVERWRITE, Program.CRAWLER).run();

        CrawlOutput output = CrawlOutput.read(out);
        assertThat(output.records).extracting(r -> r.get("url").asText())
                .containsExactlyInAnyOrder(site.url("/"), site.url("/a"));
        assertThat(output.summary.get("decided").asLong()).isEqualTo(2);
        assertThat(out.resolve("notes.txt")).hasContent("mine");
    }

    @Test
    void refusesANewCrawlIntoAFolderHoldingAStoppedCrawlNamingResumeAndOverwrite() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/a", "/b")).page("/a", FixtureSite.linkPage("a"))
                .page("/b", FixtureSite.linkPage("b"));
        CrawlProfile profile = profile(site.url("/"));
        crawl(profile.with(LIMITS_MAX_PAGES, 1L));

        assertThatThrownBy(() -> Crawler.newCrawl(profile).run())
                .isInstanceOfSatisfying(CrawlException.class, e -> assertThat(e.refused()).isTrue())
                .hasMessageStartingWith(out + " holds a crawl that did not finish (max-pages, 1 URLs decided):"
                        + " start afresh with --overwrite")
                .hasMessageEndingWith("; or resume it: crawler crawl --resume " + out);
    }

    @Test
    void aCrawlStoppedAtMaxPagesGoesOnWhenResumedWithAHigherLimit() throws Exception {
        String[] links = new String[20];
        for (int i = 0; i < links.length; i++) {
            links[i] = "/p" + i;
            site.page(links[i], FixtureSite.linkPage("p" + i));
        }
        site.page("/", FixtureSite.linkPage("home", links));
        CrawlProfile profile = profile(site.url("/"));
        crawl(profile.with(LIMITS_MAX_PAGES, 5L));
        assertThat(new CheckpointStore(out).read().state()).isEqualTo(Checkpoint.State.STOPPED);
        CrawlProfile saved = new CheckpointStore(out).readProfile();

        CrawlSummary summary = Crawler.resuming(saved.with(LIMITS_MAX_PAGES, 0L)).run();

        assertThat(summary.endReason()).isEqualTo("finished");
        assertThat(summary.fetched()).isEqualTo(21);
        assertThat(summary.fetchedThisRun()).as("this run's pages, what its avg counts").isEqualTo(16);
        assertThat(CrawlOutput.read(out).records).extracting(r -> r.get("url").asText()).hasSize(21)
                .doesNotHaveDuplicates();
        assertThat(new CheckpointStore(out).read().state()).isEqualTo(Checkpoint.State.FINISHED);
    }

    @Test
    void refusesToResumeACrawlStoppedAtMaxPagesWithoutAHigherLimit() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/a", "/b")).page("/a", FixtureSite.linkPage("a"))
                .page("/b", FixtureSite.linkPage("b"));
        CrawlProfile profile = profile(site.url("/"));
        crawl(profile.with(LIMITS_MAX_PAGES, 2L));

        assertThatThrownBy(() -> Crawler.resuming(new CheckpointStore(out).readProfile()).run())
                .isInstanceOfSatisfying(CrawlException.class, e -> assertThat(e.refused()).isTrue())
                .hasMessage("the crawl in " + out + " stopped at limits.max-pages 2 (2 URLs decided); resume it"
                        + " with a higher limit (0 for none), e.g. crawler crawl --resume " + out + " --max-pages 4");
    }

    @Test
    void refusesAResumeThatChangesTheScopeNamingTheKeyBeforeAnyRequest() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/a")).page("/a", FixtureSite.linkPage("a"));
        CrawlProfile profile = profile(site.url("/"));
        crawl(profile.with(LIMITS_MAX_PAGES, 1L));
        int requests = site.requestLog().size();
        CrawlProfile saved = new CheckpointStore(out).readProfile();
        CrawlProfile deeper = saved.with(LIMITS_MAX_PAGES, 0L)
                .with(SCOPE_MAX_DEPTH, 3);

        assertThatThrownBy(() -> Crawler.resuming(deeper).run())
                .isInstanceOfSatisfying(CrawlException.class, e -> assertThat(e.refused()).isTrue())
                .hasMessageStartingWith("a resume of the crawl in " + out + " cannot change scope.max-depth (-1 in"
                        + " the checkpoint, 3 given): the keys that decide which URLs the crawl takes are fixed");
        assertThat(site.requestLog()).hasSize(requests);
    }

    @Test
    void refusesASieveTooLargeForTheHeapBeforeAllocatingIt() {
        CrawlProfile profile = profile(site.url("/"))
                .with(SIEVE_FALSE_POSITIVE_RATE, 0.01).with(SIEVE_EXPECTED_URLS, 100_000_000_000L);

        assertThatThrownBy(() -> Crawler.newCrawl(profile).run())
                .isInstanceOfSatisfying(CrawlException.class, e -> assertThat(e.refused()).isTrue())
                .hasMessageContaining("needs a 112 GiB Bloom filter").hasMessageContaining("JAVA_OPTS=-Xmx");
        assertThat(site.requestLog()).isEmpty();
    }

    @Test
    void refusesAnOutputFolderThatCannotBeCreatedNamingThePartInTheWay() throws IOException {
        Path file = Files.writeString(out.resolve("a-file"), "not a folder");
        CrawlProfile profile = profile(site.url("/"))
                .with(OUTPUT_DIR, file.resolve("sub"));

        assertThatThrownBy(() -> Crawler.newCrawl(profile).run())
                .isInstanceOfSatisfying(CrawlException.class, e -> assertThat(e.refused()).isTrue())
                .hasMessage("output.dir " + file.resolve("sub") + ": cannot be created: " + file
                        + " is a file, not a folder");
        assertThat(site.requestLog()).isEmpty();
    }

    @Test
    void refusesToStartWithoutAUsableSeed() {
        assertThatThrownBy(() -> Crawler.newCrawl(profile("ftp://example.org/", "not a url")).run())
                .isInstanceOf(CrawlException.class)
                .hasMessageStartingWith("no usable seed: seed \"ftp://example.org/\": ");
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    /** The paths of the URLs in pages.jsonl, each with its outcome. */
    private static Map<String, String> pathOutcomes(CrawlOutput output, String origin) {
        Map<String, String> paths = new TreeMap<>();
        output.outcomes().forEach((url, outcome) -> paths.put(url.substring(origin.length()), outcome));
        return paths;
    }

    private CrawlOutput crawlInto(Path dir, CrawlProfile profile) throws CrawlException {
        Crawler.newCrawl(profile.with(OUTPUT_DIR, dir)).run();
        return CrawlOutput.read(dir);
    }

    @Test
    void crawlsAnHttp10ServerThatClosesEveryConnectionAndAKeepAliveOneLikeWireMock() throws Exception {
        Map<String, String> pages = FixtureSite.linkedPages(30);
        site.pages(pages);
        try (SocketSite http10 = SocketSite.http10(pages);
                SocketSite keepAlive = SocketSite.keepAlive(pages, Duration.ofSeconds(1))) {
            CrawlOutput wiremock = crawlInto(out.resolve("wiremock"), profile(site.url("/")));
            CrawlOutput closing = crawlInto(out.resolve("http10"), profile(http10.url("/")));
            CrawlOutput persistent = crawlInto(out.resolve("keep-alive"), profile(keepAlive.url("/")));

            Map<String, String> expected = pathOutcomes(wiremock, site.origin());
            assertThat(expected).hasSize(31);
            assertThat(expected.values()).containsOnly("fetched");
            assertThat(pathOutcomes(closing, http10.origin())).isEqualTo(expected);
            assertThat(pathOutcomes(persistent, keepAlive.origin())).isEqualTo(expected);
            for (CrawlOutput output : List.of(wiremock, closing, persistent)) {
                assertThat(output.summary.get("errors").asLong()).isZero();
                assertThat(output.summary.get("retries").asLong()).isZero();
                assertThat(output.summary.get("descriptorWaits").asLong()).as("32 requests need no descriptor wait")
                        .isZero();
            }
            assertThat(closing.summary.get("reconnects").asLong()).as("HTTP/1.0 connections are not pooled").isZero();
            assertThat(http10.connections()).as("one connection per request").isEqualTo(32);
        }
    }

    @Test
    void crawlsAKeepAliveServerThatClosesIdleConnectionsWithDelaysLongerThanItsIdleTimeout() throws Exception {
        Map<String, String> pages = FixtureSite.linkedPages(3);
        try (SocketSite keepAlive = SocketSite.keepAlive(pages, Duration.ofSeconds(1))) {
            CrawlProfile profile = profile(keepAlive.url("/"));
            profile = profile.with(POLITENESS_DELAY, Duration.ofMillis(1_300))
                    .with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 1);

            CrawlOutput output = crawl(profile);

            assertThat(pathOutcomes(output, keepAlive.origin())).containsOnlyKeys("/", "/p0", "/p1", "/p2")
                    .containsValues("fetched").doesNotContainValue("error");
            assertThat(output.summary.get("errors").asLong()).isZero();
            assertThat(output.summary.get("retries").asLong()).isZero();
            assertThat(keepAlive.idleClosed()).as("the server closed idle connections").isPositive();
            assertThat(output.summary.get("reconnects").asLong()).as("requests met a closed pooled connection")
                    .isPositive();
        }
    }

    @Test
    void recordsASeedOnAClosedPortAsUnreachableAfterTheCrawlsRetriesNotTheRobotsRetry() throws Exception {
        String seed = "http://127.0.0.1:" + closedPort() + "/";
        CrawlProfile profile = profile(seed);
        profile = profile.with(POLITENESS_ROBOTS_RETRY, Duration.ofMinutes(10));

        CrawlOutput output = crawl(profile);

        JsonNode record = output.record(seed);
        String host = seed.substring(0, seed.length() - 1);
        assertThat(record.get("outcome").asText()).isEqualTo("unreachable");
        assertThat(record.get("error").asText()).isEqualTo(host + " unreachable (connection refused); not tried");
        assertThat(output.summary.get("endReason").asText()).isEqualTo("finished");
        assertThat(output.summary.get("responses").asLong()).isZero();
        assertThat(output.summary.get("errors").asLong()).as("three robots.txt attempts").isEqualTo(3);
        assertThat(output.summary.get("retries").asLong()).isEqualTo(2);
        JsonNode down = output.summary.get("unreachableHosts");
        assertThat(down).hasSize(1);
        assertThat(down.get(0).get("host").asText()).isEqualTo(host);
        assertThat(down.get(0).get("reason").asText()).isEqualTo("connection refused");
    }

    @Test
    void recordsTheOtherUrlsOfAnUnreachableHostWithoutTryingEachAgain() throws Exception {
        String origin = "http://127.0.0.1:" + closedPort();
        CrawlProfile profile = profile(origin + "/a", origin + "/b", origin + "/c");
        profile = profile.with(POLITENESS_RESPECT_ROBOTS, false).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 1);

        CrawlOutput output = crawl(profile);

        assertThat(output.outcomes()).containsOnlyKeys(origin + "/a", origin + "/b", origin + "/c");
        assertThat(output.outcomes().values()).containsOnly("unreachable");
        assertThat(output.records.stream().map(r -> r.get("error").asText()))
                .containsOnlyOnce("connect to " + origin.substring("http://".length()) + " refused (after 3 attempts)")
                .filteredOn(error -> error.endsWith("not tried")).hasSize(2);
        assertThat(output.summary.get("errors").asLong()).as("only the first URL's attempts").isEqualTo(3);
        assertThat(output.summary.get("retries").asLong()).isEqualTo(2);
        assertThat(output.summaryCount("outcomes", "unreachable")).isEqualTo(3);
    }

    @Test
    void recordsAnUnknownHostAsUnreachableWithoutRetrying() throws Exception {
        CrawlOutput output = crawl(profile("http://down.invalid/", "http://down.invalid/other"));

        assertThat(output.outcomes()).containsOnlyKeys("http://down.invalid/", "http://down.invalid/other");
        assertThat(output.outcomes().values()).containsOnly("unreachable");
        assertThat(output.record("http://down.invalid/").get("error").asText())
                .isEqualTo("http://down.invalid unreachable (unknown host); not tried");
        assertThat(output.summary.get("errors").asLong()).as("one robots.txt attempt").isEqualTo(1);
        assertThat(output.summary.get("retries").asLong()).isZero();
        assertThat(output.summary.get("unreachableHosts").get(0).get("reason").asText()).isEqualTo("unknown host");
    }
}
