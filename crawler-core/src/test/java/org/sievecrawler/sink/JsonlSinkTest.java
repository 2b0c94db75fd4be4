package org.sievecrawler.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.HostileText;

/** pages.jsonl: written whole lines at once, read back field for field, from any line start. */
class JsonlSinkTest {
    private static final PageRecord FULL = new PageRecord("http://a.test/é?q=\"1\"", 200, Outcome.TRUNCATED,
            "text/html; charset=utf-8", 3, 1_048_576, 42, 17, "Title\nwith \u0000 controls", "http://a.test/to",
            "http://a.test/from", "body cut", true, "crawl-00000.warc.gz", 123_456,
            "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5", "00ff00000000000a", 31)
            .withValidators("W/\"5f3a-\u001b[31m\"", "Wed, 21 Oct 2015 07:28:00 GMT");
    private static final PageRecord BARE = PageRecord.refused("http://b.test/", Outcome.ROBOTS_DISALLOWED, 0, null,
            null);

    @TempDir
    Path dir;

    @Test
    void readsBackEveryFieldItWrote() throws IOException {
        Path pages = dir.resolve("pages.jsonl");
        try (JsonlSink sink = JsonlSink.open(pages)) {
            sink.accept(FULL);
            sink.accept(BARE);
        }
        assertThat(read(pages, 0)).containsExactly(FULL, BARE);
    }

    @Test
    void aLineWhoseSimhashOrDigestIsMalformedIsNoRecord() throws IOException {
        Path pages = dir.resolve("pages.jsonl");
        Files.writeString(pages, "{\"url\":\"http://c.test/\",\"outcome\":\"fetched\",\"simhash\":\"12g4\"}\n"
                + "{\"url\":\"http://d.test/\",\"outcome\":\"fetched\",\"digest\":\"md5:abc\"}\n");
        List<PageRecord> read = new ArrayList<>();
        JsonlSink.Skipped skipped = JsonlSink.readSkipping(pages, read::add);
        assertThat(read).isEmpty();
        assertThat(skipped.lines()).isEqualTo(2);
        assertThatThrownBy(() -> read(pages, 0)).hasMessageContaining("simhash: a SimHash is 16 hex digits");
    }

    @Test
    void keepsAValidatorAsSentOrNotAtAllWhenPastItsBound() throws IOException {
        assertThat(FULL.etag()).isEqualTo("W/\"5f3a-\u001b[31m\""); // as sent: a later crawl sends it back
        String longest = "\"" + "e".repeat(PageRecord.MAX_VALIDATOR_CHARS - 2) + "\"";
        PageRecord kept = BARE.withValidators(longest, null);
        PageRecord over = BARE.withValidators(longest + "x", "Wed, 21 Oct 2015 07:28:00 GMT" + " ".repeat(256));
        assertThat(kept.etag()).isEqualTo(longest);
        assertThat(over.etag()).as("a cut ETag would never match: left out").isNull();
        assertThat(over.lastModified()).isNull();
        Path pages = dir.resolve("pages.jsonl");
        try (JsonlSink sink = JsonlSink.open(pages)) {
            sink.accept(FULL);
            sink.accept(BARE);
        }
        List<String> lines = Files.readAllLines(pages);
        assertThat(lines.get(0)).contains("\"etag\":\"W/\\\"5f3a-\\u001B[31m\\\"\"",
                "\"lastModified\":\"Wed, 21 Oct 2015 07:28:00 GMT\"");
        assertThat(lines.get(1)).doesNotContain("etag").doesNotContain("lastModified");
    }

    @Test
    void writesTimeToFirstByteOnlyWhenMeasured() throws IOException {
        Path pages = dir.resolve("pages.jsonl");
        try (JsonlSink sink = JsonlSink.open(pages)) {
            sink.accept(FULL);
            sink.accept(BARE);
        }
        List<String> lines = Files.readAllLines(pages);
        assertThat(lines.get(0)).contains("\"fetchMs\":42,\"ttfbMs\":31,");
        assertThat(lines.get(1)).doesNotContain("ttfbMs");
    }

    @Test
    void aRecordIsInTheFileAsSoonAsItIsAcceptedWithoutFlushOrClose() throws IOException {
        Path pages = dir.resolve("pages.jsonl");
        JsonlSink sink = JsonlSink.open(pages); // never flushed or closed, as in a process killed with -9
        sink.accept(BARE);
        long first = sink.length();
        sink.accept(FULL);

        assertThat(read(pages, 0)).containsExactly(BARE, FULL);
        assertThat(read(pages, first)).containsExactly(FULL);
        sink.close();
    }

