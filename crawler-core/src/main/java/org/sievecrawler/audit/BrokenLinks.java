package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.graph.Edge;
import org.sievecrawler.graph.LinksFile;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;

/**
 * audit.json's {@code brokenLinks}: {@code [{url, status, error, linkedFrom: [{page, text, kind}]}]}, every link
 * target of the link graph (links.tsv.zst: links, images, scripts, sitemap entries; not redirects, whose source is
 * the one listed) whose record in pages.jsonl says 4xx or 5xx, {@code http-error}, {@code error} or
 * {@code unreachable}, that is part of a redirect loop ({@link Redirects}: its error says {@code redirect loop: A ->
 * B -> A}), or that redirects (over any number of hops) to such a URL (then its status is the final URL's and its
 * error says {@code redirects to FINAL}), with all the pages linking to it (each page, kind and text once), sorted
 * by URL and then by page. A URL nothing links to (a seed, a sitemap probe, a redirect's target) is no broken link.
 *
 * <p>The join is on disk: the records and the edges into them become lines keyed by URL, record first, sorted
 * together by an {@link ExternalSort} and merged; redirects into broken URLs are found the same way first, one sort a
 * hop back along the chains. The edges into URLs that are not broken (nearly all) are told apart by a {@link
 * UrlHashes} of the broken URLs as links.tsv.zst is read and never sorted. The findings go to a file in the crawl
 * folder that {@link #write} streams and deletes. Memory: the sort's bound. Immutable once built.
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
        try (Join join = join(dir, maxBytes)) {
            EdgeJoin.readAll(dir, java.util.List.of(join));
            return join.finish();
        }
    }

    /**
     * The first half of {@link #of}, for a read of links.tsv.zst shared with other sections ({@link Audit}): the
     * broken URLs of pages.jsonl and the redirects into them, ready for the edges; {@link Join#finish} is the rest.
     */
    static Join join(Path dir, long maxBytes) throws IOException {
        Path broken = dir.resolve(".broken.tmp");
        Path redirects = dir.resolve(".redirects.tmp");
        Path hop = null;
        ExternalSort sort = null;
        if (!Files.exists(dir.resolve(LinksFile.FILE))) { // no link graph: nothing links to a broken URL
            return new Join(dir.resolve(".brokenLinks.tmp"), new ExternalSort(dir, maxBytes), new UrlHashes());
        }
        try {
            if (brokenAndRedirects(dir, broken, redirects)) { // else no record redirects: there is no loop
                try (BufferedWriter b = Files.newBufferedWriter(broken, StandardCharsets.UTF_8,
                        StandardOpenOption.APPEND)) { // a link into a redirect loop reaches no page either
                    Redirects.of(dir).eachLooping((url, status, loop) -> b.write(url + "\t0\t" + status + "\t"
                            + clean(loop) + "\n"));
                }
            }
            hop = broken;
            for (int n = 0; n < MAX_HOPS && Files.size(hop) > 0; n++) {
                Path next = dir.resolve(".broken-" + n + ".tmp");
                redirectsInto(dir, maxBytes, hop, redirects, next);
                try (OutputStream append = Files.newOutputStream(broken, StandardOpenOption.APPEND)) {
                    Files.copy(next, append);
                }
                if (hop != broken) {
                    Files.deleteIfExists(hop);
                }
                hop = next;
            }
            sort = new ExternalSort(dir, maxBytes);
            UrlHashes urls = new UrlHashes();
            try (BufferedReader in = Files.newBufferedReader(broken, StandardCharsets.UTF_8)) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    sort.add(line);
                    urls.add(line.substring(0, line.indexOf('\t')));
                }
            }
            Join join = new Join(dir.resolve(".brokenLinks.tmp"), sort, urls);
            sort = null;
            return join;
        } finally {
            if (sort != null) {
                sort.close();
            }
            Files.deleteIfExists(broken);
            Files.deleteIfExists(redirects);
            if (hop != null) {
                Files.deleteIfExists(hop);
            }
        }
    }

    /**
     * The join of the broken URLs with the edges into them: only those edges are sorted ({@link UrlHashes} lets
     * the others pass by), with the broken records, then merged ({@link #finish}). Closing deletes the sort.
     */
    static final class Join implements EdgeJoin, AutoCloseable {
        private final Path out;
        private final ExternalSort sort;
        private final UrlHashes broken;

        private Join(Path out, ExternalSort sort, UrlHashes broken) {
            this.out = out;
            this.sort = sort;
            this.broken = broken;
        }

        @Override
        public boolean wants(int toHash, Edge.Kind kind) { // a redirect's target is not linked: its source is listed
            return kind != Edge.Kind.REDIRECT && broken.mightContain(toHash);
        }

        @Override
        public void accept(Edge e) {
            sort.add(e.to() + "\t1\t" + e.from() + "\t" + e.kind().label() + "\t" + clean(e.text()));
        }

        @Override
        public boolean readAgain() {
            return false;
        }

        /** The section, once the edges were read. */
        BrokenLinks finish() throws IOException {
            try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
                Merge merge = new Merge(w);
                sort.sorted(merge::line);
                return new BrokenLinks(out, merge.found);
            }
        }

        @Override
        public void close() throws IOException {
            sort.close();
        }
    }

    /** Redirect chains longer than this are not followed back to their start (fetch.max-redirects is 10 at most). */
    private static final int MAX_HOPS = 32;

    /**
     * Reads pages.jsonl: its broken records as {@code url 0 status error} lines to {@code broken}, its redirects as
     * {@code target 1 from} lines to {@code redirects}; returns whether any record names a redirect's target (a
     * redirect, or the error of a chain too long), without which {@link Redirects} finds no chain.
     */
    private static boolean brokenAndRedirects(Path dir, Path broken, Path redirects) throws IOException {
        boolean[] redirecting = {false};
        try (BufferedWriter b = Files.newBufferedWriter(broken, StandardCharsets.UTF_8);
                BufferedWriter r = Files.newBufferedWriter(redirects, StandardCharsets.UTF_8)) {
            Path pages = dir.resolve(CrawlFolder.PAGES);
            if (!Files.exists(pages)) {
                return false;
            }
            try {
                JsonlSink.readSkipping(pages, record -> {
                    redirecting[0] |= record.redirectTo() != null;
                    try {
                        if (isBroken(record.status(), record.outcome())) {
                            b.write(record.url() + "\t0\t" + record.status() + "\t"
                                    + clean(record.error() == null ? "" : record.error()) + "\n");
                        } else if (record.outcome() == Outcome.REDIRECT && record.redirectTo() != null) {
                            r.write(record.redirectTo() + "\t1\t" + record.url() + "\n");
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
        return redirecting[0];
    }

    /**
     * One hop back along the redirects: the URLs that redirect to a broken URL of {@code hop}, as broken lines of
     * their own to {@code next}, with the final target's status and an error naming it.
     */
    private static void redirectsInto(Path dir, long maxBytes, Path hop, Path redirects, Path next)
            throws IOException {
        try (ExternalSort sort = new ExternalSort(dir, maxBytes);
                BufferedWriter n = Files.newBufferedWriter(next, StandardCharsets.UTF_8)) {
            lines(hop, sort);
            lines(redirects, sort);
            String[] target = {null, null, null}; // url, status, error
            sort.sorted(line -> {
                String[] f = line.split("\t", -1);
                if (f[1].equals("0")) {
                    target[0] = f[0];
                    target[1] = f[2];
                    target[2] = f[3].startsWith(REDIRECTS_TO) ? f[3]
                            : REDIRECTS_TO + f[0] + (f[3].isEmpty() ? "" : ": " + f[3]);
                } else if (f[0].equals(target[0])) {
                    n.write(f[2] + "\t0\t" + target[1] + "\t" + target[2] + "\n");
                }
            });
        }
    }

    private static final String REDIRECTS_TO = "redirects to ";

    private static void lines(Path file, ExternalSort sort) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                sort.add(line);
            }
        }
    }

    static boolean isBroken(int status, Outcome outcome) {
        return status >= 400 || outcome == Outcome.HTTP_ERROR || outcome == Outcome.ERROR
                || outcome == Outcome.UNREACHABLE;
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
