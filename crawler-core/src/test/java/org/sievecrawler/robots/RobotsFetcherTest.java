package org.sievecrawler.robots;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sievecrawler.fetch.CapturedResponse;
import org.sievecrawler.fetch.FailureKind;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.fetch.HttpFetcher;
import org.sievecrawler.fetch.HttpFetcher.Settings;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.FetchConfig;
import org.sievecrawler.profile.ProfileKeys;
import org.sievecrawler.profile.LimitsConfig;

/**
 * {@link RobotsFetcher} against WireMock and raw sockets on 127.0.0.1: redirects followed up to five (RFC 9309
 * 2.3.1.2), each hop through the address guard, the body capped at 500 KiB, statuses returned as they are, and what
 * led nowhere told apart (unavailable) from what could not be reached.
 */
class RobotsFetcherTest {
    /** Private addresses refused (the default, as in production); the WireMock host is allowed as a seed's is. */
    private static final FetchConfig CONFIG = FetchConfig.defaults();
    private static final LimitsConfig LIMITS = LimitsConfig.defaults();
    private static final Set<String> SEED_HOSTS = Set.of("127.0.0.1");

    @RegisterExtension
    static final WireMockExtension server = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1").gzipDisabled(true)).build();

    private HttpFetcher fetcher;
    private RobotsFetcher robotsFetcher;

    @BeforeEach
    void createFetcher() {
        fetcher = new HttpFetcher(CONFIG, LIMITS, Settings.of(SEED_HOSTS));
        robotsFetcher = new RobotsFetcher(fetcher);
    }

