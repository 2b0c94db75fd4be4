package org.sievecrawler.learn;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.DuplicateTraps;
import org.sievecrawler.parse.SimHash;
import org.sievecrawler.progress.CrawlSummary;
import org.sievecrawler.robots.RobotsCache;

class LearnedRulesTest {
    private static final Rule SID = new Rule(Rule.Kind.DROP_PARAM, "shop.example", "/cart?sid={hex}", "sid", -1, 12,
            12);
    private static final Rule CALENDAR = new Rule(Rule.Kind.SKIP_TEMPLATE, "shop.example", "/cal?date={date}", "", -1,
            40, 39);
    private static final Rule PRINT = new Rule(Rule.Kind.ALIAS_SEGMENT, "shop.example", "", "print", 2, 6, 6);

    @TempDir
    Path dir;

    /** A crawl of 1,290 URLs: 56 pages, 1,234 refused as traps. */
    private static CrawlSummary crawl(LearnedRules learned) {
        return new CrawlSummary(Instant.parse("2026-11-29T03:00:00Z"), Duration.ofSeconds(10), "finished", 1290, 56,
                56, 1000, Map.of("fetched", 56L, "trap", 1234L), Map.of(200, 56L), Map.of(), 1000, 1290, 1e-9, 0,
                new CrawlSummary.Parsing(56, 0, Map.of()), 0, 0, 0, 0, CrawlSummary.Dns.NONE, Map.of(), 0,
                RobotsCache.Counts.NONE).with(Optional.of(learned));
    }

    private static LearnedRules threeRules() {
        return new LearnedRules(List.of(new Learner.Tally(SID, false, 0, 50, 2),
                new Learner.Tally(CALENDAR, false, 1234, 0, 25), new Learner.Tally(PRINT, true, 0, 6, 1)), 40, 31_000);
    }

    @Test
    void theFinalLineSaysTheRulesRightAfterWhatTheSiteAnswered() {
        assertThat(crawl(threeRules()).line()).startsWith("crawl finished: decided=1290 pages=56 redirects=0"
                + " http-errors=0 failed=0 responses=56; learned: 3 rules (1 undone), 1,234 URLs refused,"
                + " 56 rewritten; avg=5.6/s ");
    }

    @Test
    void oneRuleIsARuleAndNoneIsNotMentioned() {
        assertThat(new LearnedRules(List.of(new Learner.Tally(SID, false, 0, 7, 0)), 1, 500).words())
                .isEqualTo("learned: 1 rule, 0 URLs refused, 7 rewritten");
        assertThat(new LearnedRules(List.of(), 10, 5_000).words()).isEmpty();
        assertThat(crawl(new LearnedRules(List.of(), 10, 5_000)).line()).contains(" responses=56 avg=")
                .doesNotContain("learned");
    }

    @Test
    void summaryJsonCountsTheRulesAndListsEachWithWhatItDid() throws Exception {
        Path file = dir.resolve("summary.json");
        crawl(threeRules()).writeTo(file);

        JsonNode learned = new ObjectMapper().readTree(file.toFile()).get("learned");
        assertThat(learned.get("rules").asLong()).isEqualTo(3);
        assertThat(learned.get("undone").asLong()).isEqualTo(1);
        assertThat(learned.get("refused").asLong()).isEqualTo(1234);
        assertThat(learned.get("rewritten").asLong()).isEqualTo(56);
        assertThat(learned.get("templates").asLong()).isEqualTo(40);
        assertThat(learned.get("estimatedBytes").asLong()).isEqualTo(31_000);
        JsonNode list = learned.get("list");
        assertThat(list).hasSize(3);
        assertThat(list.get(0).toString()).isEqualTo("{\"kind\":\"drop-param\",\"host\":\"shop.example\","
                + "\"template\":\"/cart?sid={hex}\",\"param\":\"sid\",\"rule\":\"?sid= does not change content on"
                + " host shop.example in /cart?sid={hex} (12 of 12 pages near-duplicate); dropping it\","
                + "\"undone\":false,\"refused\":0,\"rewritten\":50,\"sampled\":2}");
        assertThat(list.get(1).has("param")).isFalse();
        assertThat(list.get(1).get("refused").asLong()).isEqualTo(1234);
        assertThat(list.get(2).get("segment").asText()).isEqualTo("print");
        assertThat(list.get(2).get("position").asInt()).isEqualTo(2);
        assertThat(list.get(2).get("undone").asBoolean()).isTrue();
    }

