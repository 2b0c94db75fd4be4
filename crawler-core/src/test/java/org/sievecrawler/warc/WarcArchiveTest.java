package org.sievecrawler.warc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC_DEDUP;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC_MAX_SIZE;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.fixtures.FakeClock;
import org.sievecrawler.profile.CrawlProfile;

class WarcArchiveTest {
    private static final Instant START = Instant.parse("2026-03-01T12:34:56Z");
    @TempDir
    Path dir;
    private final FakeClock clock = new FakeClock(START);

    private WarcArchive open(CrawlProfile profile) throws IOException {
        Map<String, String> info = new LinkedHashMap<>();
        info.put("software", "SieveCrawler/test");
        info.put("isPartOf", "unit");
        return WarcArchive.open(profile.with(OUTPUT_DIR, dir).with(OUTPUT_WARC, true).output(), info, clock);
    }

    private static CrawlProfile profile() {
        return CrawlProfile.defaults();
    }

    static HttpExchange exchange(String path, String body) {
        return exchange(path, 200, "OK", "text/html", body.getBytes(StandardCharsets.UTF_8), false);
    }

    static HttpExchange exchange(String path, int status, String reason, String type, byte[] body,
            boolean truncated) {
        String request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: Test/1.0\r\n"
                + "Accept-Encoding: gzip\r\n\r\n";
        String response = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: " + type + "\r\nContent-Length: "
                + body.length + "\r\nX-Case: Kept\r\n\r\n";
        return new HttpExchange("http://127.0.0.1:8080" + path, START.plusMillis(250), "127.0.0.1",
                request.getBytes(StandardCharsets.ISO_8859_1), response.getBytes(StandardCharsets.ISO_8859_1), body,
                truncated);
    }

    @Test
    void startsEachFileWithAWarcinfoRecordNamingTheFile() throws IOException {
        try (WarcArchive archive = open(profile())) {
            archive.write(exchange("/", "<p>home</p>"));
        }

        Path file = Files.list(dir).findFirst().orElseThrow();
        assertThat(file.getFileName().toString()).isEqualTo("crawl-20260301123456-00000.warc.gz");
        ArchivedRecord info = ArchivedRecord.readAll(file).get(0);
        assertThat(info.type()).isEqualTo("warcinfo");
        assertThat(info.header("WARC-Filename")).isEqualTo("crawl-20260301123456-00000.warc.gz");
        assertThat(info.header("WARC-Date")).isEqualTo("2026-03-01T12:34:56Z");
        assertThat(info.header("Content-Type")).isEqualTo("application/warc-fields");
        assertThat(new String(info.block(), StandardCharsets.UTF_8))
                .isEqualTo("software: SieveCrawler/test\r\nisPartOf: unit\r\n");
        assertThat(info.header("WARC-Block-Digest")).isEqualTo(ArchivedRecord.sha1(info.block()));
    }

