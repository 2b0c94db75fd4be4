package org.sievecrawler.warc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC_COMPRESSION;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FakeClock;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.OutputConfig;
import org.sievecrawler.profile.WarcCompression;

/** {@code output.warc-compression: zstd}: .warc.zst files, one Zstandard frame per record, read back with jwarc. */
class ZstdWarcTest {
    private static final byte[] ZSTD_MAGIC = {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd};
    @TempDir
    Path dir;
    private final FakeClock clock = new FakeClock(Instant.parse("2026-03-01T12:34:56Z"));

    private WarcArchive open(WarcCompression compression) throws IOException {
        Map<String, String> info = new LinkedHashMap<>();
        info.put("software", "SieveCrawler/test");
        return WarcArchive.open(CrawlProfile.defaults().with(OUTPUT_DIR, dir).with(OUTPUT_WARC, true)
                .with(OUTPUT_WARC_COMPRESSION, compression).output(),
                info, clock);
    }

    /** Three exchanges (one with a body of 200 KB, one empty) and a metadata record; the responses' locations. */
    private List<WarcLocation> writeSome() throws IOException {
        List<WarcLocation> locations = new ArrayList<>();
        try (WarcArchive archive = open(WarcCompression.ZSTD)) {
            locations.add(archive.write(WarcArchiveTest.exchange("/", "<p>home</p>".repeat(50))));
            StringBuilder big = new StringBuilder();
            for (int i = 0; big.length() < 200_000; i++) {
                big.append("<li>item ").append(i * 7919 % 10007).append("</li>\n");
            }
            locations.add(archive.write(WarcArchiveTest.exchange("/big", big.toString())));
            locations.add(archive.write(WarcArchiveTest.exchange("/empty", "")));
            archive.writeMetadata("http://127.0.0.1:8080/", locations.get(0), List.of(Map.entry("outlink", "/a")));
        }
        return locations;
    }

    private Path onlyFile() throws IOException {
        List<Path> files = Files.list(dir).toList();
        assertThat(files).hasSize(1);
        return files.get(0);
    }

    @Test
    void namesTheFileWarcZstAndStartsItWithAZstandardFrame() throws IOException {
        writeSome();

        Path file = onlyFile();
        assertThat(file.getFileName().toString()).isEqualTo("crawl-20260301123456-00000.warc.zst");
        assertThat(Arrays.copyOf(Files.readAllBytes(file), 4)).isEqualTo(ZSTD_MAGIC);
        ArchivedRecord info = ArchivedRecord.readAll(file).get(0);
        assertThat(info.type()).isEqualTo("warcinfo");
        assertThat(info.header("WARC-Filename")).isEqualTo("crawl-20260301123456-00000.warc.zst");
    }

    @Test
    void jwarcReadsEveryRecordBackWithItsDigestsVerified() throws IOException {
        writeSome();

        List<ArchivedRecord> records = ArchivedRecord.readAll(onlyFile());
        assertThat(records).extracting(ArchivedRecord::type).containsExactly("warcinfo", "response", "request",
                "response", "request", "response", "request", "metadata");
        for (ArchivedRecord record : records) {
            assertThat(record.header("WARC-Block-Digest")).as(record.type() + " " + record.header("WARC-Target-URI"))
                    .startsWith("sha1:").isEqualTo(ArchivedRecord.sha1(record.block()));
            if (record.type().equals("response")) {
                assertThat(record.header("WARC-Payload-Digest")).as(record.header("WARC-Target-URI"))
                        .isEqualTo(ArchivedRecord.sha1(record.payload()));
            }
        }
        assertThat(records.get(3).payload()).hasSizeGreaterThan(200_000);
        assertThat(new String(records.get(3).payload(), StandardCharsets.UTF_8)).startsWith("<li>item 0</li>\n");
        assertThat(records.get(5).payload()).isEmpty();
    }

