package org.sievecrawler.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/** slowest and stats from a pages.jsonl written here; audit.json's members in their order. */
class SlowestAndStatsTest {
    @TempDir
    Path dir;

    private void pages(List<PageRecord> records) throws Exception {
        try (JsonlSink sink = JsonlSink.open(dir.resolve("pages.jsonl"))) {
            for (PageRecord record : records) {
                sink.accept(record);
            }
        }
    }

    private static PageRecord record(String path, int status, Outcome outcome, long ms) {
        return new PageRecord("http://a.test" + path, status, outcome, "text/html", 1, 100, ms, 0, null, null,
                "http://a.test/", status >= 400 ? "HTTP " + status : null, false);
    }

    @Test
    void slowestListsTheFiftySlowestAnswersSlowestFirstAndStatsCountsAsTheFinalLine() throws Exception {
        List<PageRecord> records = new ArrayList<>();
        for (int i = 0; i < 70; i++) {
            records.add(record("/p" + i, 200, Outcome.FETCHED, i * 10L));
        }
        records.add(record("/gone", 404, Outcome.HTTP_ERROR, 5));
        records.add(record("/boom", 500, Outcome.HTTP_ERROR, 5));
        records.add(new PageRecord("http://a.test/moved", 301, Outcome.REDIRECT, null, 1, 0, 1, 0, null,
                "http://a.test/elsewhere", "http://a.test/", null, false));
        records.add(record("/sitemap.xml", 404, Outcome.NO_SITEMAP, 5000));
        records.add(PageRecord.refused("http://a.test/down", Outcome.ERROR, 1, "http://a.test/", "timeout"));
        pages(records);

        Audit.write(dir, List.of(Redirects.of(dir), Slowest.of(dir), Stats.of(dir)));

        JsonNode audit = new ObjectMapper().readTree(dir.resolve("audit.json").toFile());
        List<String> members = new ArrayList<>();
        audit.fieldNames().forEachRemaining(members::add);
        assertThat(members).containsExactly("redirects", "slowest", "stats");
        JsonNode slowest = audit.get("slowest");
        assertThat(slowest).hasSize(50);
        assertThat(slowest.get(0).get("url").asText()).isEqualTo("http://a.test/sitemap.xml");
        assertThat(slowest.get(1).get("url").asText()).isEqualTo("http://a.test/p69");
        assertThat(slowest.get(1).get("totalMs").asLong()).isEqualTo(690);
        assertThat(slowest.get(49).get("url").asText()).isEqualTo("http://a.test/p21");
        JsonNode stats = audit.get("stats");
        assertThat(stats.get("decided").asLong()).isEqualTo(75);
        assertThat(stats.get("pages").asLong()).isEqualTo(70);
        assertThat(stats.get("redirects").asLong()).isEqualTo(1);
        assertThat(stats.get("httpErrors").asLong()).isEqualTo(2);
        assertThat(stats.get("httpErrorsByStatus").toString()).isEqualTo("{\"404\":1,\"500\":1}");
        assertThat(stats.get("failed").asLong()).isEqualTo(1);
        assertThat(stats.get("responses").asLong()).as("the sitemap probe aside").isEqualTo(73);
        assertThat(stats.get("outcomes").get("no-sitemap").asLong()).isEqualTo(1);
        assertThat(stats.get("statuses").get("404").asLong()).isEqualTo(1);
        assertThat(audit.get("redirects")).as("a redirect whose target has no record: one chain").hasSize(1);
        assertThat(audit.get("redirects").get(0).get("final").isNull()).isTrue();
    }
}
