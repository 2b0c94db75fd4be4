package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.graph.LinksFile;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;

/**
 * audit.json's {@code brokenLinks}: {@code [{url, status, error, linkedFrom: [{page, text, kind}]}]}, every link
 * target of the link graph (links.tsv.gz, any kind: links, images, scripts, redirects, sitemap entries) whose record
 * in pages.jsonl says 4xx or 5xx, {@code http-error}, {@code error} or {@code unreachable}, with all the pages linking
 * to it (each page, kind and text once), sorted by URL and then by page. A URL nothing links to (a seed, a sitemap
 * probe) is no broken link.
 *
 * <p>The join is on disk: the records and the edges become lines keyed by URL, record first, sorted together by an
 * {@link ExternalSort} and merged; the findings go to a file in the crawl folder that {@link #write} streams and
 * deletes. Memory: the sort's bound. Immutable once built. Out of scope: redirect sources whose chain ends in a broken
 * target (the target is listed, linked from the redirecting URL with kind {@code redirect}).
 */
public final class BrokenLinks implements AuditSection {
    private final Path findingsFile;
    private final long findings;

    private BrokenLinks(Path findingsFile, long findings) {
        this.findingsFile = findingsFile;
        this.findings = findings;
    }

    /** The broken links of the crawl in {@code dir}, sorted with {@link ExternalSort#DEFAULT_MAX_BYTES}. */
    public static BrokenLinks of(Path dir) throws IOException {
        return of(dir, ExternalSort.DEFAULT_MAX_BYTES);
    }

    /** The broken links of the crawl in {@code dir}, the sort holding at most about {@code maxBytes}. */
    public static BrokenLinks of(Path dir, long maxBytes) throws IOException {
        Path out = dir.resolve(".brokenLinks.tmp");
        long[] count = {0};
        try (ExternalSort sort = new ExternalSort(dir, maxBytes);
                BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            try {
                Path pages = dir.resolve(CrawlFolder.PAGES);
                if (Files.exists(pages)) {
                    JsonlSink.readSkipping(pages, r -> {
                        if (isBroken(r.status(), r.outcome())) {
                            add(sort, r.url() + "\t0\t" + r.status() + "\t" + clean(r.error() == null ? ""
                                    : r.error()));
                        }
                    });
                }
                LinksFile.read(dir, e -> add(sort, e.to() + "\t1\t" + e.from() + "\t" + e.kind().label() + "\t"
                        + clean(e.text())));
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            Merge merge = new Merge(w);
            sort.sorted(merge::line);
            count[0] = merge.found;
        }
        return new BrokenLinks(out, count[0]);
    }

    static boolean isBroken(int status, Outcome outcome) {
        return status >= 400 || outcome == Outcome.HTTP_ERROR || outcome == Outcome.ERROR
                || outcome == Outcome.UNREACHABLE;
    }

    private static void add(ExternalSort sort, String line) {
        try {
            sort.add(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String clean(String s) {
        return s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    /**
     * Walks the sorted lines URL by URL: a broken record line opens a finding, its edge lines follow (equal lines
     * once); findings are written as {@code U url status error} then {@code L page kind text} lines.
     */
    private static final class Merge {
        private final BufferedWriter out;
        private String url;
        private String header;
        private String previous;
        private boolean written;
        long found;

        Merge(BufferedWriter out) {
            this.out = out;
        }

        void line(String line) throws IOException {
            int tab = line.indexOf('\t');
            String key = line.substring(0, tab);
            if (!key.equals(url)) {
                url = key;
                header = null;
                written = false;
                previous = null;
            }
            if (line.charAt(tab + 1) == '0') {
                header = line.substring(tab + 3);
                return;
            }
            if (header == null || line.equals(previous)) {
                return;
            }
            previous = line;
            if (!written) {
                out.write("U\t" + url + "\t" + header + "\n");
                written = true;
                found++;
            }
            out.write("L\t" + line.substring(tab + 3) + "\n");
        }
    }

    @Override
    public String name() {
        return "brokenLinks";
    }

    @Override
    public long findings() {
        return findings;
    }

    @Override
    public void write(JsonGenerator json) throws IOException {
        json.writeStartArray();
        boolean open = false;
        try (BufferedReader in = Files.newBufferedReader(findingsFile, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split("\t", -1);
                if (f[0].equals("U")) {
                    if (open) {
                        json.writeEndArray();
                        json.writeEndObject();
                    }
                    json.writeStartObject();
                    json.writeStringField("url", f[1]);
                    int status = Integer.parseInt(f[2]);
                    if (status > 0) {
                        json.writeNumberField("status", status);
                    } else {
                        json.writeNullField("status");
                    }
                    if (f[3].isEmpty()) {
                        json.writeNullField("error");
                    } else {
                        json.writeStringField("error", f[3]);
                    }
                    json.writeArrayFieldStart("linkedFrom");
                    open = true;
                } else {
                    json.writeStartObject();
                    json.writeStringField("page", f[1]);
                    json.writeStringField("text", f[3]);
                    json.writeStringField("kind", f[2]);
                    json.writeEndObject();
                }
            }
        }
        if (open) {
            json.writeEndArray();
            json.writeEndObject();
        }
        json.writeEndArray();
        Files.deleteIfExists(findingsFile);
    }
}
