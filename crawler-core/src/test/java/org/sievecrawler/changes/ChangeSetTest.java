package org.sievecrawler.changes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.graph.Edge;
import org.sievecrawler.graph.LinksFile;
import org.sievecrawler.history.CrawlHistory;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/** changes.jsonl: the merge of a recrawl's records with the earlier crawl's, and the unlinked URLs. */
class ChangeSetTest {
    private static final String S = "http://site.test/";
    private static final long SORT = 1 << 20;

    @TempDir
    Path earlier;
    @TempDir
    Path out;

    private static String resource(String name) throws IOException {
        try (InputStream in = ChangeSetTest.class.getResourceAsStream("/changes/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The earlier crawl's pages.jsonl and the recrawl's, history.tsv built from the first as the recrawl does. */
    private void crawls(String earlierPages, String nowPages) throws IOException {
        Files.writeString(earlier.resolve("pages.jsonl"), earlierPages, StandardCharsets.UTF_8);
        Files.writeString(out.resolve("pages.jsonl"), nowPages, StandardCharsets.UTF_8);
        CrawlHistory.build(earlier, out, SORT).close();
    }

    /** The earlier crawl's records, sorted into the recrawl's folder. */
    private Path history() {
        return out.resolve(CrawlHistory.FILE);
    }

    private List<String> changes() throws IOException {
        return Files.readAllLines(out.resolve(ChangeSet.FILE), StandardCharsets.UTF_8);
    }

    @Test
    void writesOneLineSortedByUrlForEachUrlOfEitherCrawlWithEveryChange() throws IOException {
        crawls(resource("earlier.jsonl"), resource("now.jsonl"));

        ChangeCounts counts = ChangeSet.write(out, history(), earlier, Set.of(), SORT);

        assertThat(changes()).containsExactlyElementsOf(resource("expected.jsonl").lines().toList());
        assertThat(counts.byChange()).containsExactlyInAnyOrderEntriesOf(Map.of(Change.NEW, 1L, Change.CHANGED, 3L,
                Change.UNCHANGED, 7L, Change.NOT_MODIFIED, 1L, Change.GONE, 2L, Change.MOVED, 2L,
                Change.UNREACHABLE, 2L, Change.NOT_VISITED, 1L));
        assertThat(counts.skipped()).as("the recrawl's lines that are no record: [1, 2] and a URL with a tab")
                .isEqualTo(2);
        assertThat(counts.unlinked()).as("no link graph in either crawl: not measured").isEmpty();
        assertThat(counts.since()).as("the earlier folder has no summary.json").isNull();
        assertThat(changes()).noneMatch(line -> line.contains("unlinked"));
        assertThat(out.resolve(ChangeSet.FILE + ".partial")).doesNotExist();
        assertThat(counts.words()).isEqualTo("changes: 1 new, 3 changed, 7 unchanged, 1 not-modified, 2 gone,"
                + " 2 moved, 2 unreachable, 1 not-visited");
    }

    @Test
    void writesItAgainTheSameOverAnEarlierOne() throws IOException {
        crawls(resource("earlier.jsonl"), resource("now.jsonl"));
        ChangeSet.write(out, history(), null, Set.of(), SORT);
        Files.writeString(out.resolve(ChangeSet.FILE), "left by a crash\n");

        ChangeSet.write(out, history(), null, Set.of(), 4096); // a few lines a run: spilled

        assertThat(changes()).containsExactlyElementsOf(resource("expected.jsonl").lines().toList());
    }

    @Test
    void datesTheChangesByTheEarlierCrawlsStartAndIgnoresASummaryThatIsNotJson() throws IOException {
        crawls(resource("earlier.jsonl"), resource("now.jsonl"));
        Files.writeString(earlier.resolve("summary.json"), "{\"durationMs\": 5, \"outcomes\": {\"fetched\": 3},"
                + " \"startedAt\": \"2026-11-28T20:00:00Z\"}");
        assertThat(ChangeSet.write(out, history(), earlier, Set.of(), SORT).since()).isEqualTo("2026-11-28T20:00:00Z");

        Files.writeString(earlier.resolve("summary.json"), "\u0000{{ not json");
        assertThat(ChangeSet.write(out, history(), earlier, Set.of(), SORT).since()).isNull();
    }

    @Test
    void refusesAHistoryWhoseUrlsDoNotRiseNamingTheFileAndTheLine() throws IOException {
        crawls("", resource("now.jsonl"));
        Files.writeString(out.resolve(CrawlHistory.FILE), S + "b\t{\"url\":\"" + S + "b\",\"outcome\":\"fetched\"}\n"
                + S + "a\t{\"url\":\"" + S + "a\",\"outcome\":\"fetched\"}\n");

        assertThatThrownBy(() -> ChangeSet.write(out, history(), null, Set.of(), SORT)).isInstanceOf(IOException.class)
                .hasMessageContaining(out.resolve(CrawlHistory.FILE) + ": line 2 (" + S + "a) does not sort after");
        assertThat(out.resolve(ChangeSet.FILE)).doesNotExist();
    }

    @Test
    void skipsAndCountsHistoryLinesThatAreNoRecord() throws IOException {
        crawls("", "");
        Files.writeString(out.resolve(CrawlHistory.FILE), "no tab at all\n" + S + "a\t{not json\n"
                + S + "b\t{\"url\":\"" + S + "other\",\"outcome\":\"fetched\"}\n"
                + S + "c\t{\"url\":\"" + S + "c\",\"status\":200,\"outcome\":\"fetched\"}\n");

        ChangeCounts counts = ChangeSet.write(out, history(), null, Set.of(), SORT);

        assertThat(counts.skipped()).isEqualTo(3);
        assertThat(changes()).containsExactly("{\"url\":\"" + S + "c\",\"change\":\"not-visited\",\"status\":null,"
                + "\"previousStatus\":200,\"outcome\":null}");
    }

    private static PageRecord page(String url, int status, Outcome outcome, int depth, String referrer,
            String digest) {
        return new PageRecord(url, status, outcome, "text/html", depth, 10, 5, 0, null, null, referrer, null, false)
                .withFingerprints(digest, null);
    }

    private static void pages(Path dir, List<PageRecord> records) throws IOException {
        try (JsonlSink sink = JsonlSink.open(dir.resolve("pages.jsonl"))) {
            for (PageRecord record : records) {
                sink.accept(record);
            }
        }
    }

    private static void links(Path dir, String from, String... to) throws IOException {
        List<Edge> edges = new ArrayList<>();
        for (String target : to) {
            edges.add(new Edge(from, target, Edge.Kind.A, false, true, ""));
        }
        try (LinksFile file = LinksFile.open(dir)) {
            file.add(edges);
        }
    }

    private static final String A = "sha1:" + "A".repeat(32);
    private static final String B = "sha1:" + "B".repeat(32);

    /**
     * The earlier crawl: the seed links to every page. The recrawl, seeded with them all: the seed (changed) links
     * to "linked", "same", "fetched" and "new" (new); "same" answered not-modified, so its earlier link to
     * "via-same" is carried; "fetched" changed and its earlier link to "via-fetched" is not carried; "self" links
     * only to itself, and no page links to "orphan".
     */
    private void graphs() throws IOException {
        List<String> paths = List.of("linked", "same", "via-same", "fetched", "via-fetched", "self", "orphan");
        List<PageRecord> before = new ArrayList<>(List.of(page(S, 200, Outcome.FETCHED, 0, null, A)));
        paths.forEach(p -> before.add(page(S + p, 200, Outcome.FETCHED, 1, S, A)));
        pages(earlier, before);
        links(earlier, S, paths.stream().map(p -> S + p).toArray(String[]::new));
        links(earlier, S + "same", S + "via-same");
        links(earlier, S + "fetched", S + "via-fetched");
        List<PageRecord> now = new ArrayList<>(List.of(page(S, 200, Outcome.FETCHED, 0, null, B),
                page(S + "new", 200, Outcome.FETCHED, 1, S, A)));
        for (String p : paths) { // at the depth and with the referrer the earlier crawl found them with
            now.add(p.equals("same") ? page(S + p, 304, Outcome.NOT_MODIFIED, 1, S, A)
                    : page(S + p, 200, Outcome.FETCHED, 1, S, p.equals("fetched") ? B : A));
        }
        pages(out, now);
        links(out, S, S + "linked", S + "new", S + "same", S + "fetched");
        links(out, S + "self", S + "self");
        links(out, S + "fetched");
        CrawlHistory.build(earlier, out, SORT).close();
    }

    @Test
    void flagsTheUrlsNoPageLinksToAnyMoreCountingTheEarlierLinksOfNotModifiedPages() throws IOException {
        graphs();

        ChangeCounts counts = ChangeSet.write(out, history(), earlier, Set.of(S), SORT);

        List<String> unlinked = changes().stream().filter(line -> line.endsWith(",\"unlinked\":true}"))
                .map(line -> line.substring(8, line.indexOf('"', 8))).toList();
        assertThat(unlinked).containsExactly(S + "orphan", S + "self", S + "via-fetched");
        assertThat(counts.unlinked()).hasValue(3);
        assertThat(counts.count(Change.NEW)).isEqualTo(1);
        assertThat(counts.words()).endsWith(", 3 unlinked");
    }

    @Test
    void carriesTheEarlierLinksOfNotModifiedPagesIntoTheRecrawlsGraphSoARecrawlOfItFindsThem(@TempDir Path third)
            throws IOException {
        graphs();
        ChangeSet.write(out, history(), earlier, Set.of(S), SORT);

        List<Edge> edges = new ArrayList<>();
        LinksFile.read(out, edges::add);
        assertThat(edges).filteredOn(e -> e.from().equals(S + "same")).extracting(Edge::to)
                .containsExactly(S + "via-same");
        assertThat(edges).filteredOn(e -> e.from().equals(S + "fetched")).isEmpty();

        // a recrawl of the recrawl: the seed and "same" answered not-modified, no page parsed
        List<PageRecord> now = new ArrayList<>();
        for (String p : List.of("", "linked", "new", "same", "via-same", "fetched", "via-fetched", "self", "orphan")) {
            now.add(p.isEmpty() || p.equals("same") ? page(S + p, 304, Outcome.NOT_MODIFIED, p.isEmpty() ? 0 : 1,
                    p.isEmpty() ? null : S, A) : page(S + p, 200, Outcome.FETCHED, 1, S, A));
        }
        pages(third, now);
        links(third, S + "self");
        CrawlHistory.build(out, third, SORT).close();

        ChangeCounts counts = ChangeSet.write(third, third.resolve(CrawlHistory.FILE), out, Set.of(S), SORT);

        List<String> unlinked = Files.readAllLines(third.resolve(ChangeSet.FILE)).stream()
                .filter(line -> line.endsWith(",\"unlinked\":true}"))
                .map(line -> line.substring(8, line.indexOf('"', 8))).toList();
        assertThat(unlinked).as("the seed's and same's links carried twice").containsExactly(S + "orphan",
                S + "self", S + "via-fetched");
        assertThat(counts.unlinked()).hasValue(3);
    }

    @Test
    void anEdgeIsCarriedWholeWhateverItsText() throws IOException {
        List<Edge> edges = List.of(new Edge(S + "a", S + "b", Edge.Kind.IMG, true, false, "tab\there\\ \r\n end"),
                new Edge(S + "a", S + "c\u00e9", Edge.Kind.A, false, true, ""));
        Path from = Files.createDirectories(earlier.resolve("from"));
        Path to = Files.createDirectories(earlier.resolve("to"));
        try (LinksFile graph = LinksFile.open(from)) {
            graph.add(edges);
        }

        try (LinksFile graph = LinksFile.open(to)) {
            LinksFile.readRaw(from, (page, toHash, b, start, toEnd, end) -> {
                assertThat(toHash).isEqualTo(LinksFile.hash(new String(b, start, toEnd - start, StandardCharsets.UTF_8)));
                byte[] line = java.util.Arrays.copyOfRange(b, start, end + 1); // with its line end
                line[line.length - 1] = '\n';
                try {
                    graph.addRaw(page, line, 0, line.length);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }

        List<Edge> read = new ArrayList<>();
        LinksFile.read(to, read::add);
        assertThat(read).containsExactlyElementsOf(edges);
    }

    @Test
    void measuresNothingWhenEitherCrawlHasNoGraph() throws IOException {
        graphs();
        Files.delete(earlier.resolve(LinksFile.FILE));

        ChangeCounts counts = ChangeSet.write(out, history(), earlier, Set.of(S), SORT);

        assertThat(counts.unlinked()).isEmpty();
        assertThat(changes()).noneMatch(line -> line.contains("unlinked"));
        assertThat(ChangeSet.write(out, history(), null, Set.of(S), SORT).unlinked()).isEmpty();
    }

    @Test
    void aSeedOfTheRecrawlIsNeverUnlinked() throws IOException {
        graphs();

        ChangeSet.write(out, history(), earlier, Set.of(S, S + "orphan"), SORT);

        assertThat(changes()).filteredOn(line -> line.contains("\"" + S + "orphan\""))
                .singleElement().asString().doesNotContain("unlinked");
    }

    /**
     * 200,000 earlier records and as many new ones over 300,000 URLs (a third in each only), sorted with a budget of
     * about 2,000 lines (a hundred runs): every line as an in-memory merge (a TreeMap in the same order) says.
     */
    @Test
    void mergesLargeCrawlsExactlyThroughManySpilledRuns() throws IOException {
        Random random = new Random(29);
        TreeMap<String, PageRecord[]> expected = new TreeMap<>(ChangeSet::compare);
        List<PageRecord> before = new ArrayList<>();
        List<PageRecord> now = new ArrayList<>();
        Outcome[] outcomes = {Outcome.FETCHED, Outcome.NOT_MODIFIED, Outcome.HTTP_ERROR, Outcome.REDIRECT,
                Outcome.UNREACHABLE};
        for (int i = 0; i < 300_000; i++) {
            String url = "https://h" + random.nextInt(40) + ".example/" + Integer.toString(i, 36)
                    + (random.nextInt(50) == 0 ? "\u0001" : "");
            int where = i % 3; // 0: both, 1: earlier only, 2: new only
            PageRecord[] pair = new PageRecord[2];
            if (where != 2) {
                pair[0] = page(url, 200, Outcome.FETCHED, 1, "https://h0.example/", random.nextBoolean() ? A : B);
                before.add(pair[0]);
            }
            if (where != 1) {
                Outcome outcome = outcomes[random.nextInt(outcomes.length)];
                int status = switch (outcome) {
                    case NOT_MODIFIED -> 304;
                    case HTTP_ERROR -> random.nextBoolean() ? 404 : 500;
                    case REDIRECT -> 301;
                    case UNREACHABLE -> 0;
                    default -> 200;
                };
                pair[1] = page(url, status, outcome, 0, null, status == 200 ? (random.nextBoolean() ? A : B) : null);
                now.add(pair[1]);
            }
            expected.put(url, pair);
        }
        java.util.Collections.shuffle(before, random);
        java.util.Collections.shuffle(now, random);
        pages(earlier, before);
        pages(out, now);
        CrawlHistory.build(earlier, out, 16 << 20).close();

        ChangeCounts counts = ChangeSet.write(out, history(), null, Set.of(), 600_000);

        List<String> lines = new ArrayList<>(expected.size());
        for (Map.Entry<String, PageRecord[]> e : expected.entrySet()) {
            PageRecord[] pair = e.getValue();
            lines.add(ChangeSet.line(e.getKey(), Change.of(pair[0], pair[1]), pair[0], pair[1]));
        }
        assertThat(changes()).isEqualTo(lines);
        assertThat(counts.byChange().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(300_000);
        assertThat(counts.count(Change.NEW)).isEqualTo(100_000);
        assertThat(counts.count(Change.NOT_VISITED)).isEqualTo(100_000);
    }
}
