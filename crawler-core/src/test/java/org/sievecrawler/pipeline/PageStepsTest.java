package org.sievecrawler.pipeline;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_RESPECT_ROBOTS;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_MAX_PATH_SEGMENTS;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.fetch.HttpFetcher;
import org.sievecrawler.frontier.Frontier;
import org.sievecrawler.frontier.PageLease;
import org.sievecrawler.link.LinkResolver;
import org.sievecrawler.link.LinkScope;
import org.sievecrawler.link.UrlNormalizer;
import org.sievecrawler.parse.PageParser;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;
import org.sievecrawler.warc.WarcLocation;

/**
 * {@link PageSteps} on a real {@link Frontier} and WireMock on 127.0.0.1: every record a page lease ends with leaves
 * through the lease, to the frontier's {@link Frontier.Recorder}, whichever step ends it (the checks, a redirect, the
 * parse thread); a retry leaves none.
 */
class PageStepsTest {
    private static final CrawlProfile PROFILE = CrawlProfile.defaults().with(POLITENESS_RESPECT_ROBOTS, false)
            .with(POLITENESS_DELAY, Duration.ZERO).with(SCOPE_MAX_PATH_SEGMENTS, 3);
    private static final WarcLocation ARCHIVED = new WarcLocation("crawl-0.warc.gz", 42, URI.create("urn:uuid:1"));

    @RegisterExtension
    static final WireMockExtension server = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1")).build();

    @TempDir
    Path dir;

    private final List<PageRecord> recorded = new CopyOnWriteArrayList<>();
    private final CountingOutput output = new CountingOutput();
    private final HttpFetcher http = new HttpFetcher(PROFILE.fetch(), PROFILE.limits(),
            HttpFetcher.Settings.of(Set.of("127.0.0.1")));
    private final AtomicLong limitAsked = new AtomicLong(-1);

    /** The steps' output: counts, and an archive that says every response is at {@link #ARCHIVED}. */
    private static final class CountingOutput implements PageOutput {
        final AtomicInteger archived = new AtomicInteger();
        final AtomicInteger failedAttempts = new AtomicInteger();
        final AtomicInteger retries = new AtomicInteger();
        final List<String> rejected = new CopyOnWriteArrayList<>();
        final AtomicLong decided = new AtomicLong();

        @Override
        public Optional<WarcLocation> archive(HttpExchange exchange) {
            archived.incrementAndGet();
            return Optional.of(ARCHIVED);
        }

        @Override
        public void archiveMetadata(String url, WarcLocation response, List<Map.Entry<String, String>> fields) {
        }

        @Override
        public long decided() {
            return decided.get();
        }

        @Override
        public void failedAttempt() {
            failedAttempts.incrementAndGet();
        }

        @Override
        public void retried() {
            retries.incrementAndGet();
        }

        @Override
        public void linkRejected(String reason) {
            rejected.add(reason);
        }
    }

    @AfterEach
    void closeFetcher() {
        http.close();
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.getPort() + path;
    }

    private PageSteps steps() {
        LinkResolver links = new LinkResolver(new UrlNormalizer(),
                new LinkScope(PROFILE.scope(), List.of(url("/")), PROFILE.fetch().allowPrivateAddresses()));
        return new PageSteps(PROFILE, http, new PageParser(), links, output, decided -> {
            limitAsked.set(decided);
            return false;
        });
    }

    /** A frontier holding {@code seed}, its records counted as the crawl's output counts them. */
    private Frontier frontier(String seed) throws IOException {
        Frontier frontier = Frontier.create(Frontier.Settings.of(PROFILE, dir), Clock.systemUTC(), record -> {
            recorded.add(record);
            output.decided.incrementAndGet();
        });
        frontier.offerSeeds(List.of(seed));
        return frontier;
    }

    @Test
    void recordsAParsedPageFromItsParseThreadWithWhereItsResponseIsAndAdmitsItsLinks() throws IOException {
        server.stubFor(get("/").willReturn(aResponse().withHeader("Content-Type", "text/html")
                .withBody("<title>Home</title><a href=/a>a</a><a href=mailto:x@y.test>mail</a>")));
        PageSteps steps = steps();
        try (Frontier frontier = frontier(url("/"))) {
            steps.take((PageLease) frontier.next());
            steps.finishParsing();

            assertThat(recorded).singleElement().satisfies(record -> {
                assertThat(record.outcome()).isEqualTo(Outcome.FETCHED);
                assertThat(record.title()).isEqualTo("Home");
                assertThat(record.warcFile()).isEqualTo(ARCHIVED.file());
                assertThat(record.warcOffset()).isEqualTo(ARCHIVED.offset());
            });
            assertThat(frontier.size()).as("/a admitted").isEqualTo(1);
            assertThat(output.rejected).hasSize(1);
            assertThat(limitAsked.get()).isEqualTo(1);
        }
    }

    @Test
    void recordsARedirectsTargetOutOfScopeBeforeTheRedirectAndAdmitsNothing() throws IOException {
        server.stubFor(get("/moved").willReturn(aResponse().withStatus(301)
                .withHeader("Location", "http://elsewhere.test/page")));
        PageSteps steps = steps();
        try (Frontier frontier = frontier(url("/moved"))) {
            steps.take((PageLease) frontier.next());

            assertThat(recorded).extracting(PageRecord::url, PageRecord::outcome).containsExactly(
                    tuple("http://elsewhere.test/page", Outcome.OUT_OF_SCOPE),
                    tuple(url("/moved"), Outcome.REDIRECT));
            assertThat(recorded.get(1).warcFile()).as("the redirect's own record carries the archive's place")
                    .isEqualTo(ARCHIVED.file());
            assertThat(frontier.size()).isZero();
        }
    }

    @Test
    void closesARetriedAttemptWithNoRecordAndPutsItsUrlBackInTheFrontier() throws IOException {
        server.stubFor(get("/busy").willReturn(aResponse().withStatus(503)));
        PageSteps steps = steps();
        try (Frontier frontier = frontier(url("/busy"))) {
            steps.take((PageLease) frontier.next());

            assertThat(recorded).isEmpty();
            assertThat(output.failedAttempts).hasValue(1);
            assertThat(output.retries).hasValue(1);
            assertThat(output.archived).as("the attempt's exchange").hasValue(1);
            assertThat(frontier.size()).isEqualTo(1);
        }
    }

    @Test
    void recordsAPageTheChecksRefuseWithoutARequestAndWithoutAskingTheLimit() throws IOException {
        PageSteps steps = steps();
        try (Frontier frontier = frontier(url("/a/b/c/d/e"))) {
            steps.take((PageLease) frontier.next());

            assertThat(recorded).singleElement().satisfies(record -> {
                assertThat(record.outcome()).isEqualTo(Outcome.TRAP);
                assertThat(record.warcFile()).isNull();
            });
            server.verify(0, getRequestedFor(urlPathMatching(".*")));
            assertThat(limitAsked.get()).isEqualTo(-1);
        }
    }
}
