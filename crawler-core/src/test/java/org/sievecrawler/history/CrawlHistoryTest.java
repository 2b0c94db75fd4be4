package org.sievecrawler.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/** An earlier crawl's records, sorted on disk and looked up by URL. */
class CrawlHistoryTest {
    @TempDir
    Path earlier;
    @TempDir
    Path into;

    private static PageRecord page(String url, int status, String etag, String lastModified) {
        return new PageRecord(url, status, status == 200 ? Outcome.FETCHED : Outcome.HTTP_ERROR, "text/html", 1, 10,
                5, 0, "t", null, null, null, false).withValidators(etag, lastModified);
    }

    private void write(List<PageRecord> records, String... rawLines) throws IOException {
        try (JsonlSink sink = JsonlSink.open(earlier.resolve("pages.jsonl"))) {
            for (PageRecord record : records) {
                sink.accept(record);
            }
        }
        for (String line : rawLines) {
            Files.writeString(earlier.resolve("pages.jsonl"), line + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND);
        }
    }

    @Test
    void findsEveryUrlsLastRecordAndNothingForOthersWhateverTheOrderWritten() throws IOException {
        Random random = new Random(29);
        Map<String, PageRecord> last = new LinkedHashMap<>();
        List<PageRecord> written = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            // some past ASCII, where UTF-8's byte order and UTF-16's (String's) differ
            String url = "https://h" + random.nextInt(50) + ".example/p/" + random.nextInt(5_000)
                    + List.of("", "", "", "/\u00e9", "/\uD83D\uDE00", "/\uFF21").get(random.nextInt(6));
            PageRecord record = page(url, random.nextInt(10) == 0 ? 404 : 200, "\"" + i + "\"",
                    random.nextBoolean() ? null : "Wed, 21 Oct 2015 07:28:00 GMT");
            written.add(record);
            last.put(url, record); // a URL recorded again keeps its last record
        }
        write(written);

        try (CrawlHistory history = CrawlHistory.build(earlier, into, 64 << 10)) { // 64 KB: many sort runs
            assertThat(history.size()).isEqualTo(last.size());
            assertThat(history.skipped()).isZero();
            List<String> urls = new ArrayList<>(last.keySet());
            Collections.shuffle(urls, random);
            for (String url : urls) {
                assertThat(history.lookup(url)).as(url).contains(last.get(url));
            }
            for (String absent : List.of("https://h1.example/p/", "https://a.example/", "https://zz.example/",
                    "https://h1.example/p/1x", "")) {
                assertThat(history.lookup(absent)).as(absent).isEmpty();
            }
        }
        try (CrawlHistory again = CrawlHistory.open(into)) { // a resumed recrawl reads the file it wrote
            assertThat(again.size()).isEqualTo(last.size());
            for (String url : last.keySet()) {
                assertThat(again.lookup(url)).as(url).contains(last.get(url));
            }
        }
    }

    @Test
    void keepsHostileValidatorsExactlyAndSkipsLinesThatAreNoRecord() throws IOException {
        PageRecord hostile = page("https://a.example/x", 200, "\"tab\there\nnewline\\\u001b[2J\"", "\u0000");
        PageRecord plain = page("https://a.example/y", 200, "\"y\"", null);
        write(List.of(hostile, plain), "{\"url\":\"https://a.example/z\"", "not json",
                "{\"url\":\"https://a.example/tab\\tin/url\",\"outcome\":\"fetched\",\"status\":200}");

        try (CrawlHistory history = CrawlHistory.build(earlier, into, 1 << 20)) {
            assertThat(history.lookup("https://a.example/x")).contains(hostile);
            assertThat(history.lookup("https://a.example/y")).contains(plain);
            assertThat(history.lookup("https://a.example/z")).isEmpty();
            assertThat(history.size()).isEqualTo(2);
            assertThat(history.skipped()).as("a cut line, one not JSON, a URL holding a tab").isEqualTo(3);
        }
        assertThat(Files.readAllLines(into.resolve(CrawlHistory.FILE))).hasSize(2);
    }

    @Test
    void refusesAFolderWithoutPagesJsonlNamingIt() {
        assertThatThrownBy(() -> CrawlHistory.build(earlier, into, 1 << 20))
                .hasMessageContaining(earlier.toString()).hasMessageContaining("pages.jsonl");
    }
}
