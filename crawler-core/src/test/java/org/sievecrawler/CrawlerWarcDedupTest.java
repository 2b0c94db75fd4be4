package org.sievecrawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC_DEDUP;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.warc.ArchivedRecord;
import org.sievecrawler.warc.WarcListing;

/**
 * {@code output.warc-dedup}: within one crawl, a payload already archived at another URL becomes a WARC 1.1 {@code
 * revisit} record (identical-payload-digest) referring to the first capture, read back with jwarc.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrawlerWarcDedupTest {
    /** Bytes gzip cannot shrink below the revisit threshold, should WireMock code them (fixed seed). */
    private static final byte[] SAME = noise(29, 4096);
    private static final byte[] OTHER = noise(30, 4096);
    private static final String PROFILE = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest";

    @TempDir
    Path out;
    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSite() {
        site.close();
    }

    private void serveTwoCopiesAndAnother() {
        site.robots("User-agent: *\nAllow: /\n")
                .page("/", FixtureSite.linkPage("home", "/a.bin", "/b.bin", "/c.bin"))
                .respond("/a.bin", text(SAME)).respond("/b.bin", text(SAME)).respond("/c.bin", text(OTHER));
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder text(byte[] body) {
        return aResponse().withStatus(200).withHeader("Content-Type", "application/octet-stream")
                .withHeader("X-Copy", "kept").withBody(body);
    }

    private static byte[] noise(long seed, int size) {
        byte[] bytes = new byte[size];
        new java.util.Random(seed).nextBytes(bytes);
        return bytes;
    }

    private CrawlProfile profile(boolean dedup) {
        return CrawlProfile.defaults().with(SEEDS, List.of(site.url("/")))
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4)
                .with(FETCH_THREADS, 4).with(FETCH_CONNECT_TIMEOUT, Duration.ofMillis(500))
                .with(FETCH_READ_TIMEOUT, Duration.ofMillis(800)).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(5))
                .with(OUTPUT_DIR, out).with(OUTPUT_WARC, true).with(OUTPUT_WARC_DEDUP, dedup);
    }

    @Test
    void archivesASecondCopyOfAPayloadAsARevisitOfTheFirst() throws Exception {
        serveTwoCopiesAndAnother();

        Crawler.newCrawl(profile(true)).run();

        List<Seen> records = readAll(warcFile());
        List<Seen> copies = records.stream().filter(r -> r.type().equals("response")
                && (r.target().equals(site.url("/a.bin")) || r.target().equals(site.url("/b.bin")))).toList();
        List<Seen> revisits = records.stream().filter(r -> r.type().equals("revisit")).toList();
        assertThat(copies).hasSize(1);
        assertThat(revisits).hasSize(1);
        Seen first = copies.get(0);
        Seen revisit = revisits.get(0);
        assertThat(List.of(first.target(), revisit.target()))
                .containsExactlyInAnyOrder(site.url("/a.bin"), site.url("/b.bin"));
        assertThat(revisit.profile()).isEqualTo(URI.create(PROFILE))
                .isEqualTo(WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1);
        assertThat(revisit.refersToTarget()).isEqualTo(first.target());
        assertThat(revisit.refersToDate()).isEqualTo(first.date());
        assertThat(revisit.refersTo()).isEqualTo(first.id());
        assertThat(revisit.payloadDigest()).isEqualTo(first.payloadDigest()).isNotNull();
        assertThat(revisit.status()).isEqualTo(200);
        assertThat(revisit.copyHeader()).isEqualTo("kept");
        assertThat(revisit.payloadSize()).isZero(); // the payload left out: the block is the head
        assertThat(first.payloadSize()).isGreaterThanOrEqualTo(SAME.length); // as served
        // the request of the revisited URL stays, naming the revisit
        assertThat(records).filteredOn(r -> r.type().equals("request") && r.target().equals(revisit.target()))
                .singleElement().satisfies(r -> assertThat(r.concurrentTo()).containsExactly(revisit.id()));
        // a different payload is archived in full
        assertThat(records).filteredOn(r -> r.type().equals("response") && r.target().equals(site.url("/c.bin")))
                .hasSize(1);

        CrawlOutput output = CrawlOutput.read(out);
        JsonNode revisited = output.record(revisit.target());
        JsonNode original = output.record(first.target());
        ArchivedRecord at = ArchivedRecord.readAt(out.resolve(revisited.get("warcFile").asText()),
                revisited.get("warcOffset").asLong());
        assertThat(at.type()).isEqualTo("revisit");
        assertThat(at.header("WARC-Target-URI")).isEqualTo(revisit.target());
        // the page's digest is of the body decoded (the WARC's is of the body as transferred, gzip-coded or not)
        assertThat(revisited.get("digest").asText()).startsWith("sha1:")
                .isEqualTo(original.get("digest").asText());

        List<WarcListing.Entry> listed = new ArrayList<>();
        assertThat(WarcListing.list(warcFile(), listed::add).complete()).isTrue();
        assertThat(listed).filteredOn(e -> e.type().equals("revisit")).singleElement()
                .satisfies(e -> assertThat(e.uri()).isEqualTo(revisit.target()))
                .satisfies(e -> assertThat(e.status()).isEqualTo(200));
    }

    @Test
    void archivesEveryCopyInFullWithDedupOff() throws Exception {
        serveTwoCopiesAndAnother();

        Crawler.newCrawl(profile(false)).run();

        List<Seen> records = readAll(warcFile());
        assertThat(records).noneMatch(r -> r.type().equals("revisit"));
        assertThat(records).filteredOn(r -> r.type().equals("response")).extracting(Seen::target)
                .containsExactlyInAnyOrder(site.url("/robots.txt"), site.url("/"), site.url("/a.bin"),
                        site.url("/b.bin"), site.url("/c.bin"));
    }

    private Path warcFile() throws IOException {
        try (Stream<Path> files = Files.list(out)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".warc.gz")).sorted().findFirst()
                    .orElseThrow();
        }
    }

    /** What a test looks at in a record, read while the reader is on it. */
    private record Seen(String type, String target, URI id, java.time.Instant date, String payloadDigest,
            List<URI> concurrentTo, int status, String copyHeader, long payloadSize, URI profile, URI refersTo,
            String refersToTarget, java.time.Instant refersToDate) {
    }

    private static List<Seen> readAll(Path file) throws IOException {
        List<Seen> records = new ArrayList<>();
        try (WarcReader reader = new WarcReader(file)) {
            for (WarcRecord record : reader) {
                if (!(record instanceof WarcCaptureRecord capture)) {
                    continue;
                }
                String digest = capture.payloadDigest().map(WarcDigest::prefixedBase32).orElse(null);
                if (record instanceof WarcResponse response) {
                    HttpResponse http = response.http();
                    long size = http.body().stream().readAllBytes().length;
                    records.add(new Seen("response", capture.target(), capture.id(), capture.date(), digest,
                            capture.concurrentTo(), http.status(), http.headers().sole("X-Copy").orElse(null), size,
                            null, null, null, null));
                } else if (record instanceof WarcRevisit revisit) {
                    HttpResponse http = revisit.http();
                    long size = http.body().stream().readAllBytes().length;
                    records.add(new Seen("revisit", capture.target(), capture.id(), capture.date(), digest,
                            capture.concurrentTo(), http.status(), http.headers().sole("X-Copy").orElse(null), size,
                            revisit.profile(), revisit.refersTo().orElse(null),
                            revisit.refersToTargetURI().map(URI::toString).orElse(null),
                            revisit.refersToDate().orElse(null)));
                } else {
                    records.add(new Seen(record.type(), capture.target(), capture.id(), capture.date(), digest,
                            capture.concurrentTo(), 0, null, 0, null, null, null, null));
                }
            }
        }
        return records;
    }
}
