package org.sievecrawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC_MAX_SIZE;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC_METADATA;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_FALSE_POSITIVE_RATE;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.FetchConfig;
import org.sievecrawler.warc.ArchivedRecord;
import org.sievecrawler.warc.WarcListing;

/**
 * End-to-end crawls with WARC output on, read back record by record with jwarc: what each response archived
 * against what the WireMock site served, the digests, the links between records, and pages.jsonl's offsets.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrawlerWarcTest {
    private static final String ZIPPED_HTML = "<html><head><title>zipped</title></head><body>"
            + "<p>served gzip-coded</p>".repeat(50) + "</body></html>";
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
                .with(FETCH_THREADS, 4).with(FETCH_CONNECT_TIMEOUT, Duration.ofMillis(500))
                .with(FETCH_READ_TIMEOUT, Duration.ofMillis(800)).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(5))
                .with(SIEVE_EXPECTED_URLS, 100_000L).with(SIEVE_FALSE_POSITIVE_RATE, 0.001)
                .with(OUTPUT_DIR, out).with(OUTPUT_WARC, true);
    }

    /** A site with a page of each kind the archive must hold. */
    private void serveEveryKindOfResponse() throws IOException {
        site.robots("User-agent: *\nDisallow: /private/\n")
                .page("/", FixtureSite.linkPage("home", "/zipped", "/old", "/missing", "/logo.png", "/flaky",
                        "/private/x", "mailto:someone@example.org"))
                .respond("/zipped", aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                        .withHeader("Content-Encoding", "gzip").withBody(gzip(ZIPPED_HTML)))
                .redirect("/old", 301, "/new")
                .page("/new", FixtureSite.linkPage("new"))
                .respond("/missing", aResponse().withStatus(404).withHeader("Content-Type", "text/html")
                        .withBody("<h1>not here</h1>"))
                .respond("/logo.png", aResponse().withStatus(200).withHeader("Content-Type", "image/png")
                        .withBody(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2, 3}))
                .sequence("/flaky", aResponse().withStatus(429).withHeader("Retry-After", "0").withBody("later"),
                        aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                                .withBody("<title>up</title>"));
    }

    @Test
    void archivesEveryResponseWithItsRequestAndVerifiableDigests() throws Exception {
        serveEveryKindOfResponse();

        Crawler.newCrawl(profile(site.url("/"))).run();

        List<Path> files = warcFiles();
        assertThat(files).hasSize(1);
        assertThat(files.get(0).getFileName().toString()).matches("crawl-\\d{14}-00000\\.warc\\.gz");
        List<ArchivedRecord> records = ArchivedRecord.readAll(files.get(0));
        ArchivedRecord info = records.get(0);
        assertThat(info.type()).isEqualTo("warcinfo");
        assertThat(info.text()).contains("isPartOf: default\r\n", "robots: obey\r\n",
                "http-header-user-agent: " + FetchConfig.DEFAULT_USER_AGENT + "\r\n", "software: SieveCrawler");
        assertThat(records.stream().filter(r -> r.type().equals("warcinfo"))).hasSize(1);

        List<String> responses = new ArrayList<>();
        for (int i = 1; i < records.size(); i += 2) {
            ArchivedRecord response = records.get(i);
            ArchivedRecord request = records.get(i + 1);
            assertThat(response.type()).isEqualTo("response");
            assertThat(request.type()).isEqualTo("request");
            assertThat(request.header("WARC-Concurrent-To")).isEqualTo(response.header("WARC-Record-ID"));
            assertThat(request.header("WARC-Target-URI")).isEqualTo(response.header("WARC-Target-URI"));
            assertThat(request.text()).startsWith("GET " + response.header("WARC-Target-URI")
                    .substring(site.origin().length()) + " HTTP/1.1\r\n")
                    .contains("\r\nUser-Agent: " + FetchConfig.DEFAULT_USER_AGENT + "\r\n");
            for (ArchivedRecord record : List.of(response, request)) {
                assertThat(record.header("WARC-IP-Address")).isEqualTo("127.0.0.1");
                assertThat(record.header("WARC-Date")).isNotBlank();
                assertThat(record.header("WARC-Block-Digest")).isEqualTo(ArchivedRecord.sha1(record.block()));
            }
            assertThat(response.header("WARC-Payload-Digest")).isEqualTo(ArchivedRecord.sha1(response.payload()));
            responses.add(response.status() + " " + response.header("WARC-Target-URI").substring(site.origin()
                    .length()));
        }
        assertThat(responses).containsExactlyInAnyOrder("200 /robots.txt", "200 /", "200 /zipped", "301 /old",
                "200 /new", "404 /missing", "200 /logo.png", "429 /flaky", "200 /flaky");

        ArchivedRecord zipped = response(records, "/zipped");
        assertThat(zipped.http().sole("Content-Encoding")).hasValue("gzip");
        assertThat(zipped.payload()).isEqualTo(gzip(ZIPPED_HTML)); // the bytes as served, still coded
        assertThat(body(response(records, "/"))).isEqualTo(FixtureSite.linkPage("home", "/zipped", "/old",
                "/missing", "/logo.png", "/flaky", "/private/x", "mailto:someone@example.org"));
        assertThat(body(response(records, "/missing"))).isEqualTo("<h1>not here</h1>");
        assertThat(response(records, "/logo.png").payload()).containsExactly(0x89, 'P', 'N', 'G', 0, 1, 2, 3);
        assertThat(response(records, "/old").http().sole("Location")).hasValue("/new");
        assertThat(body(response(records, "/robots.txt"))).isEqualTo("User-agent: *\nDisallow: /private/\n");
    }

    @Test
    void pointsEachPageAtItsResponseRecordInPagesJsonl() throws Exception {
        serveEveryKindOfResponse();

        Crawler.newCrawl(profile(site.url("/"))).run();

        CrawlOutput output = CrawlOutput.read(out);
        for (JsonNode page : output.records) {
            String url = page.get("url").asText();
            if (page.get("status").asInt() == 0) {
                assertThat(page.has("warcFile")).as(url).isFalse();
                continue;
            }
            Path file = out.resolve(page.get("warcFile").asText());
            ArchivedRecord response = ArchivedRecord.readAt(file, page.get("warcOffset").asLong());
            assertThat(response.type()).as(url).isEqualTo("response");
            assertThat(response.header("WARC-Target-URI")).isEqualTo(url);
            assertThat(response.status()).isEqualTo(page.get("status").asInt());
        }
        assertThat(output.record(site.url("/private/x")).get("outcome").asText()).isEqualTo("robots-disallowed");
        assertThat(output.record(site.url("/old")).has("warcFile")).isTrue();
        assertThat(output.record(site.url("/flaky")).get("status").asInt()).isEqualTo(200);
    }

    @Test
    void writesTheOutlinksOfEachParsedPageAsAMetadataRecordWhenAskedTo() throws Exception {
        site.page("/", "<html><head><base href=\"/docs/\"><link rel=canonical href=\"/\"></head><body>"
                        + "<a href=\"a.html#x\">a</a> <iframe src=\"/frame\"></iframe> <a href=\"javascript:void(0)\">"
                        + "</a></body></html>")
                .page("/docs/a.html", "<title>a</title>").page("/frame", "<title>frame</title>");
        CrawlProfile profile = profile(site.url("/"));
        profile = profile.with(OUTPUT_WARC_METADATA, true);

        Crawler.newCrawl(profile).run();

        List<ArchivedRecord> records = ArchivedRecord.readAll(warcFiles().get(0));
        List<ArchivedRecord> metadata = records.stream().filter(r -> r.type().equals("metadata")).toList();
        assertThat(metadata).extracting(r -> r.header("WARC-Target-URI"))
                .containsExactlyInAnyOrder(site.url("/"), site.url("/docs/a.html"), site.url("/frame"));
        ArchivedRecord home = metadata.stream().filter(r -> r.header("WARC-Target-URI").equals(site.url("/")))
                .findFirst().orElseThrow();
        assertThat(home.text()).isEqualTo("outlink: " + site.url("/") + " L link/@href\r\n"
                + "outlink: " + site.url("/docs/a.html#x") + " L a/@href\r\n"
                + "outlink: " + site.url("/frame") + " E iframe/@src\r\n");
        assertThat(home.header("WARC-Concurrent-To")).isEqualTo(response(records, "/").header("WARC-Record-ID"));
        assertThat(home.header("Content-Type")).isEqualTo("application/warc-fields");
    }

    @Test
    void rollsOverToNewFilesEachOpeningWithWarcinfoAndListsThemWhole() throws Exception {
        String[] pages = new String[30];
        for (int i = 0; i < pages.length; i++) {
            pages[i] = "/p" + i;
            site.page(pages[i], FixtureSite.linkPage("page " + i + " " + "filler ".repeat(i * 40)));
        }
        site.page("/", FixtureSite.linkPage("home", pages));
        CrawlProfile profile = profile(site.url("/"));
        profile = profile.with(OUTPUT_WARC_MAX_SIZE, 8L * 1024);

        Crawler.newCrawl(profile).run();

        List<Path> files = warcFiles();
        assertThat(files).hasSizeGreaterThan(2);
        long responses = 0;
        for (Path file : files) {
            List<WarcListing.Entry> entries = new ArrayList<>();
            WarcListing.End end = WarcListing.list(file, entries::add);
            assertThat(end.complete()).isTrue();
            assertThat(entries.get(0).type()).isEqualTo("warcinfo");
            responses += entries.stream().filter(e -> e.type().equals("response")).count();
        }
        assertThat(responses).isEqualTo(32); // robots.txt (404), home and 30 pages
        assertThat(CrawlOutput.read(out).records).extracting(r -> r.get("warcFile").asText()).hasSizeGreaterThan(2)
                .allMatch(name -> Files.exists(out.resolve(name)));
    }

    @Test
    void writesNoWarcAndNoOffsetsWhenTheOutputIsOff() throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/a")).page("/a", FixtureSite.linkPage("a"));
        CrawlProfile profile = profile(site.url("/"));
        profile = profile.with(OUTPUT_WARC, false);

        Crawler.newCrawl(profile).run();

        assertThat(warcFiles()).isEmpty();
        assertThat(CrawlOutput.read(out).records).hasSize(2).noneMatch(r -> r.has("warcFile"));
    }

    private List<Path> warcFiles() throws IOException {
        try (Stream<Path> files = Files.list(out)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".warc.gz")).sorted().toList();
        }
    }

    private ArchivedRecord response(List<ArchivedRecord> records, String path) {
        return records.stream().filter(r -> r.type().equals("response")
                && r.header("WARC-Target-URI").equals(site.url(path))).findFirst().orElseThrow();
    }

    /** A response's payload as text, inflated when it was served gzip-coded (WireMock does that on its own). */
    private static String body(ArchivedRecord response) throws IOException {
        byte[] payload = response.payload();
        if (response.http().sole("Content-Encoding").map("gzip"::equalsIgnoreCase).orElse(false)) {
            try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(payload))) {
                payload = in.readAllBytes();
            }
        }
        return new String(payload, StandardCharsets.UTF_8);
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }
}
