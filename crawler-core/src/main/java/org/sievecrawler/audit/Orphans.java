package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sievecrawler.graph.Edge;
import org.sievecrawler.graph.LinksFile;

/**
 * audit.json's {@code orphans}: {@code [{url, listedIn: [sitemap...]}]}, the URLs in scope that a sitemap lists and
 * no page links to (a link from the page to itself, a redirect and another sitemap do not count), sorted by URL.
 *
 * <p>From the link graph (links.tsv.zst) alone, sorted on disk by target with an {@link ExternalSort}; the findings go
 * to a file in the crawl folder that {@link #write} streams and deletes. Immutable once built.
 */
public final class Orphans implements AuditSection {
    private final Path findingsFile;
    private final long findings;

    private Orphans(Path findingsFile, long findings) {
        this.findingsFile = findingsFile;
        this.findings = findings;
    }

    /** The orphans of the crawl in {@code dir}, sorted with {@link ExternalSort#DEFAULT_MAX_BYTES}. */
    public static Orphans of(Path dir) throws IOException {
        return of(dir, ExternalSort.DEFAULT_MAX_BYTES);
    }

    /** The orphans of the crawl in {@code dir}, the sort holding at most about {@code maxBytes}. */
    public static Orphans of(Path dir, long maxBytes) throws IOException {
        Path out = dir.resolve(".orphans.tmp");
        long[] found = {0};
        try (ExternalSort sort = new ExternalSort(dir, maxBytes);
                BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            try {
                LinksFile.read(dir, e -> {
                    if (e.kind() == Edge.Kind.SITEMAP) {
                        if (e.inScope()) {
                            sort.add(e.to() + "\tS\t" + e.from());
                        }
                    } else if (e.kind() != Edge.Kind.REDIRECT && !e.from().equals(e.to())) {
                        sort.add(e.to() + "\tP");
                    }
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            String[] group = {null, null}; // url, state: "P" linked, "S" orphan so far
            String[] previous = {null};
            sort.sorted(line -> {
                if (line.equals(previous[0])) {
                    return;
                }
                previous[0] = line;
                int tab = line.indexOf('\t');
                String url = line.substring(0, tab);
                boolean page = line.charAt(tab + 1) == 'P';
                if (!url.equals(group[0])) {
                    group[0] = url;
                    group[1] = page ? "P" : "S";
                    if (!page) {
                        w.write("U\t" + url + "\n");
                        found[0]++;
                    }
                }
                if (!page && group[1].equals("S")) {
                    w.write("S\t" + line.substring(tab + 3) + "\n");
                }
            });
        }
        return new Orphans(out, found[0]);
    }

    @Override
    public String name() {
        return "orphans";
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
                int tab = line.indexOf('\t');
                if (line.charAt(0) == 'U') {
                    if (open) {
                        json.writeEndArray();
                        json.writeEndObject();
                    }
                    json.writeStartObject();
                    json.writeStringField("url", line.substring(tab + 1));
                    json.writeArrayFieldStart("listedIn");
                    open = true;
                } else {
                    json.writeString(line.substring(tab + 1));
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