    @AfterEach
    void closeFetcher() {
        fetcher.close();
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.getPort() + path;
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    @Test
    void fetchesRobotsThroughFiveRedirects() {
        server.stubFor(get("/robots.txt").willReturn(aResponse().withStatus(301).withHeader("Location", "/hop/1")));
        for (int hop = 1; hop < 5; hop++) {
            server.stubFor(get("/hop/" + hop).willReturn(aResponse().withStatus(302)
                    .withHeader("Location", String.valueOf(hop + 1)))); // relative to /hop/
        }
        server.stubFor(get("/hop/5").willReturn(aResponse().withStatus(200).withBody("User-agent: *\nDisallow: /x\n")));

        RobotsResponse robots = robotsFetcher.fetch(url("/robots.txt"));

        assertThat(robots.status()).isEqualTo(200);
        assertThat(robots.failed()).isFalse();
        assertThat(robots.error()).isNull();
        assertThat(robots.finalUrl()).isEqualTo(url("/hop/5"));
        assertThat(new String(robots.body(), StandardCharsets.UTF_8)).isEqualTo("User-agent: *\nDisallow: /x\n");
    }

    @Test
    void givesUpOnRobotsAfterTheFifthRedirect() {
        server.stubFor(get("/robots.txt").willReturn(aResponse().withStatus(301).withHeader("Location", "/hop/1")));
        for (int hop = 1; hop <= 5; hop++) {
            server.stubFor(get("/hop/" + hop).willReturn(aResponse().withStatus(301)
                    .withHeader("Location", "/hop/" + (hop + 1))));
        }
        server.stubFor(get("/hop/6").willReturn(aResponse().withStatus(200).withBody("User-agent: *\n")));

        RobotsResponse robots = robotsFetcher.fetch(url("/robots.txt"));

        assertThat(robots.status()).isZero();
        assertThat(robots.failed()).isTrue();
        assertThat(robots.unavailable()).as("RFC 9309 2.3.1.2: may be treated as unavailable").isTrue();
        assertThat(robots.error()).isEqualTo("robots.txt " + url("/robots.txt") + " redirected more than 5 times"
                + " (the last, from " + url("/hop/5") + ", to \"/hop/6\")");
        assertThat(robots.body()).isEmpty();
        server.verify(0, getRequestedFor(urlEqualTo("/hop/6")));
    }

    @Test
    void treatsARobotsRedirectWithoutLocationAsUnavailable() {
        server.stubFor(get("/robots.txt").willReturn(aResponse().withStatus(302)));

        RobotsResponse robots = robotsFetcher.fetch(url("/robots.txt"));

        assertThat(robots.unavailable()).isTrue();
        assertThat(robots.error()).isEqualTo("robots.txt redirect 302 from " + url("/robots.txt") + " has no Location");
    }

    /**
     * The exploit of issue 12: a seed's robots.txt redirected to another port of the same private address, and
     * the crawler fetched it, obeyed it and archived it. The hop obeys the rule of links: not a seed's host and
     * port, so refused before any connection; robots.txt is then unavailable (RFC 9309 2.3.1.2).
     */
    @Test
    void refusesARobotsRedirectToAnotherPortOfThePrivateSeed() throws IOException {
        try (ServerSocketChannel otherPort = ServerSocketChannel.open()) {
            otherPort.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            otherPort.configureBlocking(false);
            int p2 = ((InetSocketAddress) otherPort.getLocalAddress()).getPort();
            String seedOrigin = "127.0.0.1:" + server.getPort();
            for (String target : List.of("http://127.0.0.1:" + p2 + "/robots.txt", "http://localhost:" + p2
                    + "/robots.txt", "http://localhost:" + server.getPort() + "/robots.txt")) {
                server.resetAll();
                server.stubFor(get("/robots.txt").willReturn(aResponse().withStatus(301).withHeader("Location",
                        target)));
                try (HttpFetcher seeded = new HttpFetcher(CONFIG, LIMITS, Settings.capturing(Set.of(seedOrigin)))) {
                    RobotsResponse robots = new RobotsFetcher(seeded).fetch(url("/robots.txt"));

                    assertThat(robots.failure()).as(target).isEqualTo(FailureKind.PRIVATE_ADDRESS);
                    assertThat(robots.unavailable()).as(target).isTrue();
                    assertThat(robots.error()).as(target).startsWith("robots.txt redirect from " + url("/robots.txt")
                            + " to " + target + " refused: host ");
                    assertThat(robots.error()).as(target).contains("127.0.0.0/8 loopback");
                    assertThat(robots.exchanges()).as("only the seed's 301 is archived").hasSize(1);
                    assertThat(robots.exchanges().get(0).url()).isEqualTo(url("/robots.txt"));
                }
                assertThat(otherPort.accept()).as("a connection to the other port after %s", target).isNull();
                server.verify(1, anyRequestedFor(anyUrl()));
            }
        }
    }

    /**
     * Issue 24: a robots.txt redirect to {@code http://0x7f.1:PORT/}, a form of 127.0.0.1 that neither OkHttp nor the
     * JDK reads as an address, so the name does not resolve. The redirect leads nowhere: robots.txt is unavailable,
     * and the failure is not the seed host's, which answered.
     */
    @Test
    void treatsARobotsRedirectToANameThatDoesNotResolveAsUnavailable() {
        String target = "http://0x7f.1:" + server.getPort() + "/";
        server.stubFor(get("/robots.txt").willReturn(aResponse().withStatus(301).withHeader("Location", target)));

        RobotsResponse robots = robotsFetcher.fetch(url("/robots.txt"));

        assertThat(robots.unavailable()).as(robots.toString()).isTrue();
        assertThat(robots.hostUnreachable(url("/robots.txt"))).isFalse();
        assertThat(robots.error()).startsWith("robots.txt redirect from " + url("/robots.txt") + " to " + target
                + " leads nowhere: host \"0x7f.1\" did not resolve");
    }

    /**
     * A robots.txt redirect to another host that refuses the connection: robots.txt could not be fetched (RFC 9309
     * 2.3.1.4: disallowed until it can be), but the seed's host answered, so it is not the one unreachable.
     */
    @Test
    void blamesAnUnreachableRobotsRedirectTargetNotTheHostThatRedirected() throws IOException {
        int port = closedPort();
        server.stubFor(get("/robots.txt").willReturn(aResponse().withStatus(301)
                .withHeader("Location", "http://127.0.0.1:" + port + "/robots.txt")));

        FetchConfig allowing = CrawlProfile.defaults().with(ProfileKeys.FETCH_ALLOW_PRIVATE_ADDRESSES, true).fetch();
        try (HttpFetcher open = new HttpFetcher(allowing, LIMITS, Settings.of(SEED_HOSTS))) {
            RobotsResponse robots = new RobotsFetcher(open).fetch(url("/robots.txt"));

            assertThat(robots.failure()).isEqualTo(FailureKind.REFUSED);
            assertThat(robots.unavailable()).isFalse();
            assertThat(robots.hostUnreachable(url("/robots.txt"))).as("the seed's host answered").isFalse();
            assertThat(robots.hostUnreachable("http://127.0.0.1:" + port + "/robots.txt")).isTrue();
        }
    }

    @Test
    void capsTheRobotsBodyAt500KiB() {
        server.stubFor(get("/robots.txt").willReturn(aResponse().withStatus(200)
                .withBody("# comment line\n".repeat(40_000)))); // 600,000 bytes

        RobotsResponse robots = robotsFetcher.fetch(url("/robots.txt"));

        assertThat(robots.status()).isEqualTo(200);
        assertThat(robots.body()).hasSize(512_000);
    }

    @Test
    void returnsTheRobotsStatusUninterpreted() {
        server.stubFor(get("/robots.txt").willReturn(aResponse().withStatus(404).withBody("no robots here")));

        RobotsResponse robots = robotsFetcher.fetch(url("/robots.txt"));

        assertThat(robots.status()).isEqualTo(404);
        assertThat(robots.finalUrl()).isEqualTo(url("/robots.txt"));
    }

    /**
     * A 429 or a 5xx is robots.txt's status, which the policy reads (4xx allow everything, 5xx nothing): not a failure
     * of the attempt, as it is for a page.
     */
    @Test
    void returnsTheStatusesAPageWouldRetryAsTheRobotsStatus() {
        for (int status : new int[] {429, 502, 503, 504}) {
            server.stubFor(get("/robots.txt").willReturn(aResponse().withStatus(status).withBody("later")));

            RobotsResponse robots = robotsFetcher.fetch(url("/robots.txt"));

            assertThat(robots.status()).isEqualTo(status);
            assertThat(robots.failed()).isFalse();
            assertThat(new String(robots.body(), StandardCharsets.UTF_8)).isEqualTo("later");
        }
    }

    /** A body cut short is no answer: status 0, and the attempt's error as if no response came (no status in it). */
    @Test
    void reportsABodyCutShortAsStatusZero() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Thread answer = new Thread(() -> {
                try (Socket client = socket.accept()) {
                    client.getInputStream().read(new byte[4096]);
                    client.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nUser-agent: *\n"
                            .getBytes(StandardCharsets.ISO_8859_1));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, "raw-server");
            answer.start();
            String robotsUrl = "http://127.0.0.1:" + socket.getLocalPort() + "/robots.txt";

            RobotsResponse robots = robotsFetcher.fetch(robotsUrl);
            answer.join(5000);

            assertThat(robots.status()).isZero();
            assertThat(robots.body()).isEmpty();
            assertThat(robots.error())
                    .isEqualTo("invalid HTTP response from " + robotsUrl + ": unexpected end of stream");
        }
    }