    @Test
    void namesTheFileAndOffsetOfALineThatIsNoRecord() throws IOException {
        Path pages = dir.resolve("pages.jsonl");
        try (JsonlSink sink = JsonlSink.open(pages)) {
            sink.accept(BARE);
        }
        long length = Files.size(pages);
        Files.writeString(pages, "{\"url\":\"http://c.test/\"}\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        assertThatThrownBy(() -> read(pages, 0)).isInstanceOf(IOException.class)
                .hasMessageContaining(pages.toString()).hasMessageContaining("at byte " + length)
                .hasMessageContaining("no outcome");
    }

    @Test
    void cutsAPartialLastLineSoAppendingGoesOnAtALineStart() throws IOException {
        Path pages = dir.resolve("pages.jsonl");
        try (JsonlSink sink = JsonlSink.open(pages)) {
            sink.accept(BARE);
        }
        Files.writeString(pages, "{\"url\":\"http://half", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        assertThat(JsonlSink.cutPartialLine(pages)).isEqualTo("{\"url\":\"http://half".length());
        try (JsonlSink sink = JsonlSink.open(pages)) {
            sink.accept(FULL);
        }
        assertThat(read(pages, 0)).containsExactly(BARE, FULL);
    }

    @Test
    void aLineLongerThanTheBoundIsNoRecordAndTheLinesAfterItAreReadAtTheirOffsets() throws IOException {
        Path pages = dir.resolve("pages.jsonl");
        Files.writeString(pages, "x".repeat(JsonlSink.MAX_LINE_BYTES + 1) + "\n");
        long after = Files.size(pages);
        try (JsonlSink sink = JsonlSink.open(pages)) {
            sink.accept(FULL); // a multi-byte URL: offsets count bytes
            sink.accept(BARE);
        }
        List<PageRecord> records = new ArrayList<>();

        JsonlSink.Skipped skipped = JsonlSink.readSkipping(pages, records::add);

        assertThat(records).containsExactly(FULL, BARE);
        assertThat(skipped).isEqualTo(new JsonlSink.Skipped(1, 0));
        assertThat(read(pages, after)).containsExactly(FULL, BARE);
        assertThatThrownBy(() -> read(pages, 0)).isInstanceOf(JsonlSink.DamagedLine.class)
                .hasMessage(pages + ": the line at byte 0 is not a page record: it is longer than "
                        + JsonlSink.MAX_LINE_BYTES + " bytes (" + (JsonlSink.MAX_LINE_BYTES + 1) + " bytes)");
    }

    @Test
    void refusesToReadAFileThatIsNotARegularOneSuchAsTheZeroDevice() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/zero")), "no /dev/zero here");
        Path pages = Files.createSymbolicLink(dir.resolve("pages.jsonl"), Path.of("/dev/zero"));

        assertThatThrownBy(() -> JsonlSink.readSkipping(pages, record -> { })).isInstanceOf(IOException.class)
                .hasMessage(pages + ": not a regular file (a character device, such as /dev/zero); pages.jsonl must"
                        + " be one");
    }

    @ParameterizedTest
    @MethodSource("org.sievecrawler.fixtures.HostileText#unpairedSurrogates")
    void anUnpairedSurrogateIsWrittenAsTheReplacementCharacterInValidUtf8(HostileText.Surrogates row)
            throws IOException {
        Path pages = dir.resolve("pages.jsonl");
        try (JsonlSink sink = JsonlSink.open(pages)) {
            sink.accept(record(row.text()));
        }

        strictUtf8(Files.readAllBytes(pages)); // throws if it is not
        assertThat(read(pages, 0)).containsExactly(record(row.wellFormed()));
    }

    @Test
    void linesThatAreNotUtf8OrHoldTheEscapeOfAnUnpairedSurrogateAreReadAndOffsetsStayExact() throws IOException {
        Path pages = dir.resolve("pages.jsonl");
        byte[] notUtf8 = ("{\"url\":\"http://a.test/\",\"outcome\":\"fetched\",\"title\":\"a\u00ff\u00ed\u00a0\u0080b"
                + "\"}\n{\"url\":\"http://b.test/\",\"outcome\":\"fetched\",\"title\":\"\\uD800x\"}\n")
                .getBytes(StandardCharsets.ISO_8859_1); // 0xFF, and ED A0 80: a surrogate in CESU-8
        Files.write(pages, notUtf8);
        Files.writeString(pages, "{\"url\":\"http://c.test/\"}\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        List<PageRecord> records = new ArrayList<>();
        assertThatThrownBy(() -> JsonlSink.read(pages, 0, records::add)).isInstanceOf(IOException.class)
                .hasMessageContaining("at byte " + notUtf8.length).hasMessageContaining("no outcome");
        assertThat(records).hasSize(2);
        assertThat(records.get(0).title()).matches("a\ufffd+b"); // as many as the JDK's decoder makes
        assertThat(records.get(1).title()).isEqualTo("\ud800x");
    }

    /** A record whose every text field is {@code text}. */
    private static PageRecord record(String text) {
        return new PageRecord("http://a.test/" + text, 200, Outcome.FETCHED, text, 1, 10, 5, 0, text, text, text,
                text, false, text, 7);
    }

    private static void strictUtf8(byte[] bytes) throws CharacterCodingException {
        StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
    }

    private static List<PageRecord> read(Path pages, long from) throws IOException {
        List<PageRecord> records = new ArrayList<>();
        JsonlSink.read(pages, from, records::add);
        return records;
    }
}
