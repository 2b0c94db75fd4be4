package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sievecrawler.graph.Edge;

/**
 * audit.json's {@code orphans}: {@code [{url, listedIn: [sitemap...]}]}, the URLs in scope that a sitemap lists and
 * no page links to (a link from the page to itself, a redirect and another sitemap do not count), sorted by URL.
 *
 * <p>From the link graph (links.tsv.zst) alone, the sitemap entries and the links into the URLs they list sorted on
 * disk by target with an {@link ExternalSort} ({@link Join}); the findings go to a file in the crawl folder that
 * {@link #write} streams and deletes. Immutable once built.
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
        try (Join join = join(dir, maxBytes)) {
            EdgeJoin.readAll(dir, java.util.List.of(join));
            return join.finish();
        }
    }

    /** {@link #of} in two steps, for a read of links.tsv.zst shared with other sections ({@link Audit}). */
    static Join join(Path dir, long maxBytes) throws IOException {
        return new Join(dir.resolve(".orphans.tmp"), new ExternalSort(dir, maxBytes));
    }

    /**
     * The join of the URLs sitemaps list with the pages' links to them. A first read of links.tsv.zst takes the
     * sitemap entries (lines {@code url S sitemap}); when there are any, a second read takes the links (not
     * redirects, sitemaps or a page's link to itself) into the URLs listed ({@link UrlHashes} lets the others pass
     * by) as lines {@code url P}; both are sorted together and merged ({@link #finish}). Closing deletes the sort.
     */
    static final class Join implements EdgeJoin, AutoCloseable {
        private final Path out;
        private final ExternalSort sort;
        private final UrlHashes listed = new UrlHashes();
        private boolean links;

        private Join(Path out, ExternalSort sort) {
            this.out = out;
            this.sort = sort;
        }

        @Override
        public boolean wants(int toHash, Edge.Kind kind) {
            return links ? kind != Edge.Kind.SITEMAP && kind != Edge.Kind.REDIRECT && listed.mightContain(toHash)
                    : kind == Edge.Kind.SITEMAP;
        }

        @Override
        public void accept(Edge e) {
            if (links) {
                if (!e.from().equals(e.to())) {
                    sort.add(e.to() + "\tP");
                }
            } else if (e.inScope()) {
                sort.add(e.to() + "\tS\t" + e.from());
                listed.add(e.to());
            }
        }

        @Override
        public boolean readAgain() {
            if (links) {
                return false;
            }
            links = !listed.isEmpty();
            return links;
        }

        /** The section, once the edges were read. */
        Orphans finish() throws IOException {
            long[] found = {0};
            try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
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
        public void close() throws IOException {
            sort.close();
        }
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
