package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_IGNORE_PARAMS;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.DuplicateTraps;
import org.sievecrawler.learn.Rule;
import org.sievecrawler.learn.RulesFile;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.progress.ProgressReporter;
import org.slf4j.LoggerFactory;

/**
 * What a user sees of the rules a crawl of the duplicate traps ({@link DuplicateTraps}) learns, with the default
 * profile but for the pace, {@code limits.max-pages} 1500 and {@code scope.ignore-params} empty: one log line and one
 * rules.jsonl line per rule, the same rules in summary.json's {@code learned} with what each did, the final line
 * saying so, and the report's rules, each with the trap records of pages.jsonl that name it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CrawlerRulesOutputTest {
    @TempDir
    Path out;
    private final DuplicateTraps site = DuplicateTraps.start();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeEach
    void listen() {
        log.start();
        ((Logger) LoggerFactory.getLogger(RulesFile.class)).addAppender(log);
        ((Logger) ProgressReporter.LOG).addAppender(log);
    }

    @AfterEach
    void stop() {
        ((Logger) LoggerFactory.getLogger(RulesFile.class)).detachAppender(log);
        ((Logger) ProgressReporter.LOG).detachAppender(log);
        site.close();
    }

    @Test
    void eachRuleIsLoggedWrittenCountedAndReportedWithTheUrlsItKeptFromBeingFetched() throws Exception {
        Crawler.newCrawl(CrawlProfile.defaults().with(SEEDS, List.of(site.url("/")))
                .with(SCOPE_IGNORE_PARAMS, List.of())
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 4)
                .with(FETCH_THREADS, 4).with(FETCH_CONNECT_TIMEOUT, Duration.ofSeconds(5))
                .with(FETCH_READ_TIMEOUT, Duration.ofSeconds(10)).with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(20))
                .with(LIMITS_MAX_PAGES, 1500L).with(OUTPUT_DIR, out)).run();
        CrawlOutput crawl = CrawlOutput.read(out);

        RulesFile.Read read = RulesFile.read(out.resolve(RulesFile.FILE));
        assertThat(read.skipped()).isZero();
        List<String> learned = read.entries().stream().filter(e -> !e.undone()).map(e -> e.rule().describe())
                .toList();
        assertThat(learned).as("the traps teach rules").hasSizeGreaterThanOrEqualTo(5).doesNotHaveDuplicates();
        List<String> logged = log.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(logged.stream().filter(line -> line.startsWith("learned: ")).map(line -> line.substring(9)))
                .containsExactlyElementsOf(learned);
        JsonNode summary = crawl.summary.get("learned");
        assertThat(summary.get("rules").asInt()).isEqualTo(learned.size());
        List<String> listed = new ArrayList<>();
        long refused = 0;
        long rewritten = 0;
        for (JsonNode rule : summary.get("list")) {
            listed.add(rule.get("rule").asText());
            refused += rule.get("refused").asLong();
            rewritten += rule.get("rewritten").asLong();
        }
        assertThat(listed).containsExactlyElementsOf(learned);
        assertThat(summary.get("refused").asLong()).isEqualTo(refused);
        assertThat(summary.get("rewritten").asLong()).isEqualTo(rewritten).isPositive();
        assertThat(summary.get("templates").asInt()).isPositive();
        assertThat(summary.get("estimatedBytes").asLong()).isPositive();
        String finalLine = logged.stream().filter(line -> line.startsWith("crawl finished: ")).findFirst()
                .orElseThrow();
        assertThat(finalLine).contains(String.format(" responses=%d; learned: %,d rules", crawl.summary
                .get("responses").asLong(), learned.size()));

        Map<String, Long> trapsByRule = new HashMap<>();
        for (JsonNode record : crawl.records) {
            if (record.get("outcome").asText().equals("trap")) {
                Rule.namedBy(record.get("error").asText()).ifPresent(rule -> trapsByRule.merge(rule, 1L, Long::sum));
            }
        }
        assertThat(trapsByRule).as("every trap record naming a rule names a rule of rules.jsonl").isNotEmpty();
        assertThat(learned).containsAll(trapsByRule.keySet());
        String html = Files.readString(out.resolve("report.html"));
        String open = "<script id=\"report-data\" type=\"application/json\">";
        int start = html.indexOf(open) + open.length();
        JsonNode rules = new ObjectMapper().readTree(html.substring(start, html.indexOf("</script>", start)))
                .get("rules");
        assertThat(rules.get("total").asInt()).isEqualTo(learned.size());
        for (JsonNode row : rules.get("list")) {
            assertThat(row.get("traps").asLong()).as(row.get("rule").asText())
                    .isEqualTo(trapsByRule.getOrDefault(row.get("rule").asText(), 0L));
        }
    }
}
