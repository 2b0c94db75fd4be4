package org.sievecrawler.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.escape.Json;
import org.sievecrawler.learn.Rule;
import org.sievecrawler.learn.RulesFile;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/** The report's "Rules learned" data: rules.jsonl's rules, each with the trap records of pages.jsonl naming it. */
class RulesExcerptTest {
    private static final Rule SID = new Rule(Rule.Kind.DROP_PARAM, "shop.example", "/cart?sid={hex}", "sid", -1, 12,
            12);
    private static final Rule CALENDAR = new Rule(Rule.Kind.SKIP_TEMPLATE, "shop.example", "/cal?date={date}", "", -1,
            40, 40);
    private static final Rule PRINT = new Rule(Rule.Kind.ALIAS_SEGMENT, "shop.example", "", "print", 0, 6, 6);

    @TempDir
    Path dir;
    private final PageTally tally = new PageTally();

    private JsonNode excerpt() throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = Json.scriptData(text)) {
            json.writeStartObject();
            RulesExcerpt.write(dir.resolve(RulesFile.FILE), tally, json);
            json.writeEndObject();
        }
        return new ObjectMapper().readTree(text.toString()).get("rules");
    }

    private void rules(Rule... learned) throws IOException {
        try (RulesFile file = new RulesFile(dir.resolve(RulesFile.FILE),
                Clock.fixed(Instant.parse("2026-11-29T03:40:00Z"), ZoneOffset.UTC))) {
            for (Rule rule : learned) {
                file.learned(rule);
            }
        }
    }

    private void trap(String url, String error) {
        tally.add(new PageRecord(url, 0, Outcome.TRAP, null, 3, 0, 0, 0, null, null, null, error, false));
    }

    @Test
    void aCrawlWithoutRulesHasNone() throws IOException {
        trap("http://a.test/a/a/a/a", "its path repeats a/");

        assertThat(excerpt().isNull()).isTrue();
    }

    @Test
    void eachRuleIsARowWithTheTrapRecordsThatNameIt() throws IOException {
        rules(SID, CALENDAR, PRINT);
        try (RulesFile file = new RulesFile(dir.resolve(RulesFile.FILE),
                Clock.fixed(Instant.parse("2026-11-29T03:50:00Z"), ZoneOffset.UTC))) {
            file.undone(PRINT, "http://shop.example/print/new", "its page is new");
        }
        for (int i = 0; i < 30; i++) {
            trap("http://shop.example/cal?date=2026-01-" + i, CALENDAR.trapError());
        }
        trap("http://shop.example/print/a", PRINT.trapError("http://shop.example/a"));
        trap("http://shop.example/a/a/a/a", "its path repeats a/");

        JsonNode rules = excerpt();

        assertThat(CALENDAR.trapError()).isEqualTo("learned rule: /cal?date={date} yields only near-duplicates on"
                + " host shop.example (40 of 40 pages near-duplicate); not fetching it");
        assertThat(rules.get("total").asInt()).isEqualTo(3);
        assertThat(rules.get("unreadableLines").asInt()).isZero();
        JsonNode list = rules.get("list");
        assertThat(list.get(0).toString()).isEqualTo("{\"rule\":\"" + SID.describe() + "\",\"kind\":\"drop-param\","
                + "\"host\":\"shop.example\",\"template\":\"/cart?sid={hex}\",\"name\":\"sid\","
                + "\"learned\":\"2026-11-29T03:40:00Z\",\"undone\":null,\"undoneUrl\":null,\"undoneWhy\":null,"
                + "\"traps\":0}");
        assertThat(list.get(1).get("traps").asLong()).isEqualTo(30);
        assertThat(list.get(2).get("traps").asLong()).isEqualTo(1);
        assertThat(list.get(2).get("undone").asText()).isEqualTo("2026-11-29T03:50:00Z");
        assertThat(list.get(2).get("undoneUrl").asText()).isEqualTo("http://shop.example/print/new");
        assertThat(list.get(2).get("undoneWhy").asText()).isEqualTo("its page is new");
    }

    @Test
    void aTrapRecordNamesTheRuleThatRefusedOrRewroteItAndNoOther() {
        assertThat(Rule.namedBy(SID.trapError())).contains(SID.describe());
        assertThat(Rule.namedBy(SID.trapError("http://shop.example/cart"))).contains(SID.describe());
        assertThat(Rule.namedBy("path repeats segment \"a\" 4 times")).isEmpty();
        assertThat(Rule.namedBy(null)).isEmpty();
        assertThat(Rule.namedBy("learned rule: ")).contains("");
    }

    @Test
    void aRuleNamedByRecordsOnlyHasARowOfItsTextAndGarbageLinesAreCounted() throws IOException {
        Files.writeString(dir.resolve(RulesFile.FILE), "not json\n{\"event\":\"learned\"}\n",
                StandardCharsets.UTF_8);
        trap("http://shop.example/cal?date=1", CALENDAR.trapError());

        JsonNode rules = excerpt();

        assertThat(rules.get("unreadableLines").asInt()).isEqualTo(2);
        assertThat(rules.get("list")).hasSize(1);
        assertThat(rules.get("list").get(0).get("rule").asText()).isEqualTo(CALENDAR.describe());
        assertThat(rules.get("list").get(0).has("kind")).isFalse();
        assertThat(rules.get("list").get(0).get("traps").asLong()).isEqualTo(1);
    }

    @Test
    void theRulesCountedFromPagesJsonlAreBoundedAndTheirTextsCut() throws IOException {
        for (int i = 0; i < PageTally.MAX_RULE_TEXTS + 5; i++) {
            trap("http://shop.example/x" + i, "learned rule: r" + i);
        }
        trap("http://shop.example/long", "learned rule: " + "y".repeat(RulesExcerpt.MAX_RULE_CHARS + 100));

        assertThat(tally.ruleTraps).hasSize(PageTally.MAX_RULE_TEXTS);
        assertThat(tally.otherRuleTraps).isEqualTo(6);
        JsonNode rules = excerpt();
        assertThat(rules.get("otherTraps").asLong()).isEqualTo(6);
        assertThat(rules.get("total").asInt()).isEqualTo(PageTally.MAX_RULE_TEXTS);
        assertThat(rules.get("list")).hasSize(AuditExcerpt.MAX_ROWS);
    }

    @Test
    void aRulesJsonlThatIsNoFileIsRefusedNamingItAndTheWayOut() throws IOException {
        Files.createDirectory(dir.resolve(RulesFile.FILE));

        assertThatThrownBy(this::excerpt).isInstanceOf(IOException.class)
                .hasMessageContaining(dir.resolve(RulesFile.FILE).toString())
                .hasMessageEndingWith("; move it away and run the report again to draw the crawl without its rules");
    }

    @Test
    void theTextOfTheNetworkIsScriptDataEscaped() throws IOException {
        String hostile = "</script><script>alert(1)</script>\u2028&";
        Rule rule = new Rule(Rule.Kind.DROP_PARAM, "h.example", "/a?" + hostile, hostile, -1, 3, 3);
        rules(rule);
        StringWriter text = new StringWriter();
        try (JsonGenerator json = Json.scriptData(text)) {
            json.writeStartObject();
            RulesExcerpt.write(dir.resolve(RulesFile.FILE), tally, json);
            json.writeEndObject();
        }

        assertThat(text.toString()).doesNotContain("<", ">", "&", "\u2028");
        JsonNode row = new ObjectMapper().readTree(text.toString()).get("rules").get("list").get(0);
        assertThat(row.get("template").asText()).isEqualTo("/a?" + hostile);
        assertThat(row.get("rule").asText()).isEqualTo(rule.describe());
    }
}