    @Test
    void writesTheResponseThenItsRequestLinkedByConcurrentTo() throws IOException {
        HttpExchange exchange = exchange("/page?q=1", "<html>page</html>");
        WarcLocation at;
        try (WarcArchive archive = open(profile())) {
            at = archive.write(exchange);
        }

        List<ArchivedRecord> records = ArchivedRecord.readAll(archiveFile());
        assertThat(records).extracting(ArchivedRecord::type).containsExactly("warcinfo", "response", "request");
        ArchivedRecord response = records.get(1);
        ArchivedRecord request = records.get(2);
        assertThat(response.headers().sole("WARC-Record-ID")).hasValue("<" + at.recordId() + ">");
        assertThat(request.header("WARC-Concurrent-To")).isEqualTo(response.id());
        for (ArchivedRecord record : List.of(response, request)) {
            assertThat(record.headers().first("WARC-Type")).isPresent();
            assertThat(record.header("WARC-Target-URI")).isEqualTo("http://127.0.0.1:8080/page?q=1");
            assertThat(record.header("WARC-Date")).isEqualTo("2026-03-01T12:34:56.250Z");
            assertThat(record.header("WARC-IP-Address")).isEqualTo("127.0.0.1");
        }
        assertThat(response.header("Content-Type")).isEqualTo("application/http;msgtype=response");
        assertThat(request.header("Content-Type")).isEqualTo("application/http;msgtype=request");
        assertThat(request.block()).isEqualTo(exchange.requestHead());
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.http().sole("X-Case")).hasValue("Kept");
        assertThat(response.payload()).isEqualTo(RecordEncoderTest.received(exchange).payload());
        assertThat(response.header("WARC-Truncated")).isNull();
    }

    @Test
    void writesDigestsThatTheReadBackBytesVerify() throws IOException {
        try (WarcArchive archive = open(profile())) {
            archive.write(exchange("/a", "<p>a</p>".repeat(1000)));
            archive.write(exchange("/empty", ""));
        }

        List<ArchivedRecord> records = ArchivedRecord.readAll(archiveFile());
        assertThat(records).hasSize(5);
        for (ArchivedRecord record : records) {
            assertThat(record.header("WARC-Block-Digest")).as(record.type())
                    .startsWith("sha1:").isEqualTo(ArchivedRecord.sha1(record.block()));
            if (record.type().equals("response")) {
                assertThat(record.header("WARC-Payload-Digest")).isEqualTo(ArchivedRecord.sha1(record.payload()));
            }
        }
    }

    @Test
    void marksABodyCutAtTheCapAsTruncatedByLength() throws IOException {
        byte[] cut = "x".repeat(100).getBytes(StandardCharsets.US_ASCII);
        try (WarcArchive archive = open(profile())) {
            archive.write(exchange("/huge", 200, "OK", "text/html", cut, true));
        }

        ArchivedRecord response = ArchivedRecord.readAll(archiveFile()).get(1);
        assertThat(response.header("WARC-Truncated")).isEqualTo("length");
        assertThat(response.payload()).isEqualTo(cut);
    }

    @Test
    void returnsAnOffsetFromWhichTheResponseReadsAlone() throws IOException {
        List<WarcLocation> locations = new ArrayList<>();
        try (WarcArchive archive = open(profile())) {
            for (int i = 0; i < 5; i++) {
                locations.add(archive.write(exchange("/p" + i, "<p>page " + i + "</p>")));
            }
        }

        for (int i = 0; i < 5; i++) {
            WarcLocation at = locations.get(i);
            ArchivedRecord record = ArchivedRecord.readAt(dir.resolve(at.file()), at.offset());
            assertThat(record.type()).isEqualTo("response");
            assertThat(record.header("WARC-Target-URI")).isEqualTo("http://127.0.0.1:8080/p" + i);
            assertThat(record.id()).isEqualTo("<" + at.recordId() + ">");
        }
        assertThat(ArchivedRecord.readAll(archiveFile()).stream().filter(r -> r.type().equals("response"))
                .map(ArchivedRecord::offset)).containsExactlyElementsOf(locations.stream().map(WarcLocation::offset)
                        .toList());
    }

    @Test
    void writesAMetadataRecordConcurrentToItsResponse() throws IOException {
        try (WarcArchive archive = open(profile())) {
            WarcLocation response = archive.write(exchange("/", "<a href=/a>a</a>"));
            archive.writeMetadata("http://127.0.0.1:8080/", response,
                    List.of(Map.entry("outlink", "http://127.0.0.1:8080/a L a/@href")));
        }

        List<ArchivedRecord> records = ArchivedRecord.readAll(archiveFile());
        ArchivedRecord metadata = records.get(3);
        assertThat(metadata.type()).isEqualTo("metadata");
        assertThat(metadata.header("WARC-Concurrent-To")).isEqualTo(records.get(1).id());
        assertThat(metadata.header("WARC-Target-URI")).isEqualTo("http://127.0.0.1:8080/");
        assertThat(new String(metadata.block(), StandardCharsets.UTF_8))
                .isEqualTo("outlink: http://127.0.0.1:8080/a L a/@href\r\n");
        assertThat(metadata.header("WARC-Block-Digest")).isEqualTo(ArchivedRecord.sha1(metadata.block()));
    }

    @Test
    void rollsOverToANewFileBeforeOneWouldPassTheMaxSize() throws IOException {
        long max = 4096;
        byte[] body = new byte[700]; // gzip keeps random bytes about their size: ~1 KB per exchange
        new java.util.Random(42).nextBytes(body);
        List<WarcLocation> locations = new ArrayList<>();
        try (WarcArchive archive = open(profile().with(OUTPUT_WARC_MAX_SIZE, max))) {
            for (int i = 0; i < 12; i++) {
                clock.advance(java.time.Duration.ofSeconds(1));
                locations.add(archive.write(exchange("/r" + i, 200, "OK", "application/octet-stream", body, false)));
            }
            assertThat(archive.files()).hasSizeGreaterThan(2);
        }

        List<Path> files = Files.list(dir).sorted().toList();
        assertThat(files).hasSizeGreaterThan(2);
        int responses = 0;
        for (int i = 0; i < files.size(); i++) {
            String name = files.get(i).getFileName().toString();
            assertThat(name).matches("crawl-20260301\\d{6}-0000" + i + "\\.warc\\.gz");
            assertThat(Files.size(files.get(i))).as(name).isLessThanOrEqualTo(max);
            List<ArchivedRecord> records = ArchivedRecord.readAll(files.get(i));
            assertThat(records.get(0).type()).isEqualTo("warcinfo");
            assertThat(records.get(0).header("WARC-Filename")).isEqualTo(name);
            assertThat(records).hasSizeGreaterThan(1);
            responses += (int) records.stream().filter(r -> r.type().equals("response")).count();
        }
        assertThat(responses).isEqualTo(12);
        assertThat(locations).extracting(WarcLocation::file).contains(files.get(files.size() - 1).getFileName()
                .toString());
    }

    @Test
    void givesARecordLargerThanTheMaxSizeAFileOfItsOwn() throws IOException {
        try (WarcArchive archive = open(profile().with(OUTPUT_WARC_MAX_SIZE, 1L))) {
            archive.write(exchange("/a", "a"));
            archive.write(exchange("/b", "b"));
        }

        List<Path> files = Files.list(dir).sorted().toList();
        assertThat(files).hasSize(2);
        for (Path file : files) {
            assertThat(ArchivedRecord.readAll(file)).extracting(ArchivedRecord::type)
                    .containsExactly("warcinfo", "response", "request");
        }
    }

    @Test
    void takesTheNextSerialWhenAFileOfTheSameNameExists() throws IOException {
        Files.writeString(dir.resolve("crawl-20260301123456-00000.warc.gz"), "an earlier crawl's");

        try (WarcArchive archive = open(profile())) {
            assertThat(archive.files()).extracting(p -> p.getFileName().toString())
                    .containsExactly("crawl-20260301123456-00001.warc.gz");
        }
        assertThat(Files.readString(dir.resolve("crawl-20260301123456-00000.warc.gz"))).isEqualTo("an earlier crawl's");
    }

    @Test
    void keepsTheRecordsOfConcurrentWritersWholeAndApart() throws Exception {
        int threads = 6;
        int each = 40;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<WarcLocation> locations = new ArrayList<>();
        try (WarcArchive archive = open(profile().with(OUTPUT_WARC_MAX_SIZE, 64L * 1024))) {
            List<Future<List<WarcLocation>>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    List<WarcLocation> mine = new ArrayList<>();
                    for (int i = 0; i < each; i++) {
                        String body = ("<p>thread " + thread + " page " + i + "</p>").repeat(1 + i % 7 * 50);
                        mine.add(archive.write(exchange("/t" + thread + "/p" + i, body)));
                    }
                    return mine;
                }));
            }
            for (Future<List<WarcLocation>> future : futures) {
                locations.addAll(future.get());
            }
        } finally {
            pool.shutdown();
        }

        List<ArchivedRecord> responses = new ArrayList<>();
        for (Path file : Files.list(dir).sorted().toList()) {
            List<ArchivedRecord> records = ArchivedRecord.readAll(file);
            assertThat(records.get(0).type()).isEqualTo("warcinfo");
            for (int i = 1; i < records.size(); i += 2) { // each response directly followed by its request
                assertThat(records.get(i).type()).isEqualTo("response");
                assertThat(records.get(i + 1).type()).isEqualTo("request");
                assertThat(records.get(i + 1).header("WARC-Concurrent-To")).isEqualTo(records.get(i).id());
                assertThat(records.get(i + 1).header("WARC-Target-URI"))
                        .isEqualTo(records.get(i).header("WARC-Target-URI"));
                assertThat(records.get(i).header("WARC-Payload-Digest"))
                        .isEqualTo(ArchivedRecord.sha1(records.get(i).payload()));
                responses.add(records.get(i));
            }
        }
        assertThat(responses).hasSize(threads * each);
        assertThat(responses).extracting(r -> r.header("WARC-Target-URI")).doesNotHaveDuplicates();
        assertThat(locations).hasSize(threads * each).extracting(at -> at.file() + "@" + at.offset())
                .doesNotHaveDuplicates();
    }

    @Test
    void aFileCutMidRecordReadsToItsLastWholeRecord() throws IOException {
        List<WarcLocation> locations = new ArrayList<>();
        try (WarcArchive archive = open(profile())) {
            for (int i = 0; i < 4; i++) {
                locations.add(archive.write(exchange("/p" + i, "<p>page " + i + "</p>".repeat(200))));
            }
        }
        Path file = archiveFile();
        long cut = locations.get(3).offset() + 40; // inside the last response's gzip member
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(cut);
        }

        List<String> read = new ArrayList<>();
        try (WarcReader reader = new WarcReader(file)) {
            assertThatThrownBy(() -> {
                while (true) {
                    ArchivedRecord record = ArchivedRecord.readNext(reader);
                    if (record == null) {
                        break;
                    }
                    read.add(record.type() + " " + record.header("WARC-Target-URI"));
                }
            }).isInstanceOf(IOException.class);
        }
        assertThat(read).containsExactly("warcinfo null", "response http://127.0.0.1:8080/p0",
                "request http://127.0.0.1:8080/p0", "response http://127.0.0.1:8080/p1",
                "request http://127.0.0.1:8080/p1", "response http://127.0.0.1:8080/p2",
                "request http://127.0.0.1:8080/p2");
    }

    @Test
    void goesOnAfterAnEarlierRunCuttingItsTornLastRecord() throws IOException {
        List<WarcLocation> locations = new ArrayList<>();
        try (WarcArchive archive = open(profile())) {
            for (int i = 0; i < 3; i++) {
                locations.add(archive.write(exchange("/p" + i, "<p>page " + i + "</p>".repeat(200))));
            }
        }
        Path earlier = archiveFile();
        long cut = locations.get(2).offset() + 40; // a crash in the middle of the last response
        try (FileChannel channel = FileChannel.open(earlier, StandardOpenOption.WRITE)) {
            channel.truncate(cut);
        }
        clock.advance(java.time.Duration.ofMinutes(5));

        try (WarcArchive resumed = open(profile())) {
            resumed.write(exchange("/p2", "<p>page 2 again</p>"));
            assertThat(resumed.files()).extracting(p -> p.getFileName().toString())
                    .containsExactly("crawl-20260301123956-00001.warc.gz");
        }

        assertThat(Files.size(earlier)).isEqualTo(locations.get(2).offset());
        assertThat(ArchivedRecord.readAll(earlier)).extracting(r -> r.type() + " " + r.header("WARC-Target-URI"))
                .containsExactly("warcinfo null", "response http://127.0.0.1:8080/p0",
                        "request http://127.0.0.1:8080/p0", "response http://127.0.0.1:8080/p1",
                        "request http://127.0.0.1:8080/p1");
    }

    @Test
    void refusesToWriteOnceClosed() throws IOException {
        WarcArchive archive = open(profile());
        archive.close();

        assertThatThrownBy(() -> archive.write(exchange("/", "late"))).isInstanceOf(IOException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void writesASecondCopyOfAPayloadAsARevisitThatJwarcValidates() throws IOException {
        String same = "<p>same</p>".repeat(50);
        List<WarcLocation> at = new ArrayList<>();
        try (WarcArchive archive = open(profile().with(OUTPUT_WARC_DEDUP, true))) {
            at.add(archive.write(exchange("/a", same)));
            at.add(archive.write(exchange("/b", same)));
            at.add(archive.write(exchange("/c", "<p>other</p>".repeat(50))));
        }

        Path file = archiveFile();
        List<ArchivedRecord> records = ArchivedRecord.readAll(file);
        assertThat(records).extracting(r -> r.type() + " " + r.header("WARC-Target-URI")).containsExactly(
                "warcinfo null", "response http://127.0.0.1:8080/a", "request http://127.0.0.1:8080/a",
                "revisit http://127.0.0.1:8080/b", "request http://127.0.0.1:8080/b",
                "response http://127.0.0.1:8080/c", "request http://127.0.0.1:8080/c");
        ArchivedRecord first = records.get(1);
        ArchivedRecord revisit = ArchivedRecord.readAt(file, at.get(1).offset());
        assertThat(revisit.type()).isEqualTo("revisit");
        assertThat(revisit.header("WARC-Profile"))
                .isEqualTo("http://netpreserve.org/warc/1.1/revisit/identical-payload-digest");
        assertThat(revisit.header("WARC-Refers-To")).isEqualTo(first.id());
        assertThat(revisit.header("WARC-Refers-To-Target-URI")).isEqualTo("http://127.0.0.1:8080/a");
        assertThat(revisit.header("WARC-Refers-To-Date")).isEqualTo(first.header("WARC-Date"));
        assertThat(revisit.header("WARC-Payload-Digest")).isEqualTo(first.header("WARC-Payload-Digest"));
        assertThat(revisit.header("Content-Type")).isEqualTo("application/http;msgtype=response");
        assertThat(revisit.text()).isEqualTo("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 550\r\n"
                + "X-Case: Kept\r\n\r\n");
        assertThat(revisit.header("WARC-Block-Digest")).isEqualTo(ArchivedRecord.sha1(revisit.block()));
        assertThat(revisit.id()).isEqualTo("<" + at.get(1).recordId() + ">");
        assertThat(records.get(4).header("WARC-Concurrent-To")).isEqualTo(revisit.id());
        assertThat(JwarcValidator.validates(file)).isTrue();
    }

    @Test
    void archivesInFullWhatARevisitCannotStandFor() throws IOException {
        byte[] cut = "x".repeat(600).getBytes(StandardCharsets.US_ASCII);
        String same = "<p>same</p>".repeat(50);
        String small = "s".repeat(RecordEncoder.MIN_REVISIT_PAYLOAD - 1);
        try (WarcArchive archive = open(profile().with(OUTPUT_WARC_DEDUP, true))) {
            archive.write(exchange("/cut1", 200, "OK", "text/html", cut, true));
            archive.write(exchange("/cut2", 200, "OK", "text/html", cut, true)); // a cut payload is not the payload
            archive.write(exchange("/empty1", 204, "No Content", "text/html", new byte[0], false));
            archive.write(exchange("/empty2", 204, "No Content", "text/html", new byte[0], false)); // nothing saved
            archive.write(exchange("/small1", small));
            archive.write(exchange("/small2", small)); // a revisit would be larger than the payload
            archive.write(exchange("/same", same));
            archive.write(exchange("/same", same)); // the same URL again
        }

        assertThat(ArchivedRecord.readAll(archiveFile())).extracting(ArchivedRecord::type)
                .containsOnly("warcinfo", "response", "request").filteredOn("response"::equals).hasSize(8);
    }

    @Test
    void archivesEveryCopyInFullWithDedupOff() throws IOException {
        try (WarcArchive archive = open(profile())) {
            archive.write(exchange("/a", "<p>same</p>".repeat(50)));
            archive.write(exchange("/b", "<p>same</p>".repeat(50)));
        }

        assertThat(ArchivedRecord.readAll(archiveFile())).extracting(ArchivedRecord::type)
                .containsExactly("warcinfo", "response", "request", "response", "request");
    }

    private Path archiveFile() throws IOException {
        List<Path> files = Files.list(dir).toList();
        assertThat(files).hasSize(1);
        return files.get(0);
    }
}
