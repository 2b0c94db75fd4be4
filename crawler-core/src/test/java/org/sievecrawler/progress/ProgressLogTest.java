package org.sievecrawler.progress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgressLogTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-23T19:34:05Z"), ZoneOffset.UTC);
    @TempDir
    Path dir;

    private static ProgressLine line(long fetched, long elapsed) {
        return new ProgressLine(fetched, 25.456, 20.0, 8, 200, 0.0002, 0.003, 2, 3, 4, 5, 6, 7, 512_000, elapsed);
    }

    @Test
    void aLineIsOneJsonObjectWithTheFieldsOfTheTextLine() throws Exception {
        Instant at = Instant.parse("2026-11-23T19:34:05.120456Z");

        JsonNode json = new ObjectMapper().readTree(ProgressLog.json(line(120, 9), at));

        assertThat(json.get("at").asText()).isEqualTo("2026-11-23T19:34:05.120Z");
        assertThat(json.get("fetched").asLong()).isEqualTo(120);
        assertThat(json.get("rate").asDouble()).isEqualTo(25.46);
        assertThat(json.get("avg").asDouble()).isEqualTo(20.0);
        assertThat(json.get("queued").asLong()).isEqualTo(8);
        assertThat(json.get("seen").asLong()).isEqualTo(200);
        assertThat(json.get("fpr").asDouble()).isEqualTo(0.0002);
        assertThat(json.get("fallback").asDouble()).isEqualTo(0.003);
        assertThat(json.get("hosts").asInt()).isEqualTo(2);
        assertThat(json.get("active").asInt()).isEqualTo(3);
        assertThat(json.get("threads").asInt()).isEqualTo(4);
        assertThat(json.get("errors").asLong()).isEqualTo(5);
        assertThat(json.get("retries").asLong()).isEqualTo(6);
        assertThat(json.get("robotsRefused").asLong()).isEqualTo(7);
        assertThat(json.get("bytes").asLong()).isEqualTo(512_000);
        assertThat(json.get("elapsed").asLong()).isEqualTo(9);
        assertThat(json.has("badRecords")).as("a single-node crawl reads no records").isFalse();
    }

    @Test
    void aClusterProcessLineHasItsBadRecordsAfterRobotsRefused() throws Exception {
        ProgressLine line = new ProgressLine(120, 25.456, 20.0, 8, 200, 0.0002, 0.003, 2, 3, 4, 5, 6, 7, 512_000, 9,
                OptionalLong.of(11));

        String json = ProgressLog.json(line, Instant.parse("2026-11-23T19:34:05Z"));

        assertThat(json).contains("\"robotsRefused\":7,\"badRecords\":11,\"bytes\":512000");
    }

    @Test
    void aLineWithUrlsOverTheirHostsBudgetHasThemAfterRobotsRefusedAndOneWithoutHasNoField() throws Exception {
        ProgressLine over = new ProgressLine(120, 25.456, 20.0, 8, 200, 0.0002, 0.003, 2, 3, 4, 5, 6, 7, 512_000, 9,
                OptionalLong.empty(), 42);

        assertThat(ProgressLog.json(over, Instant.parse("2026-11-23T19:34:05Z")))
                .contains("\"robotsRefused\":7,\"overHostBudget\":42,\"bytes\":512000");
        assertThat(ProgressLog.json(line(120, 9), Instant.parse("2026-11-23T19:34:05Z")))
                .doesNotContain("overHostBudget");
    }

    @Test
    void linesAreAppendedAcrossRunsOneALine() throws Exception {
        Path file = dir.resolve("progress.jsonl");
        try (ProgressLog log = ProgressLog.append(file, CLOCK)) {
            log.accept(line(1, 1));
            log.accept(line(2, 2));
        }
        try (ProgressLog log = ProgressLog.append(file, CLOCK)) { // a resumed crawl
            log.accept(line(3, 1));
        }

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(3);
        assertThat(lines).extracting(l -> new ObjectMapper().readTree(l).get("fetched").asLong())
                .containsExactly(1L, 2L, 3L);
    }

    @Test
    void theReporterGivesEveryLineItMakesToItsListener() throws Exception {
        Path file = dir.resolve("progress.jsonl");
        try (ProgressLog log = ProgressLog.append(file, CLOCK);
                ProgressReporter reporter = new ProgressReporter(java.time.Duration.ofHours(1), 0,
                        previous -> line(previous + 10, 1), log, Optional.empty())) {
            reporter.next();
            reporter.next();
        }

        assertThat(Files.readAllLines(file)).extracting(l -> new ObjectMapper().readTree(l).get("fetched").asLong())
                .containsExactly(10L, 20L);
    }
}