    @Test
    void theListHoldsTheFirstHundredRulesAndTheCountsAllOfThem() throws Exception {
        List<Learner.Tally> rules = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            rules.add(new Learner.Tally(new Rule(Rule.Kind.DROP_PARAM, "h" + i + ".example", "/?p=*", "p", -1, 9, 9),
                    false, 0, 1, 0));
        }
        Path file = dir.resolve("summary.json");
        crawl(new LearnedRules(rules, 250, 100_000)).writeTo(file);

        JsonNode learned = new ObjectMapper().readTree(file.toFile()).get("learned");
        assertThat(learned.get("rules").asLong()).isEqualTo(250);
        assertThat(learned.get("rewritten").asLong()).isEqualTo(250);
        assertThat(learned.get("list")).hasSize(LearnedRules.LISTED);
        assertThat(learned.get("list").get(99).get("host").asText()).isEqualTo("h99.example");
    }

    @Test
    void hostileTextOfTheNetworkIsWrittenAsJsonEscapes() throws Exception {
        String hostile = "\u001b[2J\u009b\u007f\"</script>";
        Rule rule = new Rule(Rule.Kind.DROP_PARAM, "h.example", "/a?" + hostile, hostile, -1, 3, 3);
        Path file = dir.resolve("summary.json");
        crawl(new LearnedRules(List.of(new Learner.Tally(rule, false, 0, 1, 0)), 1, 1)).writeTo(file);

        String text = java.nio.file.Files.readString(file);
        assertThat(text).doesNotContain("\u001b", "\u009b", "\u007f");
        JsonNode entry = new ObjectMapper().readTree(text).get("learned").get("list").get(0);
        assertThat(entry.get("template").asText()).isEqualTo("/a?" + hostile);
        assertThat(entry.get("rule").asText()).isEqualTo(rule.describe()).doesNotContain("\u001b");
    }

    @Test
    void ofReadsTheLearnersTallyTemplatesAndBytes() {
        Learner learner = Learner.learning(RuleListener.NONE);
        for (int day = 0; day < Learner.MIN_PAGES; day++) { // a calendar: a template of near-duplicates
            String path = "/cal/" + DuplicateTraps.FIRST_DAY.plusDays(day).toString().replace('-', '/') + "/";
            learner.observe("http://127.0.0.1:8080" + path,
                    SimHash.of(DuplicateTraps.visibleText(path).orElseThrow()));
        }
        for (int day = 100; day < 150; day++) {
            learner.atLease("http://127.0.0.1:8080/cal/2030/01/" + day + "/");
        }

        LearnedRules learned = LearnedRules.of(learner);

        assertThat(learned.rules()).isEqualTo(learner.tally()).hasSize(1);
        Learner.Tally calendar = learned.rules().get(0);
        assertThat(calendar.refused() + calendar.sampled()).as("each URL leased refused, or fetched as a sample")
                .isEqualTo(50);
        assertThat(learned.refused()).isEqualTo(calendar.refused()).isPositive();
        assertThat(learned.templates()).isEqualTo(learner.templates()).isPositive();
        assertThat(learned.estimatedBytes()).isEqualTo(learner.estimatedBytes()).isPositive();
        assertThat(learned.words())
                .isEqualTo("learned: 1 rule, " + calendar.refused() + " URLs refused, 0 rewritten");
    }
}
