package org.sievecrawler.changes;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sievecrawler.audit.ExternalSort;
import org.sievecrawler.audit.UrlHashes;
import org.sievecrawler.graph.Edge;
import org.sievecrawler.graph.LinksFile;

/**
 * The URLs of a recrawl that no page links to any more, found in bounded memory: the candidates (URLs of both crawls
 * the recrawl fetched because it was seeded with them, {@link ChangeSet}) are held as 32-bit hashes
 * ({@link UrlHashes}, a prefilter: up to 2 M URLs, then every edge passes), so that of the link graphs only the
 * edges into a candidate (or a URL of the same hash) are sorted on disk ({@link ExternalSort}, lines {@code to TAB}):
 * the new crawl's edges, and the earlier crawl's edges from the sources the recrawl found not-modified (sorted by
 * source and merged with those sources, which the partial changes file lists in order). The sorted targets are then
 * merged with the partial changes file: a candidate no edge points to is unlinked. A link from a page to itself does
 * not count; any other edge does (a link, a redirect, a sitemap entry, nofollow or not). The earlier edges of the
 * not-modified sources are also appended to the recrawl's links.tsv.zst (one zstd frame), whole: a recrawl of the
 * recrawl finds its graph whole.
 *
 * <p>Not thread-safe. Closing deletes the sort's files.
 */
final class Unlinked implements AutoCloseable {
    private final Path dir;
    private final long sortBytes;
    private final UrlHashes candidates = new UrlHashes();
    private final ExternalSort linked;
    private boolean any;

    /** Sorts in {@code dir}, each of the two sorts open at once holding at most half of {@code sortBytes}. */
    Unlinked(Path dir, long sortBytes) throws IOException {
        this.dir = dir;
        this.sortBytes = sortBytes / 2;
        this.linked = new ExternalSort(dir, this.sortBytes);
    }

    /** Adds {@code url}, a URL that is unlinked unless an edge points to it. */
    void candidate(String url) {
        candidates.add(url);
        any = true;
    }

