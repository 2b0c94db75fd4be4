package org.sievecrawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import okhttp3.Dns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sievecrawler.fetch.HttpFetcher.Settings;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.FetchConfig;
import org.sievecrawler.profile.LimitsConfig;
import org.sievecrawler.robots.RobotsFetcher;
import org.sievecrawler.robots.RobotsResponse;

/**
 * {@link HttpFetcher#cancelCalls()}: a request in flight, and one made after it, end as {@link FailureKind#CANCELLED}
 * rather than as a network error. The server on 127.0.0.1 sends a response head and the first bytes of a body, then
 * holds the rest until the test ends; timeouts are far longer than the test.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HttpFetcherCancelTest {
    private static final CrawlProfile PROFILE = CrawlProfile.defaults().with(FETCH_THREADS, 2)
            .with(FETCH_CONNECT_TIMEOUT, Duration.ofSeconds(5)).with(FETCH_READ_TIMEOUT, Duration.ofSeconds(60))
            .with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(120));
    private static final FetchConfig CONFIG = PROFILE.fetch();

    private ServerSocket listener;
    private final CountDownLatch bodyStarted = new CountDownLatch(1);
    private final CountDownLatch testEnded = new CountDownLatch(1);
    private HttpFetcher fetcher;

    @BeforeEach
    void start() throws Exception {
        listener = new ServerSocket(0, 8, InetAddress.getByName("127.0.0.1"));
        Thread server = new Thread(this::serveOneHeldBody, "held-body");
        server.setDaemon(true);
        server.start();
        fetcher = new HttpFetcher(CONFIG, LimitsConfig.defaults(), Settings.of(Set.of("127.0.0.1")));
    }

    @AfterEach
    void stop() throws Exception {
        testEnded.countDown();
        fetcher.close();
        listener.close();
    }

    private void serveOneHeldBody() {
        try (Socket socket = listener.accept()) {
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.ISO_8859_1));
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                // the request head: not needed
            }
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\n<html>"
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            bodyStarted.countDown();
            testEnded.await();
        } catch (Exception e) {
            // the listener closed, or the client went away
        }
    }

    private String url(String path) {
        return "http://127.0.0.1:" + listener.getLocalPort() + path;
    }

    @Test
    void endsARequestWaitingForFileDescriptorsAsCancelledNotAsAFailureOfItsHost() throws Exception {
        CountedSockets neverAny = new CountedSockets(Integer.MAX_VALUE); // "Too many open files" for ever
        AddressGuard guard = new AddressGuard(Dns.SYSTEM, false, Set.of("127.0.0.1"), Set.of());
        try (HttpFetcher pressed = HttpFetcher.watching(CONFIG, LimitsConfig.defaults(), guard, Clock.systemUTC(),
                false, null, neverAny)) {
            CompletableFuture<FetchResult> fetching = CompletableFuture.supplyAsync(() -> pressed.fetch(url("/")));
            while (pressed.descriptorWaits() == 0) {
                Thread.onSpinWait();
            }

            pressed.cancelCalls();

            FetchResult.Failure failure = (FetchResult.Failure) fetching.get(20, TimeUnit.SECONDS);
            assertThat(failure.kind()).isEqualTo(FailureKind.CANCELLED);
            assertThat(failure.detail()).contains("cancelled: the crawl ended");
        }
        assertThat(neverAny.made()).isZero();
    }

    @Test
    void cancelsABodyInFlightAsCancelledNotAsANetworkError() throws Exception {
        CompletableFuture<FetchResult> fetching = CompletableFuture.supplyAsync(() -> fetcher.fetch(url("/held")));
        assertThat(bodyStarted.await(20, TimeUnit.SECONDS)).as("the body started").isTrue();

        fetcher.cancelCalls();

        FetchResult result = fetching.get(20, TimeUnit.SECONDS);
        assertThat(result).isInstanceOfSatisfying(FetchResult.Failure.class, failure -> {
            assertThat(failure.kind()).isEqualTo(FailureKind.CANCELLED);
            assertThat(failure.status()).isZero();
            assertThat(failure.detail()).isEqualTo("request for " + url("/held")
                    + " cancelled: the crawl ended while it was in flight");
        });
    }

    @Test
    void cancelsRequestsMadeAfterwardsPagesAndRobotsTxtAlike() {
        fetcher.cancelCalls();

        FetchResult page = fetcher.fetch(url("/later"));
        RobotsResponse robots = new RobotsFetcher(fetcher).fetch(url("/robots.txt"));

        assertThat(page).isInstanceOfSatisfying(FetchResult.Failure.class,
                failure -> assertThat(failure.kind()).isEqualTo(FailureKind.CANCELLED));
        assertThat(robots.failure()).isEqualTo(FailureKind.CANCELLED);
    }

    @Test
    void aCallThatHitsItsCallTimeoutIsATimeoutNotCancelled() {
        FetchConfig oneSecond = PROFILE.with(FETCH_CONNECT_TIMEOUT, Duration.ofSeconds(5))
                .with(FETCH_READ_TIMEOUT, Duration.ofSeconds(60))
                .with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(1)).fetch();
        try (HttpFetcher timing = new HttpFetcher(oneSecond, LimitsConfig.defaults(),
                Settings.of(Set.of("127.0.0.1")))) {
            FetchResult result = timing.fetch(url("/held")); // OkHttp's call timeout cancels the call as well

            assertThat(result).isInstanceOfSatisfying(FetchResult.Failure.class, failure -> {
                assertThat(failure.kind()).as("put back and fetched again forever if CANCELLED")
                        .isEqualTo(FailureKind.TIMEOUT);
                assertThat(failure.detail()).contains("timed out after 1000 ms");
            });
        }
    }
}
