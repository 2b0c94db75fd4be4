package org.sievecrawler.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.GZIPInputStream;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.parse.PageParser;
import org.sievecrawler.parse.ParsedPage;
import org.sievecrawler.parse.SimHash;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;
import org.sievecrawler.sink.PayloadDigest;

/**
 * The duplicates and titles sections on a crawl of real pages (python-django-doc, from src-test-fixtures'
 * real-pages) with injected copies: an exact copy, a copy with a changed date line and counter, a page without a
 * title; different pages of the same docs (release notes of one template among them) are no duplicates.
 */
class DuplicatesTest {
    private static final String[] PAGES = {"misc/design-philosophies", "misc/api-stability", "misc/distributions",
        "intro/tutorial03", "ref/signals", "releases/1.2.4", "releases/1.2.7", "releases/1.4.22", "releases/1.6.9",
        "topics/email", "topics/serialization", "ref/template-response"};
    private static final String ROOT = "http://127.0.0.1:8080/";

    @TempDir
    Path dir;

    private final PageParser parser = new PageParser();
    private final List<PageRecord> records = new ArrayList<>();

    @Test
    void listsTheExactAndTheNearCopiesAndTheSharedAndMissingTitlesExactly() throws IOException {
        for (String page : PAGES) {
            add(page + ".html", real(page));
        }
        add("copy/design-philosophies.html", real("misc/design-philosophies"));
        byte[] dated = real("topics/email");
        add("topics/email.html?dated", edited(dated, "Last updated on 28 November 2026 at 19:40, 1,204 visits"));
        add("topics/email-mirror.html", edited(dated, "Last updated on 3 March 2025 at 07:15, 98,765 visits"));
        byte[] untitled = new String(real("ref/databases"), StandardCharsets.UTF_8)
                .replaceFirst("<title>[^<]*</title>", "").getBytes(StandardCharsets.UTF_8);
        add("ref/databases.html", untitled);
        records.add(new PageRecord(ROOT + "missing.html", 404, Outcome.HTTP_ERROR, "text/html", 1, 10, 1, 0, null,
                null, ROOT, "HTTP 404", false));
        write();

        JsonNode audit = audit();

        assertThat(audit.path("duplicates").toString()).isEqualTo("["
                + "{\"kind\":\"exact\",\"urls\":[\"" + ROOT + "copy/design-philosophies.html\",\"" + ROOT
                + "misc/design-philosophies.html\"]},"
                + "{\"kind\":\"near\",\"urls\":[\"" + ROOT + "topics/email-mirror.html\",\"" + ROOT
                + "topics/email.html\",\"" + ROOT + "topics/email.html?dated\"]}]");
        JsonNode titles = audit.path("titles");
        assertThat(titles.path("duplicates")).extracting(JsonNode::toString).asString()
                .contains("\"urls\":[\"" + ROOT + "copy/design-philosophies.html\",\"" + ROOT
                        + "misc/design-philosophies.html\"]")
                .contains("\"urls\":[\"" + ROOT + "topics/email-mirror.html\",\"" + ROOT + "topics/email.html\",\""
                        + ROOT + "topics/email.html?dated\"]");
        assertThat(titles.path("duplicates")).hasSize(2);
        assertThat(titles.path("missing").toString()).isEqualTo("[\"" + ROOT + "ref/databases.html\"]");
    }

    @Test
    void differentPagesOfTheSameDocsAreNoNearDuplicates() throws IOException {
        for (String page : PAGES) {
            add(page + ".html", real(page));
        }
        write();
        assertThat(audit().path("duplicates")).isEmpty();
    }

    @Test
    void groupsAroundARepresentativeWithoutChainingAcrossSortRunsAndLeavesFarOnesApart() throws IOException {
        SplittableRandom random = new SplittableRandom(4);
        long base = random.nextLong();
        long oneBit = base ^ 1L << 5;
        long chained = oneBit ^ 0b111L << 40; // 3 bits from oneBit, 4 from base: no group with base
        long far = base ^ 0xffffL << 20;
        long[] fingerprints = {base, oneBit, chained, far, chained ^ 1L << 63}; // p4: 1 bit from p2, 5 from base
        for (int i = 0; i < fingerprints.length; i++) {
            records.add(page("p" + i, "sha1:" + "A".repeat(31) + (char) ('B' + i), fingerprints[i], "T" + i));
        }
        for (int i = 0; i < 2_000; i++) { // noise, so that the block rows spill into several sort runs
            records.add(page("z" + i, "sha1:" + "C".repeat(28) + String.format("%04d", i).replace('0', 'D')
                    .replace('1', 'E').replace('8', 'F').replace('9', 'G'), random.nextLong(), "noise " + i));
        }
        write();
        ExternalSort blocks = new ExternalSort(dir, 400);
        for (int i = 0; i < 4; i++) {
            for (int block = 0; block < 4; block++) {
                blocks.add(Duplicates.blockRow(block, fingerprints[i], i));
            }
        }
        ExternalSort pairs = new ExternalSort(dir, 300);
        Duplicates.pairs(blocks, pairs);
        Duplicates.Clusters clusters = new Duplicates.Clusters(4);
        clusters.join(pairs);
        blocks.close();
        pairs.close();
        assertThat(clusters.representative(1)).isEqualTo(0);
        assertThat(clusters.representative(2)).as("chained through p1 only").isEqualTo(2);
        assertThat(clusters.inGroup(2)).isFalse();
        assertThat(clusters.representative(3)).isEqualTo(3);

        assertThat(audit().path("duplicates").toString()).isEqualTo("[{\"kind\":\"near\",\"urls\":[\"" + ROOT
                + "p0\",\"" + ROOT + "p1\"]},{\"kind\":\"near\",\"urls\":[\"" + ROOT + "p2\",\"" + ROOT
                + "p4\"]}]");
    }