    @Test
    void writesEachRecordAsOneFrameStartingAtItsOffset() throws IOException {
        List<WarcLocation> locations = writeSome();
        Path file = onlyFile();
        List<WarcListing.Entry> entries = new ArrayList<>();

        WarcListing.End end = WarcListing.list(file, entries::add);

        assertThat(end.complete()).isTrue();
        assertThat(entries).hasSize(8);
        assertThat(entries).filteredOn(e -> e.type().equals("response")).extracting(WarcListing.Entry::offset)
                .containsExactlyElementsOf(locations.stream().map(WarcLocation::offset).toList());
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 0; i < entries.size(); i++) {
            int from = (int) entries.get(i).offset();
            int to = i + 1 < entries.size() ? (int) entries.get(i + 1).offset() : bytes.length;
            byte[] frame = Arrays.copyOfRange(bytes, from, to);
            assertThat(Zstd.findFrameCompressedSize(frame)).as("frame of record %d", i).isEqualTo(frame.length);
            assertThat(Zstd.getFrameContentSize(frame)).as("content size stated in frame %d", i).isPositive();
            String record = new String(Zstd.decompress(frame, (int) Zstd.getFrameContentSize(frame)),
                    StandardCharsets.UTF_8);
            assertThat(record).startsWith("WARC/1.1\r\n")
                    .contains("\r\nWARC-Type: " + entries.get(i).type() + "\r\n").endsWith("\r\n\r\n");
            assertThat(record.indexOf("WARC/1.1\r\n", 1)).as("a second record in frame %d", i).isEqualTo(-1);
        }
        for (WarcLocation at : locations) {
            ArchivedRecord alone = ArchivedRecord.readAt(file, at.offset());
            assertThat(alone.id()).isEqualTo("<" + at.recordId() + ">");
            assertThat(alone.header("WARC-Payload-Digest")).isEqualTo(ArchivedRecord.sha1(alone.payload()));
        }
    }

    @Test
    void goesOnAfterAnEarlierRunCuttingItsTornLastFrame() throws IOException {
        List<WarcLocation> locations = writeSome();
        Path earlier = onlyFile();
        long cut = locations.get(1).offset() + 40; // a crash in the middle of the big response's frame
        try (FileChannel channel = FileChannel.open(earlier, StandardOpenOption.WRITE)) {
            channel.truncate(cut);
        }
        clock.advance(Duration.ofMinutes(5));

        try (WarcArchive resumed = open(WarcCompression.GZIP)) {
            resumed.write(WarcArchiveTest.exchange("/big", "again"));
            assertThat(resumed.files()).extracting(p -> p.getFileName().toString())
                    .containsExactly("crawl-20260301123956-00001.warc.gz");
        }

        assertThat(Files.size(earlier)).isEqualTo(locations.get(1).offset());
        assertThat(ArchivedRecord.readAll(earlier)).extracting(r -> r.type() + " " + r.header("WARC-Target-URI"))
                .containsExactly("warcinfo null", "response http://127.0.0.1:8080/", "request http://127.0.0.1:8080/");
    }

    @Test
    void aLastFrameCutToItsFirstBytesIsReportedAndCutOffNotThrown() throws IOException {
        List<WarcLocation> locations = writeSome();
        Path earlier = onlyFile();
        long cut = locations.get(1).offset() + 2; // a crash two bytes into the big response's frame
        try (FileChannel channel = FileChannel.open(earlier, StandardOpenOption.WRITE)) {
            channel.truncate(cut);
        }

        WarcListing.End end = WarcListing.list(earlier, entry -> { });
        assertThat(end.complete()).isFalse();
        assertThat(end.stoppedAt()).isEqualTo(locations.get(1).offset());
        assertThat(end.problem()).contains("not a Zstandard frame");
        clock.advance(Duration.ofMinutes(5));
        try (WarcArchive resumed = open(WarcCompression.ZSTD)) {
            resumed.write(WarcArchiveTest.exchange("/big", "again"));
        }
        assertThat(Files.size(earlier)).isEqualTo(locations.get(1).offset());
    }

    @Test
    void compressesCrawledPagesSmallerThanGzip() throws IOException {
        String page = "<html><head><title>Section 12</title></head><body><nav><a href=/s1>one</a>"
                + "<a href=/s2>two</a></nav>" + "<p>Lorem ipsum dolor sit amet, consectetur adipiscing.</p>".repeat(80)
                + "</body></html>";
        long[] sizes = new long[2];
        for (WarcCompression compression : WarcCompression.values()) {
            Path sub = Files.createDirectory(dir.resolve(compression.toString()));
            OutputConfig output = CrawlProfile.defaults().with(OUTPUT_DIR, sub).with(OUTPUT_WARC, true)
                    .with(OUTPUT_WARC_COMPRESSION, compression).output();
            try (WarcArchive archive = WarcArchive.open(output, Map.of("software", "test"), clock)) {
                for (int i = 0; i < 50; i++) {
                    archive.write(WarcArchiveTest.exchange("/p" + i, page.replace("12", Integer.toString(i))));
                }
                sizes[compression.ordinal()] = Files.size(archive.files().get(0));
            }
        }

        assertThat(sizes[WarcCompression.ZSTD.ordinal()]).isLessThan(sizes[WarcCompression.GZIP.ordinal()]);
    }
}