    @Test
    void reportsARobotsNetworkErrorAsStatusZero() throws IOException {
        int port = closedPort();

        RobotsResponse robots = robotsFetcher.fetch("http://127.0.0.1:" + port + "/robots.txt");

        assertThat(robots.status()).isZero();
        assertThat(robots.error()).isEqualTo("connect to 127.0.0.1:" + port + " refused");
        assertThat(robots.failure()).isEqualTo(FailureKind.REFUSED);
        assertThat(robots.hostUnreachable("http://127.0.0.1:" + port + "/robots.txt")).isTrue();
    }

    @Test
    void reportsAnInvalidRobotsUrlAsStatusZeroNamingIt() {
        RobotsResponse robots = robotsFetcher.fetch("robots.txt");

        assertThat(robots.status()).isZero();
        assertThat(robots.error()).contains("\"robots.txt\"");
    }

    @Test
    void capturesEveryExchangeOfARobotsRedirectChain() {
        server.stubFor(get("/robots.txt").willReturn(aResponse().withStatus(302).withHeader("Location", "/real.txt")));
        server.stubFor(get("/real.txt").willReturn(aResponse().withStatus(200).withBody("User-agent: *\n")));

        try (HttpFetcher capturing = new HttpFetcher(CONFIG, LIMITS, Settings.capturing(SEED_HOSTS))) {
            RobotsResponse robots = new RobotsFetcher(capturing).fetch(url("/robots.txt"));

            assertThat(robots.exchanges()).extracting(HttpExchange::url)
                    .containsExactly(url("/robots.txt"), url("/real.txt"));
            assertThat(robots.exchanges().get(0).response()).isInstanceOfSatisfying(CapturedResponse.Received.class,
                    redirect -> assertThat(redirect.head()).asString(StandardCharsets.ISO_8859_1)
                            .startsWith("HTTP/1.1 302 "));
            assertThat(robots.exchanges().get(1).response()).isInstanceOfSatisfying(CapturedResponse.Received.class,
                    file -> assertThat(file.payload()).asString(StandardCharsets.ISO_8859_1)
                            .isEqualTo("User-agent: *\n"));
        }
        assertThat(robotsFetcher.fetch(url("/robots.txt")).exchanges()).isEmpty();
    }
}
