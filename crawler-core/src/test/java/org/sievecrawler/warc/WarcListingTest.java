package org.sievecrawler.warc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FakeClock;
import org.sievecrawler.profile.CrawlProfile;

class WarcListingTest {
    @TempDir
    Path dir;

    /** An archive of a 200 page, a 404 page and a metadata record; the locations of its records. */
    private List<WarcLocation> writeArchive() throws IOException {
        List<WarcLocation> locations = new ArrayList<>();
        try (WarcArchive archive = WarcArchive.open(CrawlProfile.defaults().with(OUTPUT_DIR, dir).output(),
                Map.of("software", "test"), new FakeClock())) {
            WarcLocation home = archive.write(WarcArchiveTest.exchange("/", "<p>home</p>"));
            locations.add(home);
            locations.add(archive.write(WarcArchiveTest.exchange("/missing", 404, "Not Found", "text/html",
                    "<h1>gone</h1>".repeat(100).getBytes(StandardCharsets.UTF_8), false)));
            locations.add(archive.writeMetadata("http://127.0.0.1:8080/", home, List.of(Map.entry("outlink", "x"))));
        }
        return locations;
    }

    private Path onlyFile() throws IOException {
        return Files.list(dir).findFirst().orElseThrow();
    }

    @Test
    void listsEveryRecordWithItsOffsetTypeUriStatusAndLength() throws IOException {
        List<WarcLocation> locations = writeArchive();
        List<WarcListing.Entry> entries = new ArrayList<>();

        WarcListing.End end = WarcListing.list(onlyFile(), entries::add);

        assertThat(end.complete()).isTrue();
        assertThat(end.records()).isEqualTo(6);
        assertThat(entries).extracting(WarcListing.Entry::type)
                .containsExactly("warcinfo", "response", "request", "response", "request", "metadata");
        assertThat(entries.get(0).offset()).isZero();
        assertThat(entries.get(0).uri()).isNull();
        assertThat(entries.get(1).offset()).isEqualTo(locations.get(0).offset());
        assertThat(entries.get(1).uri()).isEqualTo("http://127.0.0.1:8080/");
        assertThat(entries.get(1).status()).isEqualTo(200);
        assertThat(entries.get(2).status()).isZero();
        assertThat(entries.get(3).offset()).isEqualTo(locations.get(1).offset());
        assertThat(entries.get(3).status()).isEqualTo(404);
        assertThat(entries.get(3).length()).isGreaterThan(1300);
        assertThat(entries.get(5).offset()).isEqualTo(locations.get(2).offset());
    }

    @Test
    void listsTheWholeRecordsOfACutFileThenSaysWhereItStopped() throws IOException {
        List<WarcLocation> locations = writeArchive();
        long cut = locations.get(1).offset() + 100; // inside the 404 response
        try (FileChannel channel = FileChannel.open(onlyFile(), StandardOpenOption.WRITE)) {
            channel.truncate(cut);
        }
        List<WarcListing.Entry> entries = new ArrayList<>();

        WarcListing.End end = WarcListing.list(onlyFile(), entries::add);

        assertThat(end.complete()).isFalse();
        assertThat(end.records()).isEqualTo(3);
        assertThat(entries).extracting(WarcListing.Entry::type).containsExactly("warcinfo", "response", "request");
        assertThat(end.stoppedAt()).isEqualTo(locations.get(1).offset());
        assertThat(end.problem()).isNotBlank();
    }

    @Test
    void listsEveryRecordOfAFileCutBetweenRecords() throws IOException {
        List<WarcLocation> locations = writeArchive();
        try (FileChannel channel = FileChannel.open(onlyFile(), StandardOpenOption.WRITE)) {
            channel.truncate(locations.get(2).offset());
        }

        WarcListing.End end = WarcListing.list(onlyFile(), entry -> { });

        assertThat(end.complete()).isTrue();
        assertThat(end.records()).isEqualTo(5);
    }

    @Test
    void stopsAtOffsetZeroInAFileThatIsNotAWarc() throws IOException {
        Path text = Files.writeString(dir.resolve("notes.txt"), "These are not the records you are looking for.\n");

        WarcListing.End end = WarcListing.list(text, entry -> { });

        assertThat(end.records()).isZero();
        assertThat(end.stoppedAt()).isZero();
        assertThat(end.problem()).isNotBlank();
    }

    @Test
    void throwsForAMissingFile() {
        assertThatThrownBy(() -> WarcListing.list(dir.resolve("absent.warc.gz"), entry -> { }))
                .isInstanceOf(NoSuchFileException.class);
    }
}
