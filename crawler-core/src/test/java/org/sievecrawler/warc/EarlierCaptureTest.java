package org.sievecrawler.warc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An earlier crawl's WARC file is input, hostile like any: what is not a record where its record should be is none. */
class EarlierCaptureTest {
    @TempDir
    Path dir;

    @Test
    void bytesThatAreNoRecordGiveNoCapture() throws IOException {
        byte[] noise = new byte[4096];
        new Random(3).nextBytes(noise);
        Path garbage = Files.write(dir.resolve("crawl-1.warc.gz"), noise);
        Path text = Files.writeString(dir.resolve("crawl-2.warc.gz"), "WARC/1.1\r\nContent-Length: 99999\r\n\r\nshort");
        Path empty = Files.write(dir.resolve("crawl-3.warc.gz"), new byte[0]);

        assertThat(EarlierCapture.read(garbage, 0)).isEmpty();
        assertThat(EarlierCapture.read(garbage, 100)).isEmpty();
        assertThat(EarlierCapture.read(garbage, 1 << 20)).isEmpty(); // past the end
        assertThat(EarlierCapture.read(garbage, -1)).isEmpty();
        assertThat(EarlierCapture.read(text, 0)).isEmpty(); // a warcinfo-less header cut short, no type
        assertThat(EarlierCapture.read(empty, 0)).isEmpty();
    }

    @Test
    void aMissingFileIsAnIoFailureTheArchiveTurnsIntoAFullRecord() {
        assertThatThrownBy(() -> EarlierCapture.read(dir.resolve("gone.warc.gz"), 0)).isInstanceOf(IOException.class);
    }
}