    /**
     * Reads the edges into the candidates: {@code now}'s links.tsv.zst whole, and {@code earlier}'s from the sources
     * the partial changes file {@code partial} flags not-modified; those earlier edges are appended to {@code now}'s
     * links.tsv.zst as a new frame (their pages were not parsed again), so that the graph of a recrawl is whole for
     * the next one ({@code --since} this recrawl).
     *
     * @return the edges carried
     */
    long readGraphs(Path now, Path earlier, Path partial) throws IOException {
        LinksFile.Wanted wanted = (toHash, kind) -> candidates.mightContain(toHash);
        long[] carried = {0};
        try {
            if (any) {
                LinksFile.read(now, wanted, edge -> {
                    if (counts(edge)) {
                        linked.add(edge.to() + '\t');
                    }
                });
            }
            try (ExternalSort edges = new ExternalSort(dir, sortBytes);
                    BufferedReader sources = reader(partial)) {
                long[] order = {0};
                LinksFile.read(earlier, edge -> {
                    if (ChangeSet.usable(edge.from()) && ChangeSet.usable(edge.to())) {
                        edges.add(line(edge, order[0]++));
                    }
                });
                String[] source = {nextNotModified(sources)};
                List<Edge> page = new ArrayList<>();
                try (LinksFile graph = LinksFile.open(now)) {
                    edges.sorted(line -> {
                        Edge edge = edge(line);
                        if (!page.isEmpty() && !page.get(0).from().equals(edge.from())) {
                            graph.add(page);
                            carried[0] += page.size();
                            page.clear();
                        }
                        while (source[0] != null && ChangeSet.compare(source[0], edge.from()) < 0) {
                            source[0] = nextNotModified(sources);
                        }
                        if (source[0] != null && source[0].equals(edge.from())) {
                            page.add(edge);
                            if (counts(edge) && candidates.mightContain(LinksFile.hash(edge.to()))) {
                                linked.add(edge.to() + '\t');
                            }
                        }
                    });
                    if (!page.isEmpty()) {
                        graph.add(page);
                        carried[0] += page.size();
                    }
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return carried[0];
    }

    /**
     * An edge, the {@code n}th read, as a line of the carried edges' sort: {@code from TAB n TAB to TAB kind TAB
     * flags TAB text}, {@code n} in 19 digits, flags {@code n} (nofollow) or {@code -}, then {@code o} (out of scope)
     * or {@code -}, the text with backslash, tab, CR and LF escaped. Sorted by source first; of a source, its edges in
     * the order read.
     */
    static String line(Edge edge, long n) {
        StringBuilder line = new StringBuilder(edge.from().length() + edge.to().length() + 64);
        String digits = Long.toString(n);
        line.append(edge.from()).append('\t').append("0".repeat(19 - digits.length())).append(digits).append('\t')
                .append(edge.to()).append('\t').append(edge.kind().label()).append('\t')
                .append(edge.nofollow() ? 'n' : '-').append(edge.inScope() ? '-' : 'o').append('\t');
        String text = edge.text();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> line.append("\\\\");
                case '\t' -> line.append("\\t");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                default -> line.append(c);
            }
        }
        return line.toString();
    }

    /** The edge of a {@link #line}. */
    static Edge edge(String line) {
        String[] f = line.split("\t", 6);
        StringBuilder text = new StringBuilder(f[5].length());
        for (int i = 0; i < f[5].length(); i++) {
            char c = f[5].charAt(i);
            if (c == '\\' && i + 1 < f[5].length()) {
                char next = f[5].charAt(++i);
                text.append(next == 't' ? '\t' : next == 'n' ? '\n' : next == 'r' ? '\r' : next);
            } else {
                text.append(c);
            }
        }
        return new Edge(f[0], f[2], Edge.Kind.fromLabel(f[3]), f[4].charAt(0) == 'n', f[4].charAt(1) != 'o',
                text.toString());
    }

    /** Whether {@code edge} makes its target linked: not a page's link to itself, and a target that can be a key. */
    private static boolean counts(Edge edge) {
        return !edge.from().equals(edge.to()) && ChangeSet.usable(edge.to());
    }

    /**
     * Writes {@code file} from the partial changes file {@code partial}: each line's JSON, with
     * {@code "unlinked": true} added to a candidate no edge read points to when {@code measured}.
     *
     * @return the lines so flagged
     */
    long flag(Path partial, Path file, boolean measured) throws IOException {
        Path written = file.resolveSibling(file.getFileName() + ".tmp");
        long[] flagged = {0};
        try (BufferedReader in = reader(partial);
                BufferedWriter out = Files.newBufferedWriter(written, StandardCharsets.UTF_8)) {
            String[] line = {in.readLine()};
            if (measured && any) {
                linked.sorted(target -> {
                    String to = target.substring(0, target.length() - 1);
                    while (line[0] != null && ChangeSet.compare(key(line[0]), to) < 0) {
                        flagged[0] += write(out, line[0], true);
                        line[0] = in.readLine();
                    }
                    if (line[0] != null && key(line[0]).equals(to)) {
                        write(out, line[0], false);
                        line[0] = in.readLine();
                    }
                });
            }
            for (; line[0] != null; line[0] = in.readLine()) {
                flagged[0] += write(out, line[0], measured);
            }
        }
        ChangeSet.replace(written, file);
        return flagged[0];
    }

    /** Writes the JSON of {@code line}, flagged unlinked if {@code unlinkedIfCandidate} and it is one: 1 if so. */
    private static int write(BufferedWriter out, String line, boolean unlinkedIfCandidate) throws IOException {
        int flags = line.indexOf('\t') + 1;
        String json = line.substring(flags + 3);
        boolean unlinked = unlinkedIfCandidate && line.charAt(flags) == 'c';
        if (unlinked) {
            out.write(json, 0, json.length() - 1);
            out.write(",\"unlinked\":true}");
        } else {
            out.write(json);
        }
        out.write('\n');
        return unlinked ? 1 : 0;
    }

    /** The URL of a partial line. */
    private static String key(String line) {
        return line.substring(0, line.indexOf('\t'));
    }

    /** The URL of the next partial line flagged not-modified, or null at the end. */
    private static String nextNotModified(BufferedReader partial) throws IOException {
        for (String line = partial.readLine(); line != null; line = partial.readLine()) {
            int tab = line.indexOf('\t');
            if (line.charAt(tab + 2) == 'm') {
                return line.substring(0, tab);
            }
        }
        return null;
    }

    private static BufferedReader reader(Path file) throws IOException {
        return new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8), 1 << 16);
    }

    @Override
    public void close() throws IOException {
        linked.close();
    }
}
