package org.sievecrawler.robots;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sievecrawler.fetch.HttpFetcher;
import org.sievecrawler.fetch.HttpFetcher.Settings;
import org.sievecrawler.profile.CrawlProfile;

/**
 * {@link RobotsStep} against WireMock and a closed port on 127.0.0.1: how a robots.txt task ends, by what came back.
 */
class RobotsStepTest {
    private static final CrawlProfile PROFILE = CrawlProfile.defaults();

    @RegisterExtension
    static final WireMockExtension server = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1")).build();

    private HttpFetcher http;
    private RobotsStep step;

    @BeforeEach
    void createStep() {
        http = new HttpFetcher(PROFILE.fetch(), PROFILE.limits(), Settings.of(Set.of("127.0.0.1")));
        step = new RobotsStep(PROFILE, http);
    }

    @AfterEach
    void closeFetcher() {
        http.close();
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.getPort() + path;
    }

    private static String closedPortRobotsUrl() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return "http://127.0.0.1:" + socket.getLocalPort() + "/robots.txt";
        }
    }

    @Test
    void readsAnAnswerIntoTheRulesOfTheCrawlersAgent() {
        server.stubFor(get("/robots.txt").willReturn(aResponse().withStatus(200)
                .withBody("User-agent: sievecrawler\nDisallow: /private/\nSitemap: /map.xml\n")));

        RobotsStep.Outcome outcome = step.take(url("/robots.txt"), 0);

        assertThat(outcome).isInstanceOfSatisfying(RobotsStep.Read.class, read -> {
            assertThat(read.rules().allows(url("/private/x"))).isFalse();
            assertThat(read.rules().allows(url("/public"))).isTrue();
            assertThat(read.rules().sitemaps()).containsExactly(url("/map.xml"));
        });
        assertThat(outcome.response().failedAttempt()).isFalse();
    }

    @Test
    void readsA5xxIntoUnavailableRulesCountedAsAFailedAttempt() {
        server.stubFor(get("/robots.txt").willReturn(aResponse().withStatus(500)));

        RobotsStep.Outcome outcome = step.take(url("/robots.txt"), 0);

        assertThat(outcome).isInstanceOfSatisfying(RobotsStep.Read.class, read -> {
            assertThat(read.rules().kind()).isEqualTo(RobotsRules.Kind.UNREACHABLE);
            assertThat(read.rules().reason()).isEqualTo("robots.txt answered 500: host disallowed until it answers");
        });
        assertThat(outcome.response().failedAttempt()).isTrue();
    }

    @Test
    void retriesAHostItCouldNotReachThenFindsItUnreachable() throws IOException {
        String robotsUrl = closedPortRobotsUrl();
        int retries = PROFILE.fetch().retries();

        RobotsStep.Outcome first = step.take(robotsUrl, 0);
        RobotsStep.Outcome last = step.take(robotsUrl, retries);

        assertThat(first).isInstanceOfSatisfying(RobotsStep.Retry.class,
                retry -> assertThat(retry.backoff()).isPositive());
        assertThat(first.response().failedAttempt()).isTrue();
        assertThat(last).isInstanceOfSatisfying(RobotsStep.HostUnreachable.class,
                down -> assertThat(down.reason()).isEqualTo("connection refused"));
    }

    @Test
    void putsBackARequestTheCrawlCancelled() {
        http.cancelCalls();

        assertThat(step.take(url("/robots.txt"), 0)).isInstanceOf(RobotsStep.PutBack.class);
    }
}
