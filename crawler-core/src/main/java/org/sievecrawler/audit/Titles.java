package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;

/**
 * The {@code titles} of audit.json, over the HTML pages fetched with status 200 (outcome {@code fetched}):
 * {@code {"duplicates": [{title, urls}], "missing": [url]}}: titles (as in pages.jsonl: whitespace collapsed and
 * trimmed, compared exactly) that two or more pages share, sorted by their first URL, and the pages without a title
 * or with an empty one, sorted. Both are sorted on disk ({@link ExternalSort}); a URL listed twice in pages.jsonl
 * counts once.
 *
 * <p>Immutable once built; its lists wait in temporary files until written.
 */
public final class Titles implements AuditSection {
    private final UrlGroups duplicates;
    private final Path missing;
    private final long missingCount;

    private Titles(UrlGroups duplicates, Path missing, long missingCount) {
        this.duplicates = duplicates;
        this.missing = missing;
        this.missingCount = missingCount;
    }

    /** The titles of the pages of the crawl in {@code dir} (its pages.jsonl; none when it has none). */
    public static Titles of(Path dir) throws IOException {
        Path pages = dir.resolve(CrawlFolder.PAGES);
        UrlGroups duplicates = new UrlGroups(dir);
        Path missing = Files.createTempFile("sieve-audit-untitled-", ".txt");
        missing.toFile().deleteOnExit();
        long missingCount = 0;
        try (ExternalSort titled = new ExternalSort(dir, ExternalSort.DEFAULT_MAX_BYTES);
                ExternalSort untitled = new ExternalSort(dir, ExternalSort.DEFAULT_MAX_BYTES)) {
            if (Files.exists(pages)) {
                JsonlSink.readSkipping(pages, r -> {
                    if (!(r.outcome() == Outcome.FETCHED && r.status() == 200 || r.outcome() == Outcome.NOT_MODIFIED
                            && r.contentType() != null && r.contentType().contains("html"))) { // its title carried
                        return;
                    }
                    String url = ExternalSort.oneLine(r.url());
                    String title = r.title() == null ? "" : ExternalSort.oneLine(r.title()).strip();
                    if (title.isEmpty()) {
                        untitled.add(url);
                    } else {
                        titled.add(title + '\t' + url);
                    }
                });
            }
            UrlGroups.Runs runs = new UrlGroups.Runs(duplicates::add);
            titled.sorted(line -> {
                int tab = line.lastIndexOf('\t');
                runs.add(line.substring(0, tab), line.substring(tab + 1));
            });
            runs.flush();
            long[] count = {0};
            String[] last = {null};
            try (BufferedWriter out = Files.newBufferedWriter(missing, StandardCharsets.UTF_8)) {
                untitled.sorted(url -> {
                    if (!url.equals(last[0])) {
                        out.write(url);
                        out.write('\n');
                        count[0]++;
                        last[0] = url;
                    }
                });
            }
            missingCount = count[0];
        }
        return new Titles(duplicates.sorted(), missing, missingCount);
    }

    @Override
    public String name() {
        return "titles";
    }

    /** Duplicate-title groups plus pages without a title. */
    @Override
    public long findings() {
        return duplicates.count() + missingCount;
    }

    @Override
    public void write(JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeFieldName("duplicates");
        duplicates.write(json, "title");
        json.writeArrayFieldStart("missing");
        try (BufferedReader in = Files.newBufferedReader(missing, StandardCharsets.UTF_8)) {
            for (String url = in.readLine(); url != null; url = in.readLine()) {
                json.writeString(url);
            }
        }
        json.writeEndArray();
        json.writeEndObject();
    }
}