    @Test
    void pagesOfOneFingerprintJoinTheGroupOfTheirFirstPage() throws IOException {
        long base = 0x0123_4567_89ab_cdefL;
        records.add(page("a", "sha1:" + "A".repeat(32), base ^ 1, "a"));
        records.add(page("b", "sha1:" + "B".repeat(32), base ^ 0b110, "b")); // 3 bits from a, 2 from the copies
        records.add(page("c", "sha1:" + "C".repeat(32), base, "c"));
        records.add(page("d", "sha1:" + "D".repeat(32), base, "d"));
        records.add(page("e", "sha1:" + "E".repeat(32), base ^ 0xf000_0000_0000_0000L, "e"));
        write();
        assertThat(audit().path("duplicates").toString()).isEqualTo("[{\"kind\":\"near\",\"urls\":[\"" + ROOT
                + "a\",\"" + ROOT + "b\",\"" + ROOT + "c\",\"" + ROOT + "d\"]}]");
    }

    @Test
    void saysForHowManyPagesNearDuplicatesWereNotMeasured() throws IOException {
        records.add(page("fingerprinted", "sha1:" + "A".repeat(32), 42, "a"));
        records.add(new PageRecord(ROOT + "old-build.html", 200, Outcome.FETCHED, "text/html", 1, 1000, 1, 0, "t",
                null, ROOT, null, false));
        records.add(new PageRecord(ROOT + "old-build-2.html", 200, Outcome.FETCHED, "text/html", 1, 1000, 1, 0, "t",
                null, ROOT, null, false));
        records.add(new PageRecord(ROOT + "file.pdf", 200, Outcome.NOT_HTML, "application/pdf", 1, 1000, 1, 0, null,
                null, ROOT, null, false).withFingerprints("sha1:" + "B".repeat(32), null));
        records.add(new PageRecord(ROOT + "missing.html", 404, Outcome.HTTP_ERROR, "text/html", 1, 10, 1, 0, null,
                null, ROOT, "HTTP 404", false));
        write();
        Audit.write(dir, List.of(Duplicates.of(dir), Stats.of(dir)));
        JsonNode audit = new ObjectMapper().readTree(dir.resolve(Audit.FILE).toFile());
        assertThat(audit.path("duplicates")).isEmpty();
        assertThat(audit.path("stats").path("nearDuplicatesNotMeasured").asLong()).isEqualTo(3);
        String markdown = AuditMarkdown.render("x", AuditFindings.read(dir.resolve(Audit.FILE), 10));
        assertThat(markdown).contains("Near duplicates not measured for **3** pages");

    }

    private JsonNode audit() throws IOException {
        Audit.write(dir, List.of(Duplicates.of(dir), Titles.of(dir)));
        return new ObjectMapper().readTree(dir.resolve(Audit.FILE).toFile());
    }

    private static PageRecord page(String path, String digest, long simhash, String title) {
        return new PageRecord(ROOT + path, 200, Outcome.FETCHED, "text/html", 1, 1000, 1, 0, title, null, ROOT,
                null, false).withFingerprints(digest, SimHash.hex(simhash));
    }

    private void add(String path, byte[] body) {
        HttpUrl url = HttpUrl.get(ROOT + path);
        ParsedPage parsed = parser.parse(body, body.length, "text/html", url);
        records.add(new PageRecord(url.toString(), 200, Outcome.FETCHED, "text/html", 1, body.length, 1,
                parsed.links().size(), parsed.title(), null, ROOT, null, false)
                .withFingerprints(PayloadDigest.of(body, body.length), SimHash.hex(parsed.simhash())));
    }

    private void write() throws IOException {
        try (JsonlSink sink = JsonlSink.open(dir.resolve("pages.jsonl"))) {
            for (PageRecord record : records) {
                sink.accept(record);
            }
        }
    }

    /** {@code body} with a paragraph holding {@code line} after the first {@code <h1>...</h1>}. */
    static byte[] edited(byte[] body, String line) {
        String html = new String(body, StandardCharsets.UTF_8);
        int h1 = html.indexOf("</h1>");
        return (html.substring(0, h1 + 5) + "\n<p>" + line + "</p>" + html.substring(h1 + 5))
                .getBytes(StandardCharsets.UTF_8);
    }

    static byte[] real(String page) throws IOException {
        String resource = "real-pages/python-django-doc/" + page + ".html.gz";
        try (InputStream in = new GZIPInputStream(DuplicatesTest.class.getClassLoader()
                .getResourceAsStream(resource))) {
            return in.readAllBytes();
        }
    }
}
