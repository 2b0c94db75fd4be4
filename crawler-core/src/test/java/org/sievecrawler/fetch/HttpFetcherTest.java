package org.sievecrawler.fetch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.head;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_ALLOW_PRIVATE_ADDRESSES;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_HEADERS;
import static org.sievecrawler.profile.ProfileKeys.FETCH_PROXY;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.FETCH_USER_AGENT;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGE_BYTES;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.http.Fault;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import okhttp3.Dns;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.sievecrawler.fetch.HttpFetcher.Settings;
import org.sievecrawler.fixtures.SocketSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.FetchConfig;
import org.sievecrawler.profile.LimitsConfig;
import org.sievecrawler.profile.PolitenessConfig;

class HttpFetcherTest {
    private static final String USER_AGENT = "SieveTest/1.0 (+http://127.0.0.1/bot)";
    private static final int CAP = 64 * 1024;
    /** Private addresses refused, as in production; the WireMock host is allowed the way the engine allows seeds. */
    private static final CrawlProfile PROFILE = CrawlProfile.defaults().with(FETCH_THREADS, 2)
            .with(FETCH_USER_AGENT, USER_AGENT).with(FETCH_CONNECT_TIMEOUT, Duration.ofMillis(800))
            .with(FETCH_READ_TIMEOUT, Duration.ofMillis(2000)).with(FETCH_CALL_TIMEOUT, Duration.ofMillis(5000))
            .with(FETCH_ALLOW_PRIVATE_ADDRESSES, false).with(LIMITS_MAX_PAGE_BYTES, (long) CAP);
    private static final FetchConfig CONFIG = PROFILE.fetch();
    private static final LimitsConfig LIMITS = PROFILE.limits();
    private static final Set<String> SEED_HOSTS = Set.of("127.0.0.1");

    private static WireMockServer server;
    private HttpFetcher fetcher;

    @BeforeAll
    static void startServer() {
        server = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1").gzipDisabled(true));
        server.start();
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    @BeforeEach
    void createFetcher() {
        server.resetAll();
        fetcher = new HttpFetcher(CONFIG, LIMITS, Settings.of(SEED_HOSTS));
    }

    @AfterEach
    void closeFetcher() {
        fetcher.close();
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    private static FetchResult.Page page(FetchResult result) {
        assertThat(result).isInstanceOf(FetchResult.Page.class);
        return (FetchResult.Page) result;
    }

    private static FetchResult.Failure failure(FetchResult result) {
        assertThat(result).isInstanceOf(FetchResult.Failure.class);
        return (FetchResult.Failure) result;
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    @Test
    void keepsAnIdleConnectionPerThreadAndConnectionToAHostAtMost1024() {
        PolitenessConfig twoPerHost = CrawlProfile.defaults().with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 2).politeness();

        CrawlProfile defaults = CrawlProfile.defaults();
        assertThat(HttpFetcher.idleConnections(defaults.with(FETCH_THREADS, 32).fetch(), twoPerHost)).isEqualTo(64);
        assertThat(HttpFetcher.idleConnections(defaults.with(FETCH_THREADS, 1024).fetch(), twoPerHost))
                .isEqualTo(1024);
    }

    @Test
    void sendsARequestAgainOnceTheProcessHasFileDescriptorsAgainInsteadOfFailingItsHost() {
        server.stubFor(get("/page").willReturn(aResponse().withStatus(200).withBody("ok")));
        CountedSockets outOfDescriptors = new CountedSockets(3); // "Too many open files" three times, then a socket
        AddressGuard guard = new AddressGuard(Dns.SYSTEM, false, SEED_HOSTS, Set.of());

        try (HttpFetcher pressed = HttpFetcher.watching(CONFIG, LIMITS, guard, Clock.systemUTC(), false, null,
                outOfDescriptors)) {
            FetchResult.Page page = page(pressed.fetch(url("/page")));

            assertThat(new String(page.body(), StandardCharsets.UTF_8)).isEqualTo("ok");
            assertThat(pressed.descriptorWaits()).as("waits for descriptors").isEqualTo(3);
        }
        assertThat(outOfDescriptors.made()).isEqualTo(1);
        server.verify(1, getRequestedFor(urlEqualTo("/page")));
    }

    @Test
    void waitsAndResolvesAgainWhenANameFailedForWantOfFileDescriptorsInsteadOfFailingItsHost() {
        server.stubFor(get("/page").willReturn(aResponse().withStatus(200).withBody("ok")));
        AtomicInteger failing = new AtomicInteger(2);
        Dns emfileTwice = host -> { // as the JDK says it: an unknown name, while the descriptors are spent
            if (failing.get() > 0) {
                throw new UnknownHostException(host + ": Name or service not known");
            }
            return List.of(InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1}));
        };
        DnsCache dns = new DnsCache(emfileTwice, Duration.ofMinutes(5), Duration.ofSeconds(30), 10,
                Clock.systemUTC(), () -> failing.getAndDecrement() > 0);
        AddressGuard guard = new AddressGuard(dns, true, Set.of(), Set.of());

        try (HttpFetcher pressed = HttpFetcher.watching(CONFIG, LIMITS, guard, Clock.systemUTC(), false, null,
                null)) {
            FetchResult.Page page = page(pressed.fetch("http://pressed.test:" + server.port() + "/page"));

            assertThat(new String(page.body(), StandardCharsets.UTF_8)).isEqualTo("ok");
            assertThat(pressed.descriptorWaits()).as("waits for descriptors").isEqualTo(2);
        }
        assertThat(dns.counts()).as("no failure counted, no unknown name kept")
                .isEqualTo(new DnsCache.Counts(3, 0, 0, 0));
    }

