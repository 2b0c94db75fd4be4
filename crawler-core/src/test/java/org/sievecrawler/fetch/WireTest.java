package org.sievecrawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_PROXY;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.FETCH_TRUST_STORE;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGE_BYTES;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.net.SocketFactory;
import okhttp3.Dns;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fetch.HttpFetcher.Settings;
import org.sievecrawler.fixtures.RawHeadServer;
import org.sievecrawler.fixtures.RawHeads;
import org.sievecrawler.fixtures.TunnelProxy;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.FetchConfig;
import org.sievecrawler.profile.LimitsConfig;
import org.sievecrawler.robots.RobotsFetcher;
import org.sievecrawler.robots.RobotsResponse;
import org.sievecrawler.trust.TrustStore;

/**
 * The capture of each exchange's response as it came off the socket, through a capturing {@link HttpFetcher}, against
 * {@link RawHeadServer}'s table of hostile heads ({@code /http/raw-heads.tsv}): the head and body bytes against the
 * server's, on fresh and kept-alive connections, over TLS and through proxies; what OkHttp refused; and the head
 * rebuilt, saying why, when the bytes read are not the response's.
 */
class WireTest {
    private static final CrawlProfile PROFILE = CrawlProfile.defaults().with(FETCH_THREADS, 2)
            .with(FETCH_CONNECT_TIMEOUT, Duration.ofSeconds(2)).with(FETCH_READ_TIMEOUT, Duration.ofSeconds(2))
            .with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(5)).with(LIMITS_MAX_PAGE_BYTES, 64L * 1024);
    private static final FetchConfig CONFIG = PROFILE.fetch();
    private static final LimitsConfig LIMITS = PROFILE.limits();
    private static final Set<String> SEEDS = Set.of("127.0.0.1");
    private static RawHeadServer server;
    @TempDir
    Path folder;

    @BeforeAll
    static void startServer() throws IOException {
        server = RawHeadServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    static List<RawHeads.Row> rows() throws IOException {
        return RawHeads.rows();
    }

    private static HttpFetcher capturing() {
        return new HttpFetcher(CONFIG, LIMITS, Settings.capturing(SEEDS));
    }

    /** Bytes as text, one character a byte, so that a failure shows where they differ. */
    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static CapturedResponse.Received received(FetchResult result) {
        assertThat(result.exchange()).as("the exchange of %s", result).isNotNull();
        assertThat(result.exchange().response()).as("%s", result.exchange()).isInstanceOf(
                CapturedResponse.Received.class);
        return (CapturedResponse.Received) result.exchange().response();
    }

    private static void assertReceivedAsSent(RawHeads.Row row, FetchResult result) {
        CapturedResponse.Received response = received(result);
        assertThat(text(response.head())).as("head of %s", row).isEqualTo(text(row.head()));
        assertThat(text(response.interim())).as("interim heads of %s", row).isEqualTo(text(row.interim()));
        assertThat(text(response.body())).as("body of %s", row).isEqualTo(text(row.body()));
        assertThat(response.truncated()).as("truncated, %s", row).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void capturesEachResponseExactlyAsTheServerSentItOrWhatCameBackOfOneOkHttpRefused(RawHeads.Row row) {
        try (HttpFetcher fetcher = capturing()) {
            FetchResult result = fetcher.fetch(server.url(row.path()));

            if (row.accepted()) {
                assertReceivedAsSent(row, result);
                return;
            }
            assertThat(result).as("%s", row).isInstanceOf(FetchResult.Failure.class);
            FetchResult.Failure failure = (FetchResult.Failure) result;
            assertThat(failure.kind()).isEqualTo(FailureKind.PROTOCOL);
            assertThat(failure.detail()).contains(row.note());
            assertThat(failure.exchange()).as("the exchange of %s", row).isNotNull();
            CapturedResponse.Refused refused = (CapturedResponse.Refused) failure.exchange().response();
            assertThat(refused.why()).isEqualTo(failure.detail());
            assertThat(refused.received()).isNotEmpty();
            assertThat(text(row.bytes())).startsWith(text(refused.received()));
        }
    }

    @Test
    void keepsWhatCameBackForARobotsTxtOkHttpRefused() {
        RawHeads.Row row = row("garbage-status");
        try (HttpFetcher fetcher = capturing()) {
            RobotsResponse robots = new RobotsFetcher(fetcher).fetch(server.url(row.path()));

            assertThat(robots.failure()).isEqualTo(FailureKind.PROTOCOL);
            assertThat(robots.exchanges()).singleElement().satisfies(exchange -> assertThat(text(
                    ((CapturedResponse.Refused) exchange.response()).received())).isEqualTo(text(row.bytes())));
        }
    }

    @Test
    void capturesEveryResponseOfAKeptAliveConnectionApart() {
        List<RawHeads.Row> kept = server.rows().stream().filter(row -> row.accepted() && !row.close()).toList();
        int connectionsBefore = server.connections();
        try (HttpFetcher fetcher = capturing()) {
            for (RawHeads.Row row : kept) {
                assertReceivedAsSent(row, fetcher.fetch(server.url(row.path())));
            }
        }
        assertThat(kept).hasSizeGreaterThan(20);
        assertThat(server.connections() - connectionsBefore).as("connections for %s responses", kept.size())
                .isEqualTo(1);
    }

    @Test
    void capturesEachResponseApartWhileThreadsShareKeptAliveConnections() throws Exception {
        List<RawHeads.Row> kept = server.rows().stream().filter(row -> row.accepted() && !row.close()).toList();
        FetchConfig eight = PROFILE.with(FETCH_THREADS, 8).fetch();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try (HttpFetcher fetcher = new HttpFetcher(eight, LIMITS, Settings.capturing(SEEDS))) {
            List<Future<?>> fetches = new ArrayList<>();
            for (int round = 0; round < 40; round++) {
                for (RawHeads.Row row : kept) {
                    fetches.add(threads.submit(() -> assertReceivedAsSent(row, fetcher.fetch(server.url(row.path())))));
                }
            }
            for (Future<?> fetch : fetches) {
                // OkHttp pools a connection as soon as a body ends, before the fetcher takes its bytes out: another
                // thread's exchange on it must not touch them (one buffer per connection failed here in 40 rounds)
                fetch.get();
            }
        } finally {
            threads.shutdown();
        }
    }

    @Test
    void rebuildsAHeadTheServerSentBeforeItWasAskedForAndSaysWhy() {
        RawHeads.Row plain = server.rows().get(0);
        try (HttpFetcher fetcher = capturing()) {
            assertReceivedAsSent(plain, fetcher.fetch(server.url("/ahead/plain")));
            FetchResult early = fetcher.fetch(server.url("/plain")); // answered by the bytes read ahead

            assertThat(early.exchange().response()).isInstanceOf(CapturedResponse.Rebuilt.class);
            CapturedResponse.Rebuilt rebuilt = (CapturedResponse.Rebuilt) early.exchange().response();
            assertThat(rebuilt.why()).contains("sent it early");
            assertThat(text(rebuilt.head())).isEqualTo(text(plain.head()));
            assertThat(text(rebuilt.body())).isEqualTo(text(plain.body()));
        }
    }

    @Test
    void rebuildsTheHeadsOfSocketsItDidNotMakeAndSaysWhy() {
        SocketFactory sockets = new CountedSockets(0); // plain sockets, but not the default factory's
        AddressGuard guard = new AddressGuard(Dns.SYSTEM, false, SEEDS, Set.of());
        try (HttpFetcher fetcher = HttpFetcher.watching(CONFIG, LIMITS, guard, Clock.systemUTC(), true, null,
                sockets)) {
            FetchResult result = fetcher.fetch(server.url("/plain"));

            CapturedResponse.Rebuilt rebuilt = (CapturedResponse.Rebuilt) result.exchange().response();
            assertThat(rebuilt.why()).contains("no tap");
        }
    }

    /** A fetcher config trusting {@code certificate} ({@code fetch.trust-store}), written to a file for it. */
    private FetchConfig trusting(CrawlProfile profile, HeldCertificate certificate) throws Exception {
        Path pem = Files.writeString(folder.resolve("ca.pem"), certificate.certificatePem());
        return profile.with(FETCH_TRUST_STORE, TrustStore.read(pem)).fetch();
    }

    @Test
    void capturesTheDecryptedResponseOfAnHttpsConnection() throws Exception {
        HeldCertificate certificate = new HeldCertificate.Builder().addSubjectAlternativeName("127.0.0.1").build();
        HandshakeCertificates serverSide = new HandshakeCertificates.Builder().heldCertificate(certificate).build();
        try (RawHeadServer tls = RawHeadServer.startTls(serverSide.sslContext());
                HttpFetcher fetcher = new HttpFetcher(trusting(PROFILE, certificate), LIMITS,
                        Settings.capturing(SEEDS))) {
            for (String name : List.of("plain", "latin1-value", "obs-fold", "chunked", "interim", "5000-fields")) {
                RawHeads.Row row = row(name);
                assertReceivedAsSent(row, fetcher.fetch(tls.url(row.path())));
            }
            assertThat(tls.connections()).isEqualTo(1);
        }
    }

    @Test
    void capturesTheOriginsResponseThroughACONNECTTunnelNotTheProxysAnswer() throws Exception {
        HeldCertificate certificate = new HeldCertificate.Builder().addSubjectAlternativeName("127.0.0.1").build();
        HandshakeCertificates serverSide = new HandshakeCertificates.Builder().heldCertificate(certificate).build();
        try (RawHeadServer tls = RawHeadServer.startTls(serverSide.sslContext());
                TunnelProxy proxy = TunnelProxy.start();
                HttpFetcher fetcher = new HttpFetcher(trusting(PROFILE.with(FETCH_PROXY, proxy.url()), certificate),
                        LIMITS, Settings.capturing(SEEDS))) {
            RawHeads.Row row = row("obs-fold");
            FetchResult result = fetcher.fetch(tls.url(row.path()));

            assertReceivedAsSent(row, result);
            assertThat(text(received(result).head())).doesNotContain("Proxy-Agent");
            assertThat(proxy.tunnels()).isEqualTo(1);
        }
    }

    @Test
    void capturesAProxysAnswerToAPlainHttpRequestAsReceived() {
        RawHeads.Row row = row("nul-value");
        try (HttpFetcher fetcher = new HttpFetcher(PROFILE.with(FETCH_PROXY, server.origin()).fetch(), LIMITS,
                Settings.capturing(Set.of()))) {
            FetchResult result = fetcher.fetch("http://site.invalid" + row.path());

            assertReceivedAsSent(row, result);
        }
    }

    @Test
    void failsAHeadOkHttpCannotMakeAResponseOfAsAProtocolErrorWithoutCapturingToo() {
        try (HttpFetcher fetcher = new HttpFetcher(CONFIG, LIMITS, Settings.of(SEEDS))) {
            for (String name : List.of("negative-status", "negative-length")) {
                FetchResult result = fetcher.fetch(server.url(row(name).path()));

                assertThat(result).as(name).isInstanceOf(FetchResult.Failure.class);
                assertThat(((FetchResult.Failure) result).kind()).isEqualTo(FailureKind.PROTOCOL);
                assertThat(((FetchResult.Failure) result).detail()).contains(row(name).note());
            }
        }
    }

    @Test
    void capturesNothingAndTapsNoSocketUnlessAskedTo() {
        try (HttpFetcher fetcher = new HttpFetcher(CONFIG, LIMITS, Settings.of(SEEDS))) {
            FetchResult result = fetcher.fetch(server.url("/plain"));

            assertThat(result).isInstanceOf(FetchResult.Page.class);
            assertThat(result.exchange()).isNull();
        }
    }

    private static RawHeads.Row row(String name) {
        return server.rows().stream().filter(row -> row.name().equals(name)).findFirst().orElseThrow();
    }
}
