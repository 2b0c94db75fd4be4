package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.RawHeadServer;
import org.sievecrawler.fixtures.RawHeads;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.warc.ArchivedRecord;
import org.sievecrawler.warc.JwarcValidator;

/**
 * A crawl with WARC output of {@link RawHeadServer}, every hostile head of {@code /http/raw-heads.tsv}, its WARC read
 * back with jwarc and run through jwarc's validator record by record: each response's head and body are the bytes
 * the server sent, interim heads and refused responses are archived as received, and every record jwarc's validator
 * rejects is a response whose note says where its bytes leave HTTP's grammar.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrawlerRawHeadTest {
    @TempDir
    Path out;
    @TempDir
    Path split;

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    @Test
    void archivesEveryResponseAsTheServerSentItAndNotesWhereJwarcCannotReadIt() throws Exception {
        List<ArchivedRecord> records;
        List<Boolean> valid;
        List<RawHeads.Row> rows;
        String origin;
        try (RawHeadServer server = RawHeadServer.start()) {
            origin = server.origin();
            rows = server.rows();
            Crawler.newCrawl(CrawlProfile.defaults().with(SEEDS, List.of(server.url("/")))
                    .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4)
                    .with(FETCH_THREADS, 4).with(FETCH_CONNECT_TIMEOUT, Duration.ofSeconds(2))
                    .with(FETCH_READ_TIMEOUT, Duration.ofSeconds(2)).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(5))
                    .with(OUTPUT_DIR, out).with(OUTPUT_WARC, true)).run();
            Path warc;
            try (Stream<Path> files = Files.list(out)) {
                warc = files.filter(file -> file.toString().endsWith(".warc.gz")).findFirst().orElseThrow();
            }
            records = ArchivedRecord.readAll(warc);
            valid = JwarcValidator.eachRecord(warc, records, split);
        }
        Map<String, ArchivedRecord> byId = records.stream().filter(r -> r.id() != null)
                .collect(Collectors.toMap(ArchivedRecord::id, Function.identity()));

        for (RawHeads.Row row : rows) {
            String url = origin + row.path();
            List<ArchivedRecord> ofRow = records.stream().filter(r -> url.equals(r.header("WARC-Target-URI"))).toList();
            ArchivedRecord first = ofRow.get(0);
            List<ArchivedRecord> notes = ofRow.stream().filter(r -> r.type().equals("metadata")
                    && "application/warc-fields".equals(r.header("Content-Type"))).toList();
            assertThat(records.stream().filter(r -> r.type().equals("request")
                    && first.id().equals(r.header("WARC-Concurrent-To")))).as("the request of %s", row).hasSize(1);
            if (!row.accepted()) {
                assertThat(first.type()).as("%s", row).isEqualTo("metadata");
                assertThat(first.header("Content-Type")).isEqualTo("application/octet-stream");
                assertThat(first.block()).as("%s", row).isNotEmpty();
                assertThat(text(row.bytes())).as("%s", row).startsWith(text(first.block()));
                assertThat(notes).as("%s", row).singleElement().satisfies(note -> assertThat(note.text())
                        .startsWith("http-response-refused: ").contains(row.note()));
                continue;
            }
            assertThat(first.type()).as("%s", row).isEqualTo("response");
            assertThat(text(first.block())).as("%s", row).isEqualTo(text(row.head()) + text(row.body()));
            assertThat(first.header("WARC-Truncated")).isNull();
            List<ArchivedRecord> interim = ofRow.stream().filter(r -> "application/http;msgtype=response"
                    .equals(r.header("Content-Type")) && r.type().equals("metadata")).toList();
            if (row.interim().length > 0) {
                assertThat(interim).as("%s", row).singleElement().satisfies(r -> {
                    assertThat(text(r.block())).isEqualTo(text(row.interim()));
                    assertThat(r.header("WARC-Concurrent-To")).isEqualTo(first.id());
                });
            } else {
                assertThat(interim).as("%s", row).isEmpty();
            }
            if (row.note() == null) {
                assertThat(notes).as("%s", row).isEmpty();
            } else {
                assertThat(notes).as("%s", row).singleElement().satisfies(note -> {
                    assertThat(note.text()).startsWith("http-grammar: ").contains(row.note());
                    assertThat(note.header("WARC-Concurrent-To")).isEqualTo(first.id());
                });
            }
            assertThat(valid.get(records.indexOf(first))).as("jwarc validate of %s's response", row)
                    .isEqualTo(row.jwarcValid());
        }
        List<String> rejected = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            ArchivedRecord record = records.get(i);
            if (!valid.get(i)) {
                rejected.add(record.type() + " " + record.header("WARC-Target-URI"));
                String id = record.id();
                assertThat(record.type()).isEqualTo("response");
                assertThat(byId.values()).as("the note on %s", record.header("WARC-Target-URI"))
                        .anySatisfy(note -> {
                            assertThat(note.header("WARC-Concurrent-To")).isEqualTo(id);
                            assertThat(note.text()).startsWith("http-grammar: ");
                        });
            }
        }
        assertThat(rejected).hasSize((int) rows.stream().filter(r -> r.accepted() && !r.jwarcValid()).count());
    }
}