    @Test
    void keepsNoMoreSocketsOpenThanItsBudgetAcrossManyHostsClosingTheLeastRecentlyUsed() throws Exception {
        WireMockServer everyLoopback = new WireMockServer(options().dynamicPort().bindAddress("0.0.0.0"));
        everyLoopback.start();
        everyLoopback.stubFor(get("/page").willReturn(aResponse().withStatus(200).withBody("ok")));
        CountedSockets sockets = new CountedSockets(0);
        FetchConfig open = PROFILE.with(FETCH_ALLOW_PRIVATE_ADDRESSES, true).fetch();
        SocketBudget four = new SocketBudget(4, 2, Duration.ofMinutes(5), -1);
        AddressGuard guard = new AddressGuard(Dns.SYSTEM, true, Set.of(), Set.of());
        int hosts = 60; // 127.0.0.1 to 127.0.0.60: Linux routes 127/8 to the loopback interface
        try (HttpFetcher fetcher = HttpFetcher.watching(open, LIMITS, guard, Clock.systemUTC(), false, four,
                sockets)) {
            ExecutorService threads = Executors.newFixedThreadPool(2);
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int host = 1; host <= hosts; host++) {
                String page = "http://127.0.0." + host + ":" + everyLoopback.port() + "/page";
                statuses.add(threads.submit(() -> page(fetcher.fetch(page)).status()));
            }
            for (Future<Integer> status : statuses) {
                assertThat(status.get()).isEqualTo(200);
            }
            threads.shutdown();
            String last = "http://127.0.0." + (hosts + 1) + ":" + everyLoopback.port() + "/page";
            fetcher.fetch(last);
            int made = sockets.made();
            assertThat(page(fetcher.fetch(last)).status()).isEqualTo(200);

            assertThat(sockets.made()).as("a connection per host; the last one used again").isEqualTo(hosts + 1)
                    .isEqualTo(made);
            assertThat(sockets.mostOpen()).as("sockets open at once, at most: the budget").isLessThanOrEqualTo(4);
            assertThat(fetcher.openSockets()).isEqualTo(sockets.open()).isLessThanOrEqualTo(4);
        } finally {
            everyLoopback.stop();
        }
        assertThat(sockets.open()).as("closed with the fetcher").isZero();
    }

    @Test
    void spreadsConnectionsOverPoolsByHostFindingEachHostsOwnAndKeepingTheBudgetAcrossThem() throws Exception {
        WireMockServer everyLoopback = new WireMockServer(options().dynamicPort().bindAddress("0.0.0.0"));
        everyLoopback.start();
        everyLoopback.stubFor(get("/page").willReturn(aResponse().withStatus(200).withBody("ok")));
        CountedSockets sockets = new CountedSockets(0);
        FetchConfig open = PROFILE.with(FETCH_ALLOW_PRIVATE_ADDRESSES, true).fetch();
        SocketBudget budget = new SocketBudget(48, 2, Duration.ofMinutes(5), -1);
        assertThat(PoolSweeper.shardsFor(budget.total())).as("pools").isEqualTo(3);
        AddressGuard guard = new AddressGuard(Dns.SYSTEM, true, Set.of(), Set.of());
        try (HttpFetcher fetcher = HttpFetcher.watching(open, LIMITS, guard, Clock.systemUTC(), false, budget,
                sockets)) {
            int kept = 40; // fewer than the budget: every one stays pooled
            for (int round = 0; round < 2; round++) {
                for (int host = 1; host <= kept; host++) {
                    assertThat(page(fetcher.fetch("http://127.0.1." + host + ":" + everyLoopback.port() + "/page"))
                            .status()).isEqualTo(200);
                }
            }
            assertThat(sockets.made()).as("one connection per host, found again in its host's pool").isEqualTo(kept);

            for (int host = 1; host <= 120; host++) {
                fetcher.fetch("http://127.0.2." + host + ":" + everyLoopback.port() + "/page");
            }
            assertThat(sockets.made()).isEqualTo(kept + 120);
            assertThat(sockets.mostOpen()).as("sockets open at once across the pools, at most").isLessThanOrEqualTo(48);
            assertThat(fetcher.openSockets()).isEqualTo(sockets.open()).isLessThanOrEqualTo(48);
        } finally {
            everyLoopback.stop();
        }
        assertThat(sockets.open()).as("closed with the fetcher").isZero();
    }

    @Test
    void checksALinkWithHeadAndWithGetOnlyWhereHeadIsRefused() {
        server.stubFor(head(urlEqualTo("/ok")).willReturn(aResponse().withStatus(200)));
        server.stubFor(head(urlEqualTo("/gone")).willReturn(aResponse().withStatus(404)));
        server.stubFor(head(urlEqualTo("/no-head")).willReturn(aResponse().withStatus(405)));
        server.stubFor(get(urlEqualTo("/no-head")).willReturn(aResponse().withStatus(200).withBody("x".repeat(100_000))));

        assertThat(page(fetcher.check(url("/ok"))).status()).isEqualTo(200);
        assertThat(page(fetcher.check(url("/gone"))).status()).isEqualTo(404);
        FetchResult.Page refused = page(fetcher.check(url("/no-head")));

        assertThat(refused.status()).as("the GET's answer").isEqualTo(200);
        assertThat(refused.length()).as("its body read up to the check's bound").isEqualTo(HttpFetcher.CHECK_BYTES);
        server.verify(0, getRequestedFor(urlEqualTo("/ok")));
        server.verify(0, getRequestedFor(urlEqualTo("/gone")));
        server.verify(1, getRequestedFor(urlEqualTo("/no-head")));
    }

    @Test
    void sendsAnEarlierFetchsValidatorsBackAndReadsA304AsAPageWithoutBody() {
        String lastModified = "Wed, 21 Oct 2015 07:28:00 GMT";
        server.stubFor(get(urlEqualTo("/same")).withHeader("If-None-Match", equalTo("\"64a3\""))
                .withHeader("If-Modified-Since", equalTo(lastModified)).willReturn(aResponse().withStatus(304)
                        .withHeader("ETag", "\"64a3\"")));
        server.stubFor(get(urlEqualTo("/changed")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "text/html").withHeader("ETag", "\"new\"").withBody("<p>new</p>")));

        FetchResult.Page same = page(fetcher.fetch(url("/same"), new Validators("\"64a3\"", lastModified)));
        FetchResult.Page changed = page(fetcher.fetch(url("/changed"), new Validators("\"old\"", null)));
        FetchResult.Page plain = page(fetcher.fetch(url("/changed")));
        // an earlier record is read from disk, hostile: a validator that is no valid header value is left out
        FetchResult.Page hostile = page(fetcher.fetch(url("/changed"),
                new Validators("\"a\r\nX-Injected: 1\"", "caf\u00e9")));

        assertThat(same.status()).isEqualTo(304);
        assertThat(same.length()).isZero();
        assertThat(changed.status()).isEqualTo(200);
        assertThat(changed.headers().get("ETag")).isEqualTo("\"new\"");
        assertThat(plain.status()).isEqualTo(200);
        assertThat(hostile.status()).isEqualTo(200);
        server.verify(1, getRequestedFor(urlEqualTo("/changed")).withHeader("If-None-Match", equalTo("\"old\""))
                .withoutHeader("If-Modified-Since"));
        server.verify(2, getRequestedFor(urlEqualTo("/changed")).withoutHeader("If-None-Match"));
        server.verify(0, getRequestedFor(urlEqualTo("/changed")).withHeader("X-Injected", matching(".*")));
    }

    @Test
    void fetchesAnHtmlPage() {
        String html = "<html><body><a href=\"/a\">a</a></body></html>";
        server.stubFor(get("/").willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "text/html; charset=utf-8").withHeader("X-Fixture", "home")
                .withBody(html)));

        FetchResult.Page page = page(fetcher.fetch(url("/")));

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.contentType()).isEqualTo("text/html; charset=utf-8");
        assertThat(new String(page.body(), StandardCharsets.UTF_8)).isEqualTo(html);
        assertThat(page.length()).isEqualTo(page.body().length);
        assertThat(page.truncated()).isFalse();
        assertThat(page.remoteAddress()).isEqualTo("127.0.0.1");
        assertThat(page.headers().get("X-Fixture")).isEqualTo("home");
        assertThat(page.fetchMillis()).isNotNegative();
        assertThat(fetcher.isParseable(page.contentType())).isTrue();
    }

    @Test
    void returnsA404AsAPageWithItsStatus() {
        server.stubFor(get("/missing").willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "text/html").withBody("<h1>not found</h1>")));

        FetchResult.Page page = page(fetcher.fetch(url("/missing")));

        assertThat(page.status()).isEqualTo(404);
        assertThat(new String(page.body(), StandardCharsets.UTF_8)).isEqualTo("<h1>not found</h1>");
    }

    @Test
    void returnsA500AsAPageWithItsStatus() {
        server.stubFor(get("/broken").willReturn(aResponse().withStatus(500).withBody("oops")));

        assertThat(page(fetcher.fetch(url("/broken"))).status()).isEqualTo(500);
    }

    @Test
    void returnsA301WithItsRawRelativeLocationWithoutFollowingIt() {
        server.stubFor(get("/old/page").willReturn(aResponse().withStatus(301).withHeader("Location", "../new?x=1")));

        FetchResult result = fetcher.fetch(url("/old/page"));

        assertThat(result).isInstanceOf(FetchResult.Redirect.class);
        FetchResult.Redirect redirect = (FetchResult.Redirect) result;
        assertThat(redirect.status()).isEqualTo(301);
        assertThat(redirect.location()).isEqualTo("../new?x=1");
        assertThat(redirect.remoteAddress()).isEqualTo("127.0.0.1");
        server.verify(1, anyRequestedFor(anyUrl()));
    }

    @Test
    void returnsEachRedirectStatusAsARedirect() {
        for (int status : new int[] {301, 302, 303, 307, 308}) {
            server.stubFor(get("/r" + status).willReturn(aResponse().withStatus(status).withHeader("Location", "/t")));

            FetchResult result = fetcher.fetch(url("/r" + status));

            assertThat(result).as("HTTP %d", status).isInstanceOf(FetchResult.Redirect.class);
            assertThat(((FetchResult.Redirect) result).status()).isEqualTo(status);
        }
    }

    @Test
    void reportsA429WithItsRetryAfterInSeconds() {
        server.stubFor(get("/busy").willReturn(aResponse().withStatus(429).withHeader("Retry-After", "120")));

        FetchResult.Failure failure = failure(fetcher.fetch(url("/busy")));

        assertThat(failure.kind()).isEqualTo(FailureKind.RETRYABLE_STATUS);
        assertThat(failure.kind().retryable()).isTrue();
        assertThat(failure.status()).isEqualTo(429);
        assertThat(failure.retryAfter()).isEqualTo(Duration.ofSeconds(120));
        assertThat(failure.detail()).contains("429", url("/busy"));
    }

    @Test
    void reportsA429WithItsRetryAfterAsAnHttpDateMeasuredFromTheClock() {
        Clock clock = Clock.fixed(Instant.parse("2024-01-01T00:00:00Z"), ZoneOffset.UTC);
        server.stubFor(get("/busy").willReturn(aResponse().withStatus(429)
                .withHeader("Retry-After", "Mon, 01 Jan 2024 00:01:30 GMT")));

        try (HttpFetcher clocked = new HttpFetcher(CONFIG, LIMITS, new Settings(SEED_HOSTS, clock, false, null,
                System.getenv()))) {
            FetchResult.Failure failure = failure(clocked.fetch(url("/busy")));

            assertThat(failure.retryAfter()).isEqualTo(Duration.ofSeconds(90));
        }
    }

    @Test
    void ignoresAnInvalidRetryAfter() {
        server.stubFor(get("/busy").willReturn(aResponse().withStatus(429).withHeader("Retry-After", "later")));

        assertThat(failure(fetcher.fetch(url("/busy"))).retryAfter()).isNull();
    }

    @Test
    void reportsA503AsARetryableStatus() {
        server.stubFor(get("/down").willReturn(aResponse().withStatus(503).withBody("maintenance")));

        FetchResult.Failure failure = failure(fetcher.fetch(url("/down")));

        assertThat(failure.kind()).isEqualTo(FailureKind.RETRYABLE_STATUS);
        assertThat(failure.status()).isEqualTo(503);
        assertThat(failure.retryAfter()).isNull();
    }

    @Test
    void reportsARefusedConnection() throws IOException {
        int port = closedPort();

        FetchResult.Failure failure = failure(fetcher.fetch("http://127.0.0.1:" + port + "/"));

        assertThat(failure.kind()).isEqualTo(FailureKind.REFUSED);
        assertThat(failure.kind().retryable()).isTrue();
        assertThat(failure.kind().unreachable()).isTrue();
        assertThat(failure.status()).isZero();
        assertThat(failure.detail()).isEqualTo("connect to 127.0.0.1:" + port + " refused");
    }

    @Test
    void reportsAReadTimeout() {
        server.stubFor(get("/slow").willReturn(aResponse().withStatus(200).withBody("late").withFixedDelay(3000)));
        FetchConfig impatient =
                PROFILE.with(FETCH_CONNECT_TIMEOUT, Duration.ofMillis(800))
                        .with(FETCH_READ_TIMEOUT, Duration.ofMillis(300))
                        .with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(5)).fetch();

        try (HttpFetcher quick = new HttpFetcher(impatient, LIMITS, Settings.of(SEED_HOSTS))) {
            FetchResult.Failure failure = failure(quick.fetch(url("/slow")));

            assertThat(failure.kind()).isEqualTo(FailureKind.TIMEOUT);
            assertThat(failure.detail()).isEqualTo("read from " + url("/slow") + " timed out after 300 ms");
        }
    }

    @Test
    void reportsAConnectionResetAsALostConnection() {
        server.stubFor(get("/reset").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        assertThat(failure(fetcher.fetch(url("/reset"))).kind()).isEqualTo(FailureKind.CONNECTION_LOST);
    }

    @Test
    void reportsAConnectionClosedBeforeAnyResponseAsALostConnection() {
        server.stubFor(get("/empty").willReturn(aResponse().withFault(Fault.EMPTY_RESPONSE)));

        FetchResult.Failure failure = failure(fetcher.fetch(url("/empty")));

        assertThat(failure.kind()).as(failure.detail()).isEqualTo(FailureKind.CONNECTION_LOST);
        assertThat(failure.detail()).startsWith("127.0.0.1:" + server.port() + " closed the connection early");
    }

    @Test
    void reportsAMalformedChunkAsAProtocolFailureWithTheStatus() {
        server.stubFor(get("/chunks").willReturn(aResponse().withFault(Fault.MALFORMED_RESPONSE_CHUNK)));

        FetchResult.Failure failure = failure(fetcher.fetch(url("/chunks")));

        assertThat(failure.kind()).as(failure.detail()).isEqualTo(FailureKind.PROTOCOL);
        assertThat(failure.status()).isEqualTo(200);
    }

    @Test
    void truncatesAHugeBodyAtTheCap() {
        byte[] huge = new byte[4 * CAP];
        Arrays.fill(huge, (byte) 'x');
        server.stubFor(get("/huge").willReturn(aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                .withBody(huge)));

        FetchResult.Page page = page(fetcher.fetch(url("/huge")));

        assertThat(page.length()).isEqualTo(CAP);
        assertThat(page.body()).hasSize(CAP);
        assertThat(page.truncated()).isTrue();
    }

    @Test
    void decompressesAGzipBody() throws IOException {
        String html = "<html>" + "<p>zipped</p>".repeat(100) + "</html>";
        server.stubFor(get("/zipped").willReturn(aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                .withHeader("Content-Encoding", "gzip").withBody(gzip(html.getBytes(StandardCharsets.UTF_8)))));

        FetchResult.Page page = page(fetcher.fetch(url("/zipped")));

        assertThat(new String(page.body(), StandardCharsets.UTF_8)).isEqualTo(html);
        assertThat(page.truncated()).isFalse();
        server.verify(getRequestedFor(urlEqualTo("/zipped")).withHeader("Accept-Encoding", equalTo("gzip")));
    }

    @Test
    void stopsAGzipBombAtTheCap() throws IOException {
        byte[] bomb = gzip(new byte[16 * 1024 * 1024]); // about 16 KiB that inflates to 16 MiB, 256 times the cap
        server.stubFor(get("/bomb").willReturn(aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                .withHeader("Content-Encoding", "gzip").withBody(bomb)));

        FetchResult.Page page = page(fetcher.fetch(url("/bomb")));

        assertThat(bomb.length).isLessThan(CAP * 2);
        assertThat(page.length()).isEqualTo(CAP);
        assertThat(page.truncated()).isTrue();
    }

    @Test
    void returnsANonHtmlPageThatIsNotParseable() {
        server.stubFor(get("/logo.png").willReturn(aResponse().withStatus(200).withHeader("Content-Type", "image/png")
                .withBody(new byte[] {(byte) 0x89, 'P', 'N', 'G'})));

        FetchResult.Page page = page(fetcher.fetch(url("/logo.png")));

        assertThat(page.contentType()).isEqualTo("image/png");
        assertThat(page.body()).hasSize(4);
        assertThat(fetcher.isParseable(page.contentType())).isFalse();
    }

    @Test
    void returnsAPageWithoutContentTypeAsNotParseable() {
        server.stubFor(get("/bare").willReturn(aResponse().withStatus(200).withBody("bare")));

        FetchResult.Page page = page(fetcher.fetch(url("/bare")));

        assertThat(page.contentType()).isNull();
        assertThat(fetcher.isParseable(page.contentType())).isFalse();
    }

    @Test
    void sendsTheProfileUserAgent() {
        server.stubFor(get("/").willReturn(aResponse().withStatus(200)));

        fetcher.fetch(url("/"));

        server.verify(getRequestedFor(urlEqualTo("/")).withHeader("User-Agent", equalTo(USER_AGENT)));
    }

    @Test
    void refusesAHostThatResolvesToLoopbackAtDns() {
        server.stubFor(get("/").willReturn(aResponse().withStatus(200)));

        try (HttpFetcher guarded = new HttpFetcher(CONFIG, LIMITS, Settings.of(Set.of()))) {
            FetchResult.Failure failure = failure(guarded.fetch("http://localhost:" + server.port() + "/"));

            assertThat(failure.kind()).isEqualTo(FailureKind.PRIVATE_ADDRESS);
            assertThat(failure.kind().retryable()).isFalse();
            assertThat(failure.detail()).contains("\"localhost\"", "fetch.allow-private-addresses");
        }
        server.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void refusesLoopbackWrittenAsAnIpLiteral() {
        try (HttpFetcher guarded = new HttpFetcher(CONFIG, LIMITS, Settings.of(Set.of()))) {
            for (String host : List.of("127.0.0.1", "2130706433", "[::1]")) {
                FetchResult.Failure failure = failure(guarded.fetch("http://" + host + ":" + server.port() + "/"));

                assertThat(failure.kind()).as(host).isEqualTo(FailureKind.PRIVATE_ADDRESS);
            }
        }
        server.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void goesThroughTheProfilesProxyWhoseLoopbackHostTheGuardLetsThrough() {
        server.stubFor(get("/page").willReturn(aResponse().withStatus(200).withBody("via the proxy")));
        FetchConfig proxied = PROFILE.with(FETCH_PROXY, "http://localhost:" + server.port()).fetch();

        try (HttpFetcher viaProxy = new HttpFetcher(proxied, LIMITS, new Settings(Set.of(), Clock.systemUTC(), false,
                null, Map.of()))) {
            FetchResult.Page page = page(viaProxy.fetch("http://site.invalid/page"));

            assertThat(new String(page.body(), StandardCharsets.UTF_8)).isEqualTo("via the proxy");
        }
        server.verify(getRequestedFor(urlEqualTo("/page")).withHeader("Host", equalTo("site.invalid")));
    }

    @Test
    void takesTheProxyFromTheEnvironmentExceptForTheHostsOfNoProxy() throws IOException {
        server.stubFor(get("/page").willReturn(aResponse().withStatus(200).withBody("ok")));
        int nothingListens = closedPort();
        Map<String, String> env = Map.of("http_proxy", "http://127.0.0.1:" + server.port(),
                "no_proxy", "example.test, 127.0.0.1:" + nothingListens);

        try (HttpFetcher viaEnv = new HttpFetcher(CONFIG, LIMITS, new Settings(SEED_HOSTS, Clock.systemUTC(), false,
                null, env))) {
            assertThat(page(viaEnv.fetch("http://site.invalid/page")).status()).isEqualTo(200);
            FetchResult.Failure direct = failure(viaEnv.fetch("http://127.0.0.1:" + nothingListens + "/page"));

            assertThat(direct.kind()).as("no_proxy: straight to a closed port").isEqualTo(FailureKind.REFUSED);
        }
        server.verify(1, getRequestedFor(urlEqualTo("/page")));
    }

    @Test
    void sendsTheProfilesHeadersWithPagesAndRobotsTxt() {
        server.stubFor(get("/").willReturn(aResponse().withStatus(200).withBody("page")));
        server.stubFor(get("/robots.txt").willReturn(aResponse().withStatus(200).withBody("User-agent: *\n")));
        FetchConfig withHeaders = PROFILE.with(FETCH_HEADERS, List.of("From: crawler@example.org", "X-Team: crawl"))
                .fetch();

        try (HttpFetcher headed = new HttpFetcher(withHeaders, LIMITS, Settings.of(SEED_HOSTS))) {
            headed.fetch(url("/"));
            headed.fetchAnyStatus(url("/robots.txt"), CAP); // each attempt of a robots.txt fetch
        }
        for (String path : List.of("/", "/robots.txt")) {
            server.verify(getRequestedFor(urlEqualTo(path)).withHeader("From", equalTo("crawler@example.org"))
                    .withHeader("X-Team", equalTo("crawl")).withHeader("User-Agent", equalTo(USER_AGENT)));
        }
    }

    @Test
    void fetchesLocalhostWhenTheProfileAllowsPrivateAddresses() {
        server.stubFor(get("/").willReturn(aResponse().withStatus(200).withBody("local")));

        FetchConfig allowing = PROFILE.with(FETCH_ALLOW_PRIVATE_ADDRESSES, true).fetch();
        try (HttpFetcher open = new HttpFetcher(allowing, LIMITS, Settings.of(Set.of()))) {
            FetchResult.Page page = page(open.fetch("http://localhost:" + server.port() + "/"));

            assertThat(new String(page.body(), StandardCharsets.UTF_8)).isEqualTo("local");
        }
    }

    @Test
    void reportsAnInvalidUrlNamingIt() {
        for (String bad : new String[] {"not a url", "ftp://127.0.0.1/file", "/relative/path", "", null}) {
            FetchResult.Failure failure = failure(fetcher.fetch(bad));

            assertThat(failure.kind()).as(bad).isEqualTo(FailureKind.INVALID_URL);
            assertThat(failure.detail()).contains("\"" + bad + "\"");
        }
    }

    @ParameterizedTest(name = "\"{0}\" parseable={1}")
    @CsvFileSource(resources = "/fetch/content-types.tsv", delimiter = '\t', ignoreLeadingAndTrailingWhitespace = false)
    void parsesOnlyAcceptedMediaTypes(String contentType, boolean expected) {
        assertThat(HttpFetcher.isParseable(contentType, List.of("text/html", "application/xhtml+xml")))
                .isEqualTo(expected);
    }

    @Test
    void reportsAHostUnderInvalidAsUnknownAndUnreachable() {
        try (HttpFetcher any = new HttpFetcher(CONFIG, LIMITS, Settings.of(Set.of("down.invalid")))) {
            FetchResult.Failure failure = failure(any.fetch("http://down.invalid/"));

            assertThat(failure.kind()).as(failure.detail()).isEqualTo(FailureKind.DNS);
            assertThat(failure.kind().unreachableReason()).isEqualTo("unknown host");
        }
    }

    @Test
    void sendsAGetAgainAtOnceOnAFreshConnectionWhenTheServerClosedThePooledOne() throws IOException {
        try (SocketSite site = SocketSite.keepAlive(Map.of("/", "<title>home</title>"), Duration.ofMinutes(1))) {
            assertThat(page(fetcher.fetch(site.url("/"))).status()).isEqualTo(200);
            site.closeIdleConnections();

            FetchResult.Page again = page(fetcher.fetch(site.url("/")));

            assertThat(again.status()).isEqualTo(200);
            assertThat(site.idleClosed()).isEqualTo(1);
            assertThat(site.connections()).isEqualTo(2);
            assertThat(fetcher.reconnects()).isEqualTo(1);
        }
    }

    @Test
    void keepsUsingAPooledConnectionTheServerKeepsOpen() throws IOException {
        try (SocketSite site = SocketSite.keepAlive(Map.of("/", "<title>home</title>"), Duration.ofMinutes(1))) {
            for (int i = 0; i < 3; i++) {
                assertThat(page(fetcher.fetch(site.url("/"))).status()).isEqualTo(200);
            }

            assertThat(site.connections()).isEqualTo(1);
            assertThat(fetcher.reconnects()).isZero();
        }
    }

    @Test
    void neverPoolsAnHttp10ConnectionThatDoesNotAskForKeepAlive() throws IOException {
        try (SocketSite site = SocketSite.http10(Map.of("/", "<title>home</title>"))) {
            for (int i = 0; i < 3; i++) {
                assertThat(page(fetcher.fetch(site.url("/"))).status()).isEqualTo(200);
            }

            assertThat(site.connections()).isEqualTo(3);
            assertThat(fetcher.reconnects()).as("no request went out on a closed connection").isZero();
        }
    }

    @Test
    void doesNotSendAGetAgainAfterAReadTimeoutOnAPooledConnection() {
        server.stubFor(get("/fast").willReturn(aResponse().withStatus(200).withBody("fast")));
        server.stubFor(get("/slow").willReturn(aResponse().withStatus(200).withBody("late").withFixedDelay(1500)));
        FetchConfig impatient =
                PROFILE.with(FETCH_CONNECT_TIMEOUT, Duration.ofMillis(800))
                        .with(FETCH_READ_TIMEOUT, Duration.ofMillis(300))
                        .with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(5)).fetch();

        try (HttpFetcher quick = new HttpFetcher(impatient, LIMITS, Settings.of(SEED_HOSTS))) {
            page(quick.fetch(url("/fast")));
            FetchResult.Failure failure = failure(quick.fetch(url("/slow")));

            assertThat(failure.kind()).isEqualTo(FailureKind.TIMEOUT);
            assertThat(quick.reconnects()).isZero();
            server.verify(1, getRequestedFor(urlEqualTo("/slow")));
        }
    }

    // Capturing exchanges (for WARC output)

    private static HttpExchange exchange(FetchResult result) {
        assertThat(result.exchange()).as("captured exchange of %s", result).isNotNull();
        return result.exchange();
    }

    /** The response of a captured exchange, as received. */
    private static CapturedResponse.Received received(FetchResult result) {
        assertThat(exchange(result).response()).isInstanceOf(CapturedResponse.Received.class);
        return (CapturedResponse.Received) exchange(result).response();
    }

    private static CapturedResponse.Received received(HttpExchange exchange) {
        assertThat(exchange.response()).isInstanceOf(CapturedResponse.Received.class);
        return (CapturedResponse.Received) exchange.response();
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    @Test
    void capturesNothingUnlessAskedTo() {
        server.stubFor(get("/").willReturn(aResponse().withStatus(200).withBody("plain")));

        assertThat(fetcher.fetch(url("/")).exchange()).isNull();
    }

    @Test
    void capturesTheRequestAndResponseAsTheyCrossedTheWire() {
        String html = "<html><body>captured</body></html>";
        server.stubFor(get("/page?x=1").willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "text/html").withHeader("X-Fixture", "Home").withBody(html)));

        try (HttpFetcher capturing = new HttpFetcher(CONFIG, LIMITS, Settings.capturing(SEED_HOSTS))) {
            FetchResult.Page page = page(capturing.fetch(url("/page?x=1")));
            HttpExchange exchange = exchange(page);

            assertThat(exchange.url()).isEqualTo(url("/page?x=1"));
            assertThat(exchange.remoteAddress()).isEqualTo("127.0.0.1");
            assertThat(exchange.date()).isBeforeOrEqualTo(Instant.now());
            assertThat(text(exchange.requestHead())).startsWith("GET /page?x=1 HTTP/1.1\r\n")
                    .contains("\r\nHost: 127.0.0.1:" + server.port() + "\r\n", "\r\nUser-Agent: " + USER_AGENT + "\r\n",
                            "\r\nAccept-Encoding: gzip\r\n")
                    .endsWith("\r\n\r\n");
            CapturedResponse.Received response = received(exchange);
            assertThat(text(response.head())).startsWith("HTTP/1.1 200 OK\r\n")
                    .contains("\r\nContent-Type: text/html\r\nX-Fixture: Home\r\n").endsWith("\r\n\r\n")
                    .contains("\r\nTransfer-Encoding: chunked\r\n"); // WireMock sends it chunked
            assertThat(text(response.body())).endsWith(html + "\r\n0\r\n\r\n");
            assertThat(response.payload()).isEqualTo(html.getBytes(StandardCharsets.UTF_8)).isSameAs(page.body());
            assertThat(response.truncated()).isFalse();
        }
    }

    @Test
    void keepsAGzipBodyAsTransferredAndDecodesItForTheCrawl() throws IOException {
        String html = "<html>" + "<p>zipped</p>".repeat(100) + "</html>";
        byte[] zipped = gzip(html.getBytes(StandardCharsets.UTF_8));
        server.stubFor(get("/zipped").willReturn(aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                .withHeader("Content-Encoding", "gzip").withBody(zipped)));

        try (HttpFetcher capturing = new HttpFetcher(CONFIG, LIMITS, Settings.capturing(SEED_HOSTS))) {
            FetchResult.Page page = page(capturing.fetch(url("/zipped")));

            assertThat(new String(page.body(), StandardCharsets.UTF_8)).isEqualTo(html);
            assertThat(page.truncated()).isFalse();
            assertThat(received(page).payload()).isEqualTo(zipped);
            assertThat(received(page).truncated()).isFalse();
            assertThat(text(received(page).head())).contains("\r\nContent-Encoding: gzip\r\n");
        }
    }

    @Test
    void cutsTheCapturedBodyAtTheCapAndSaysSo() {
        byte[] huge = new byte[4 * CAP];
        Arrays.fill(huge, (byte) 'x');
        server.stubFor(get("/huge").willReturn(aResponse().withStatus(200).withBody(huge)));

        try (HttpFetcher capturing = new HttpFetcher(CONFIG, LIMITS, Settings.capturing(SEED_HOSTS))) {
            FetchResult.Page page = page(capturing.fetch(url("/huge")));

            assertThat(page.truncated()).isTrue();
            assertThat(received(page).payload()).hasSize(CAP);
            assertThat(received(page).truncated()).isTrue();
        }
    }

    @Test
    void stopsACapturedGzipBombAtTheCapKeepingOnlyTheBytesRead() throws IOException {
        byte[] bomb = gzip(new byte[16 * 1024 * 1024]);
        server.stubFor(get("/bomb").willReturn(aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                .withHeader("Content-Encoding", "gzip").withBody(bomb)));

        try (HttpFetcher capturing = new HttpFetcher(CONFIG, LIMITS, Settings.capturing(SEED_HOSTS))) {
            FetchResult.Page page = page(capturing.fetch(url("/bomb")));

            assertThat(page.length()).isEqualTo(CAP);
            assertThat(page.truncated()).isTrue();
            assertThat(received(page).payload().length).isLessThan(bomb.length);
            assertThat(bomb).startsWith(received(page).payload());
            assertThat(received(page).truncated()).isTrue();
        }
    }

    @Test
    void keepsAGzipBodyWhoseTransferIsCutAtTheCapAndWhatItInflatedTo() throws IOException {
        byte[] noise = new byte[3 * CAP];
        new java.util.Random(7).nextBytes(noise); // does not compress: the gzip body passes the cap first
        byte[] zipped = gzip(noise);
        server.stubFor(get("/noise").willReturn(aResponse().withStatus(200)
                .withHeader("Content-Encoding", "gzip").withBody(zipped)));

        try (HttpFetcher capturing = new HttpFetcher(CONFIG, LIMITS, Settings.capturing(SEED_HOSTS))) {
            FetchResult.Page page = page(capturing.fetch(url("/noise")));

            assertThat(page.truncated()).isTrue();
            assertThat(noise).startsWith(page.body());
            assertThat(received(page).payload()).hasSize(CAP);
            assertThat(zipped).startsWith(received(page).payload());
            assertThat(received(page).truncated()).isTrue();
        }
    }

    @Test
    void reportsAHeadLineOverOkHttpsLimitAsAProtocolErrorNotRetriedAndAShortCutOneAsALostConnection()
            throws Exception {
        String longLine = "HTTP/1.1 200 OK\r\nX-Long: " + "a".repeat(300 * 1024) + "\r\n\r\n";
        String cutLine = "HTTP/1.1 200 OK\r\nX-Cut: " + "a".repeat(100);
        for (String raw : List.of(longLine, cutLine)) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
                Thread answer = new Thread(() -> {
                    try (java.net.Socket client = socket.accept()) {
                        client.getInputStream().read(new byte[4096]);
                        client.getOutputStream().write(raw.getBytes(StandardCharsets.ISO_8859_1));
                    } catch (IOException e) {
                        // the fetcher may hang up before the whole line is written: that is the point
                    }
                }, "raw-server");
                answer.start();

                FetchResult.Failure failure = failure(fetcher.fetch("http://127.0.0.1:" + socket.getLocalPort() + "/"));
                answer.join(5000);

                if (raw == longLine) {
                    assertThat(failure.kind()).isEqualTo(FailureKind.PROTOCOL);
                    assertThat(failure.kind().retryable()).isFalse();
                    assertThat(failure.detail()).contains("has a line of more than").contains("256 KiB");
                } else {
                    assertThat(failure.kind()).isEqualTo(FailureKind.CONNECTION_LOST);
                    assertThat(failure.detail()).contains("closed the connection early");
                }
            }
        }
    }

    @Test
    void capturesAChunkedBodyAsReceivedWithItsHeadAndItsPayloadDechunked() throws Exception {
        String head = "HTTP/1.1 200 Fine\r\nX-Mixed-CASE: a\r\nTransfer-Encoding: chunked\r\n"
                + "Content-Type: text/plain\r\nConnection: close\r\n\r\n";
        String body = "5;name=value\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n";
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
                HttpFetcher capturing = new HttpFetcher(CONFIG, LIMITS, Settings.capturing(SEED_HOSTS))) {
            Thread answer = new Thread(() -> {
                try (java.net.Socket client = socket.accept()) {
                    client.getInputStream().read(new byte[4096]);
                    client.getOutputStream().write((head + body).getBytes(StandardCharsets.ISO_8859_1));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, "raw-server");
            answer.start();

            FetchResult.Page page = page(capturing.fetch("http://127.0.0.1:" + socket.getLocalPort() + "/chunked"));
            answer.join(5000);

            assertThat(text(received(page).head())).isEqualTo(head);
            assertThat(text(received(page).body())).isEqualTo(body);
            assertThat(text(received(page).payload())).isEqualTo("hello world");
            assertThat(received(page).chunked()).isTrue();
            assertThat(received(page).truncated()).isFalse();
        }
    }

    @Test
    void capturesRedirectsAndRetryableErrorsWithTheirBodies() {
        server.stubFor(get("/old").willReturn(aResponse().withStatus(301).withHeader("Location", "/new")
                .withBody("moved")));
        server.stubFor(get("/busy").willReturn(aResponse().withStatus(503).withBody("try later")));

        try (HttpFetcher capturing = new HttpFetcher(CONFIG, LIMITS, Settings.capturing(SEED_HOSTS))) {
            FetchResult redirect = capturing.fetch(url("/old"));
            FetchResult busy = capturing.fetch(url("/busy"));

            assertThat(redirect).isInstanceOf(FetchResult.Redirect.class);
            assertThat(text(received(redirect).head())).startsWith("HTTP/1.1 301 Moved Permanently\r\n")
                    .contains("\r\nLocation: /new\r\n");
            assertThat(text(received(redirect).payload())).isEqualTo("moved");
            assertThat(failure(busy).kind()).isEqualTo(FailureKind.RETRYABLE_STATUS);
            assertThat(text(received(busy).head())).startsWith("HTTP/1.1 503 Service Unavailable\r\n");
            assertThat(text(received(busy).payload())).isEqualTo("try later");
        }
    }}
