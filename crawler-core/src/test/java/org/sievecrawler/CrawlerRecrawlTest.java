package org.sievecrawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_MAX_DEPTH;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.sievecrawler.checkpoint.CheckpointStore;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.shell.Program;
import org.sievecrawler.warc.JwarcValidator;

/**
 * A recrawl ({@code crawl --since DIR}) against a server that answers conditional requests: each page the earlier
 * crawl fetched is asked for with its validators, a 304 is recorded not-modified with the earlier record's content
 * and archived as a server-not-modified revisit of the earlier capture, a page whose body is the same as a
 * identical-payload-digest revisit, a changed one in full; a chain of recrawls refers to the crawl that archived the
 * payload. The revisits are read back with jwarc and their originals found in the earlier WARC.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrawlerRecrawlTest {
    private static final byte[] BINARY = noise(7, 4096);

    @TempDir
    Path dir;
    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSite() {
        site.close();
    }

    private static byte[] noise(long seed, int size) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static ResponseDefinitionBuilder html(String body, String etag) {
        return aResponse().withStatus(200).withHeader("Content-Type", "text/html").withHeader("ETag", etag)
                .withBody(body);
    }

    /** A 304 for a request whose If-None-Match is {@code etag}, before any other answer for {@code path}. */
    private void notModifiedFor(String path, String etag) {
        site.server().stubFor(get(urlEqualTo(path)).atPriority(1).withHeader("If-None-Match", equalTo(etag))
                .willReturn(aResponse().withStatus(304).withHeader("ETag", etag)));
    }

    private void serveFirstVersion() {
        site.robots("User-agent: *\nAllow: /\n")
                .respond("/", html(FixtureSite.linkPage("home", "/a.html", "/b.bin", "/c.html", "/gone.html",
                        "/d.html"), "\"h1\""))
                .respond("/a.html", html("<html><head><title>Page A</title></head><body>a</body></html>", "\"a1\""))
                .respond("/b.bin", aResponse().withStatus(200).withHeader("Content-Type", "application/octet-stream")
                        .withHeader("ETag", "\"b1\"").withBody(BINARY))
                .respond("/c.html", html("<html><body>c, first</body></html>", "\"c1\""))
                .respond("/gone.html", html("<html><body>here for now</body></html>", "\"g1\""))
                .respond("/d.html", aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                        .withHeader("Last-Modified", "Sun, 01 Nov 2026 10:00:00 GMT")
                        .withBody("<html><body>d</body></html>"));
        site.server().stubFor(get(urlEqualTo("/d.html")).atPriority(1)
                .withHeader("If-Modified-Since", equalTo("Sun, 01 Nov 2026 10:00:00 GMT"))
                .willReturn(aResponse().withStatus(304)));
        notModifiedFor("/", "\"h1\"");
        notModifiedFor("/a.html", "\"a1\"");
    }

    /** The second version: b.bin touched (a new ETag, the same bytes), c.html changed, gone.html deleted. */
    private void serveSecondVersion() {
        site.respond("/b.bin", aResponse().withStatus(200).withHeader("Content-Type", "application/octet-stream")
                        .withHeader("ETag", "\"b2\"").withBody(BINARY))
                .respond("/c.html", html("<html><body>c, second</body></html>", "\"c2\""))
                .respond("/gone.html", aResponse().withStatus(404).withBody("gone"));
    }

    private CrawlProfile profile(Path out, List<String> seeds) {
        return CrawlProfile.defaults().with(SEEDS, seeds)
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4)
                .with(FETCH_THREADS, 4).with(FETCH_CONNECT_TIMEOUT, Duration.ofMillis(500))
                .with(FETCH_READ_TIMEOUT, Duration.ofMillis(800)).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(5))
                .with(OUTPUT_DIR, out).with(OUTPUT_WARC, true);
    }

    private Path crawl(String name, Path since) throws Exception {
        Path out = dir.resolve(name);
        if (since == null) {
            Crawler.newCrawl(profile(out, List.of(site.url("/")))).run();
        } else { // no seeds given: the earlier crawl's are crawled again
            Crawler.of(profile(out, List.of()), Optional.empty(), Optional.of(since), Crawler.Start.NEW,
                    Program.CRAWLER).run();
        }
        return out;
    }

    @Test
    void revisitsWhatDidNotChangeAndArchivesWhatDid() throws Exception {
        serveFirstVersion();
        Path first = crawl("first", null);
        serveSecondVersion();
        site.server().resetRequests();

        Path second = crawl("second", first);

        CrawlOutput output = CrawlOutput.read(second);
        assertThat(output.outcomes()).containsEntry(site.url("/"), "not-modified")
                .containsEntry(site.url("/a.html"), "not-modified").containsEntry(site.url("/d.html"), "not-modified")
                .containsEntry(site.url("/b.bin"), "not-html").containsEntry(site.url("/c.html"), "fetched")
                .containsEntry(site.url("/gone.html"), "http-error");
        JsonNode a = output.record(site.url("/a.html"));
        assertThat(a.get("status").asInt()).isEqualTo(304);
        assertThat(a.get("title").asText()).isEqualTo("Page A"); // the earlier record's content, carried
        assertThat(a.get("digest").asText()).isEqualTo(CrawlOutput.read(first).record(site.url("/a.html"))
                .get("digest").asText());
        assertThat(a.get("etag").asText()).startsWith("\"a1"); // as sent: Jetty marks a gzipped answer's "--gzip"
        assertThat(a.get("bytes").asLong()).isZero();
        // each page was asked for with the validators it was last sent
        assertThat(header("/a.html", "If-None-Match")).isEqualTo("\"a1\"");
        assertThat(header("/b.bin", "If-None-Match")).isEqualTo("\"b1\"");
        assertThat(header("/d.html", "If-Modified-Since")).isEqualTo("Sun, 01 Nov 2026 10:00:00 GMT");
        assertThat(header("/d.html", "If-None-Match")).isNull();

        List<Seen> earlier = readAll(warcFile(first));
        List<Seen> now = readAll(warcFile(second));
        Seen aRevisit = only(now, "revisit", "/a.html");
        assertThat(aRevisit.profile()).isEqualTo(WarcRevisit.SERVER_NOT_MODIFIED_1_1);
        assertThat(aRevisit.status()).isEqualTo(304);
        Seen aOriginal = byId(earlier, aRevisit.refersTo()); // found in the earlier WARC by WARC-Refers-To
        assertThat(aOriginal.type()).isEqualTo("response");
        assertThat(aOriginal.target()).isEqualTo(site.url("/a.html")).isEqualTo(aRevisit.refersToTarget());
        assertThat(aOriginal.date()).isEqualTo(aRevisit.refersToDate());
        assertThat(aRevisit.payloadDigest()).isEqualTo(aOriginal.payloadDigest()).isNotNull();
        assertThat(pageRecordAt(second, a)).isEqualTo(aRevisit.id()); // warcOffset leads to the revisit

        Seen bRevisit = only(now, "revisit", "/b.bin"); // touched: same bytes under a new ETag
        assertThat(bRevisit.profile()).isEqualTo(WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1);
        assertThat(bRevisit.status()).isEqualTo(200);
        assertThat(byId(earlier, bRevisit.refersTo()).payloadDigest()).isEqualTo(bRevisit.payloadDigest());

        assertThat(only(now, "response", "/c.html").status()).isEqualTo(200); // changed: archived whole
        assertThat(only(now, "response", "/gone.html").status()).isEqualTo(404);
        assertThat(now).noneMatch(r -> r.type().equals("response") && r.target().equals(site.url("/a.html")));
    }

    @Test
    void aRecrawlOfARecrawlRefersToTheCrawlThatArchivedThePayload() throws Exception {
        serveFirstVersion();
        Path first = crawl("first", null);
        serveSecondVersion();
        Path second = crawl("second", first);
        site.server().resetRequests();

        Path third = crawl("third", second);

        CrawlOutput output = CrawlOutput.read(third);
        assertThat(output.outcomes()).containsEntry(site.url("/a.html"), "not-modified")
                .containsEntry(site.url("/b.bin"), "not-html");
        assertThat(output.record(site.url("/a.html")).get("title").asText()).isEqualTo("Page A");
        assertThat(header("/a.html", "If-None-Match")).isEqualTo("\"a1\"");
        assertThat(header("/b.bin", "If-None-Match")).isEqualTo("\"b2\""); // the validator carried forward
        List<Seen> firstRecords = readAll(warcFile(first));
        List<Seen> thirdRecords = readAll(warcFile(third));
        assertThat(JwarcValidator.validates(warcFile(second))).isTrue(); // jwarc validate: revisits of both profiles
        assertThat(JwarcValidator.validates(warcFile(third))).isTrue();
        for (String path : List.of("/a.html", "/b.bin")) {
            Seen revisit = only(thirdRecords, "revisit", path);
            Seen original = byId(firstRecords, revisit.refersTo()); // not the second crawl's revisit
            assertThat(original.type()).isEqualTo("response");
            assertThat(original.date()).isEqualTo(revisit.refersToDate());
        }
    }

    @Test
    void anEarlierCrawlWithoutWarcStillGivesConditionalRequestsAndRevisitsByUri() throws Exception {
        serveFirstVersion();
        Path first = dir.resolve("first");
        Crawler.newCrawl(profile(first, List.of(site.url("/"))).with(OUTPUT_WARC, false)).run();
        serveSecondVersion();

        Path second = crawl("second", first);

        Seen revisit = only(readAll(warcFile(second)), "revisit", "/a.html");
        assertThat(revisit.refersToTarget()).isEqualTo(site.url("/a.html"));
        assertThat(revisit.refersTo()).isNull();
        assertThat(revisit.refersToDate()).isNull();
        // the touched binary cannot be proved the same as a capture that was never archived: archived whole
        assertThat(only(readAll(warcFile(second)), "response", "/b.bin").status()).isEqualTo(200);
    }

    @Test
    void aRecrawlReachesNoDeeperThanTheEarlierCrawlDid() throws Exception {
        serveFirstVersion();
        Path first = dir.resolve("first");
        Crawler.newCrawl(profile(first, List.of(site.url("/"))).with(SCOPE_MAX_DEPTH, 1)).run();
        // c.html changes and links one level deeper than the limit; it is no seed, but a page found at depth 1
        site.respond("/c.html", html(FixtureSite.linkPage("c, second", "/deeper.html"), "\"c2\""))
                .page("/deeper.html", FixtureSite.linkPage("too deep"));
        Path second = dir.resolve("second");

        Crawler.of(profile(second, List.of()).with(SCOPE_MAX_DEPTH, 1), Optional.empty(), Optional.of(first),
                Crawler.Start.NEW, Program.CRAWLER).run();

        CrawlOutput output = CrawlOutput.read(second);
        assertThat(output.urls()).doesNotContain(site.url("/deeper.html"));
        assertThat(site.requests("/deeper.html")).isZero();
        JsonNode c = output.record(site.url("/c.html"));
        assertThat(c.get("depth").asInt()).isEqualTo(1);
        assertThat(c.get("referrer").asText()).isEqualTo(site.url("/")); // where the earlier crawl found it
    }

    @Test
    void aResumedRecrawlStillAsksWithTheEarlierValidators() throws Exception {
        serveFirstVersion();
        Path first = crawl("first", null);
        Path second = dir.resolve("second");
        Crawler.of(profile(second, List.of()).with(LIMITS_MAX_PAGES, 2L), Optional.empty(), Optional.of(first),
                Crawler.Start.NEW, Program.CRAWLER).run(); // stopped at the limit
        assertThat(CrawlOutput.read(second).urls()).hasSize(2);

        Crawler.resuming(new CheckpointStore(second).readProfile().with(LIMITS_MAX_PAGES, 0L)).run();

        CrawlOutput output = CrawlOutput.read(second);
        assertThat(output.outcomes()).containsEntry(site.url("/a.html"), "not-modified")
                .containsEntry(site.url("/d.html"), "not-modified").containsEntry(site.url("/"), "not-modified");
        assertThat(output.urls()).hasSize(CrawlOutput.read(first).urls().size()).doesNotHaveDuplicates();
        assertThat(only(readAll(warcFile(second)), "revisit", "/a.html").refersTo()).isNotNull();
    }

    @Test
    void aSeedFileGivenToTheRecrawlIsCrawledByteForByte() throws Exception {
        serveFirstVersion();
        Path first = crawl("first", null);
        site.page("/caf%C3%A9.html", FixtureSite.linkPage("caf\u00e9"));
        Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.url("/caf\u00e9.html") + "\n",
                java.nio.charset.StandardCharsets.UTF_8);
        Path second = dir.resolve("second");

        Crawler.of(profile(second, List.of()), Optional.of(seeds), Optional.of(first), Crawler.Start.NEW,
                Program.CRAWLER).run();

        assertThat(CrawlOutput.read(second).outcomes()).containsEntry(site.url("/caf%C3%A9.html"), "fetched")
                .containsEntry(site.url("/a.html"), "not-modified");
    }

    private String header(String path, String name) {
        List<LoggedRequest> requests = site.requestLog().stream().filter(r -> r.getUrl().equals(path)).toList();
        assertThat(requests).hasSize(1);
        return requests.get(0).containsHeader(name) ? requests.get(0).getHeader(name) : null;
    }

    private static URI pageRecordAt(Path out, JsonNode record) throws IOException {
        try (var channel = java.nio.channels.FileChannel.open(out.resolve(record.get("warcFile").asText()))) {
            channel.position(record.get("warcOffset").asLong());
            return new WarcReader(channel).next().orElseThrow().id();
        }
    }

    private Seen only(List<Seen> records, String type, String path) {
        List<Seen> found = records.stream().filter(r -> r.type().equals(type) && r.target().equals(site.url(path)))
                .toList();
        assertThat(found).as(type + " " + path).hasSize(1);
        return found.get(0);
    }

    private static Seen byId(List<Seen> records, URI id) {
        return records.stream().filter(r -> r.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no record " + id));
    }

    private static Path warcFile(Path out) throws IOException {
        try (Stream<Path> files = Files.list(out)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".warc.gz")).sorted().findFirst()
                    .orElseThrow();
        }
    }

    private record Seen(String type, String target, URI id, Instant date, String payloadDigest, int status,
            URI profile, URI refersTo, String refersToTarget, Instant refersToDate) {
    }

    private static List<Seen> readAll(Path file) throws IOException {
        List<Seen> records = new ArrayList<>();
        try (WarcReader reader = new WarcReader(file)) {
            for (WarcRecord record : reader) {
                if (record instanceof WarcResponse response) {
                    records.add(new Seen("response", response.target(), response.id(), response.date(),
                            response.payloadDigest().map(WarcDigest::prefixedBase32).orElse(null),
                            response.http().status(), null, null, null, null));
                } else if (record instanceof WarcRevisit revisit) {
                    records.add(new Seen("revisit", revisit.target(), revisit.id(), revisit.date(),
                            revisit.payloadDigest().map(WarcDigest::prefixedBase32).orElse(null),
                            revisit.http().status(), revisit.profile(), revisit.refersTo().orElse(null),
                            revisit.refersToTargetURI().map(URI::toString).orElse(null),
                            revisit.refersToDate().orElse(null)));
                }
            }
        }
        return records;
    }
}
