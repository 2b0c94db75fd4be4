package org.sievecrawler.learn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class RulesFileTest {
    private static final Instant NOW = Instant.parse("2026-11-29T03:40:00Z");
    private static final Rule SID = new Rule(Rule.Kind.DROP_PARAM, "shop.example", "/cart?sid={hex}", "sid", -1, 12,
            12);
    private static final Rule CALENDAR = new Rule(Rule.Kind.SKIP_TEMPLATE, "shop.example", "/cal?date={date}", "", -1,
            40, 39);
    private static final Rule PRINT = new Rule(Rule.Kind.ALIAS_SEGMENT, "shop.example:8080", "", "print", 0, 6, 6);
    private static final Rule JSESSIONID = new Rule(Rule.Kind.ALIAS_PARAM, "shop.example", "", ";jsessionid", -1, 9,
            9);

    @TempDir
    Path dir;
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final ObjectMapper mapper = new ObjectMapper();

    @BeforeEach
    void listen() {
        log.start();
        ((Logger) LoggerFactory.getLogger(RulesFile.class)).addAppender(log);
    }

    @AfterEach
    void stopListening() {
        ((Logger) LoggerFactory.getLogger(RulesFile.class)).detachAppender(log);
    }

    private RulesFile rules() {
        return new RulesFile(dir.resolve(RulesFile.FILE), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private List<String> logged() {
        return log.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    private List<JsonNode> lines() throws IOException {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve(RulesFile.FILE), StandardCharsets.UTF_8)) {
            nodes.add(mapper.readTree(line));
        }
        return nodes;
    }

    @Test
    void aRuleLearnedIsOneLogLineAndOneJsonLine() throws Exception {
        try (RulesFile rules = rules()) {
            rules.learned(SID);
        }

        assertThat(logged()).containsExactly("learned: ?sid= does not change content on host shop.example in"
                + " /cart?sid={hex} (12 of 12 pages near-duplicate); dropping it");
        assertThat(log.list.get(0).getLevel()).isEqualTo(ch.qos.logback.classic.Level.INFO);
        assertThat(Files.readString(dir.resolve(RulesFile.FILE))).isEqualTo("{\"event\":\"learned\","
                + "\"time\":\"2026-11-29T03:40:00Z\",\"kind\":\"drop-param\",\"host\":\"shop.example\","
                + "\"template\":\"/cart?sid={hex}\",\"param\":\"sid\",\"pages\":12,\"nearDuplicates\":12,"
                + "\"rule\":\"?sid= does not change content on host shop.example in /cart?sid={hex} (12 of 12 pages"
                + " near-duplicate); dropping it\"}\n");
    }

    @Test
    void eachKindWritesItsNameAsParamOrSegmentWithItsPositionOrNeither() throws Exception {
        try (RulesFile rules = rules()) {
            rules.learned(CALENDAR);
            rules.learned(PRINT);
            rules.learned(JSESSIONID);
        }

        List<JsonNode> lines = lines();
        assertThat(lines.get(0).get("kind").asText()).isEqualTo("skip-template");
        assertThat(lines.get(0).has("param")).isFalse();
        assertThat(lines.get(0).has("segment")).isFalse();
        assertThat(lines.get(1).get("kind").asText()).isEqualTo("alias-segment");
        assertThat(lines.get(1).get("segment").asText()).isEqualTo("print");
        assertThat(lines.get(1).get("position").asInt()).isZero();
        assertThat(lines.get(1).get("host").asText()).isEqualTo("shop.example:8080");
        assertThat(lines.get(2).get("kind").asText()).isEqualTo("alias-param");
        assertThat(lines.get(2).get("param").asText()).isEqualTo(";jsessionid");
        assertThat(lines.get(2).has("position")).isFalse();
        assertThat(logged()).containsExactly(
                "learned: /cal?date={date} yields only near-duplicates on host shop.example (39 of 40 pages"
                        + " near-duplicate); not fetching it",
                "learned: /print/... is an alias of /... on host shop.example:8080 (path segment 1) (6 of 6 pages"
                        + " near-duplicate); dropping it",
                "learned: ;jsessionid= is an alias on host shop.example: a page with it is the page without it"
                        + " (9 of 9 pages near-duplicate); dropping it");
    }

    @Test
    void aRuleUndoneSaysForWhichUrlAndWhy() throws Exception {
        try (RulesFile rules = rules()) {
            rules.undone(SID, "http://shop.example/cart?sid=1f2e", "its page is 17 bits from the rest");
        }

        assertThat(logged()).containsExactly("undone: ?sid= does not change content on host shop.example in"
                + " /cart?sid={hex} (12 of 12 pages near-duplicate); dropping it: http://shop.example/cart?sid=1f2e"
                + " its page is 17 bits from the rest");
        JsonNode line = lines().get(0);
        assertThat(line.get("event").asText()).isEqualTo("undone");
        assertThat(line.get("url").asText()).isEqualTo("http://shop.example/cart?sid=1f2e");
        assertThat(line.get("why").asText()).isEqualTo("its page is 17 bits from the rest");
    }

    @Test
    void theNetworksTextIsEscapedInTheLogAndWrittenAsJsonEscapesInTheFile() throws Exception {
        String hostile = "x\u001b[2J\r\n\u009bq\u007f\"\\</script>\ud800";
        Rule rule = new Rule(Rule.Kind.DROP_PARAM, "h\u001b.example", "/a?" + hostile, hostile, -1, 3, 3);
        try (RulesFile rules = rules()) {
            rules.learned(rule);
            rules.undone(rule, "http://h.example/" + hostile, hostile);
        }

        assertThat(logged()).allSatisfy(line -> assertThat(line).doesNotContain("\u001b", "\r", "\n", "\u009b",
                "\u007f"));
        assertThat(logged().get(1)).endsWith(": http://h.example/x\\x1b[2J\\r\\n\\u009bq\\x7f\"\\</script>\ud800"
                + " x\\x1b[2J\\r\\n\\u009bq\\x7f\"\\</script>\ud800");
        byte[] bytes = Files.readAllBytes(dir.resolve(RulesFile.FILE));
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertThat(text.split("\n", -1)).hasSize(3); // two lines, each ended
        for (byte b : bytes) {
            assertThat(b == '\n' || b >= 0x20 || b < 0).as("no raw control byte: %s", b).isTrue();
        }
        assertThat(text).doesNotContain("\u007f", "\u009b").contains("\\u001B", "\\u009B", "\\u007F");
        List<JsonNode> lines = lines();
        assertThat(lines.get(0).get("template").asText()).isEqualTo("/a?" + hostile.replace('\ud800', '\ufffd'));
        assertThat(lines.get(1).get("why").asText()).isEqualTo(hostile.replace('\ud800', '\ufffd'));
        assertThat(lines.get(0).get("rule").asText()).isEqualTo(rule.describe().replace('\ud800', '\ufffd'));
        RulesFile.Read read = RulesFile.read(dir.resolve(RulesFile.FILE));
        assertThat(read.skipped()).isZero();
        assertThat(read.entries().get(1).why()).isEqualTo(hostile.replace('\ud800', '\ufffd'));
    }

    @Test
    void aResumedCrawlAppendsToTheFileAndALineCutByACrashStaysALineOfItsOwn() throws Exception {
        try (RulesFile rules = rules()) {
            rules.learned(SID);
        }
        Files.writeString(dir.resolve(RulesFile.FILE), "{\"event\":\"learned\",\"ti", StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.APPEND); // killed inside a write

        try (RulesFile rules = rules()) {
            rules.learned(CALENDAR);
            rules.undone(SID, "http://shop.example/cart?sid=9", "new text");
        }

        List<String> lines = Files.readAllLines(dir.resolve(RulesFile.FILE));
        assertThat(lines).hasSize(4);
        assertThat(lines.get(1)).isEqualTo("{\"event\":\"learned\",\"ti");
        RulesFile.Read read = RulesFile.read(dir.resolve(RulesFile.FILE));
        assertThat(read.skipped()).isEqualTo(1);
        assertThat(read.entries()).extracting(RulesFile.Entry::event).containsExactly("learned", "learned",
                "undone");
        assertThat(read.entries()).extracting(RulesFile.Entry::rule).containsExactly(SID, CALENDAR, SID);
        assertThat(read.inForce()).containsExactly(CALENDAR);
    }

    @Test
    void aCrawlThatLearnsNothingWritesNoFile() throws Exception {
        try (RulesFile rules = rules()) {
            assertThat(rules.path()).isEqualTo(dir.resolve("rules.jsonl"));
        }

        assertThat(dir.resolve(RulesFile.FILE)).doesNotExist();
        assertThat(RulesFile.read(dir.resolve(RulesFile.FILE))).isEqualTo(new RulesFile.Read(List.of(), 0));
    }

    @Test
    void whatIsReadBackIsWhatWasWrittenForEveryKind() throws Exception {
        try (RulesFile rules = rules()) {
            for (Rule rule : List.of(SID, CALENDAR, PRINT, JSESSIONID)) {
                rules.learned(rule);
            }
            rules.undone(PRINT, "http://shop.example:8080/print/a", "new");
        }

        RulesFile.Read read = RulesFile.read(dir.resolve(RulesFile.FILE));

        assertThat(read.skipped()).isZero();
        assertThat(read.entries()).containsExactly(new RulesFile.Entry(false, NOW, SID, null, null),
                new RulesFile.Entry(false, NOW, CALENDAR, null, null), new RulesFile.Entry(false, NOW, PRINT, null,
                        null), new RulesFile.Entry(false, NOW, JSESSIONID, null, null),
                new RulesFile.Entry(true, NOW, PRINT, "http://shop.example:8080/print/a", "new"));
        assertThat(read.inForce()).containsExactly(SID, CALENDAR, JSESSIONID);
    }

    /**
     * learn/rules-garbage.jsonl: one line per way a line can be no rule (not JSON, not an object, an event, kind,
     * host, template, count, name, position or time missing, of the wrong type or out of range, an undone rule
     * without its url or why, text after the object, a cut line).
     */
    @Test
    void theReaderPassesOverEveryLineItCannotUseAndCountsThem() throws Exception {
        Path file = dir.resolve(RulesFile.FILE);
        List<String> garbage = Files.readAllLines(Path.of("src/test/resources/learn/rules-garbage.jsonl"));
        try (RulesFile rules = rules()) {
            rules.learned(SID);
        }
        Files.write(file, garbage, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        Files.write(file, new byte[] {(byte) 0xff, (byte) 0xfe, '{', '\n', 0, 0, '\n'},
                java.nio.file.StandardOpenOption.APPEND);
        Files.writeString(file, "{\"event\":\"learned\",\"rule\":\"" + "x".repeat(70_000) + "\"}\n",
                java.nio.file.StandardOpenOption.APPEND);
        try (RulesFile rules = rules()) {
            rules.learned(CALENDAR);
        }

        RulesFile.Read read = RulesFile.read(file);

        assertThat(garbage).hasSize(39);
        assertThat(read.entries()).extracting(RulesFile.Entry::rule).containsExactly(SID, CALENDAR);
        assertThat(read.skipped()).as("the resource's lines, two of bytes, one too long").isEqualTo(39 + 2 + 1);
    }

    @Test
    void aFileThatIsNotARegularFileIsRefusedByName() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("rules.jsonl"));

        assertThatThrownBy(() -> RulesFile.read(folder)).isInstanceOf(IOException.class)
                .hasMessageContaining(folder.toString());
    }

    @Test
    void aLineThatCannotBeWrittenFailsTheOutputNamingTheFile() throws Exception {
        Files.createDirectory(dir.resolve(RulesFile.FILE));

        try (RulesFile rules = rules()) {
            assertThatThrownBy(() -> rules.learned(SID)).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("cannot write to " + dir.resolve(RulesFile.FILE));
        }
    }

    @Test
    void aClosedFileRefusesLines() throws Exception {
        RulesFile rules = rules();
        rules.close();

        assertThatThrownBy(() -> rules.learned(SID)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("is closed");
    }

    @Test
    void linesWrittenFromManyThreadsAreWholeLines() throws Exception {
        int threads = 8;
        int each = 200;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try (RulesFile rules = rules()) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < each; i++) {
                        rules.learned(new Rule(Rule.Kind.DROP_PARAM, "h" + thread + ".example", "/a?p{n}", "p" + i,
                                -1, i, i));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }

        RulesFile.Read read = RulesFile.read(dir.resolve(RulesFile.FILE));
        assertThat(read.skipped()).isZero();
        assertThat(read.entries()).hasSize(threads * each);
    }
}
