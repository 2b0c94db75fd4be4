package org.sievecrawler.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import com.fasterxml.jackson.core.JsonGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.changes.ChangeSet;
import org.sievecrawler.escape.Json;

/** The report's "Changes since" data: changes.jsonl counted, its lists cut, lines that are no change counted. */
class ChangesExcerptTest {
    @TempDir
    Path dir;

    private JsonNode excerpt() throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = Json.scriptData(text)) {
            json.writeStartObject();
            ChangesExcerpt.write(dir.resolve(ChangeSet.FILE), json);
            json.writeEndObject();
        }
        return new ObjectMapper().readTree(text.toString()).get("changes");
    }

    private static String line(String url, String change, String extra) {
        return "{\"url\":\"" + url + "\",\"change\":\"" + change + "\",\"status\":200,\"previousStatus\":404,"
                + "\"outcome\":\"fetched\"" + extra + "}\n";
    }

    @Test
    void aCrawlWithoutChangesJsonlHasNone() throws IOException {
        assertThat(excerpt().isNull()).isTrue();
    }

    @Test
    void countsEveryChangeAndListsTheAnswersCutWithTheirWholeCounts() throws IOException {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < AuditExcerpt.MAX_ROWS + 3; i++) {
            lines.append(line("http://a.test/new" + i, "new", ""));
        }
        lines.append(line("http://a.test/u", "unchanged", ",\"unlinked\":true,\"previousReferrer\":\"http://a.test/\""));
        lines.append(line("http://a.test/m", "not-modified", ""));
        lines.append(line("http://a.test/g", "gone", ",\"previousReferrer\":\"</script><b>x\""));
        lines.append("not json\n{\"url\":\"http://a.test/x\",\"change\":\"renamed\"}\n[1]\n");
        lines.append(line("http://a.test/v", "not-visited", "").replace("\"status\":200", "\"status\":null"));
        Files.writeString(dir.resolve(ChangeSet.FILE), lines, StandardCharsets.UTF_8);

        JsonNode changes = excerpt();

        assertThat(changes.get("counts").toString()).isEqualTo("{\"new\":" + (AuditExcerpt.MAX_ROWS + 3)
                + ",\"changed\":0,\"unchanged\":1,\"notModified\":1,\"gone\":1,\"moved\":0,\"unreachable\":0,"
                + "\"notVisited\":1,\"unlinked\":1}");
        assertThat(changes.get("unreadableLines").asLong()).isEqualTo(3);
        assertThat(changes.get("lists").get("new").size()).isEqualTo(AuditExcerpt.MAX_ROWS);
        assertThat(changes.get("totals").get("new").asLong()).isEqualTo(AuditExcerpt.MAX_ROWS + 3);
        assertThat(changes.get("lists").has("unchanged")).as("counted, not listed").isFalse();
        assertThat(changes.get("lists").get("gone").get(0).get("previousReferrer").asText())
                .isEqualTo("</script><b>x");
        assertThat(changes.get("lists").get("unlinked").get(0).get("change").asText()).isEqualTo("unchanged");
        assertThat(changes.get("lists").get("notVisited").get(0).get("status").isNull()).isTrue();
    }
}
