package org.sievecrawler.changes;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
            carried[0] = carry(now, earlier, partial);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return carried[0];
    }

    /**
     * Appends to {@code now}'s links.tsv.zst the edges of the earlier graph whose pages the partial changes file
     * flags not-modified, copied as the earlier file holds them, never decoded: each page's edge lines are spilled,
     * raw, to a file in {@link #dir}, and one line a page, {@code from TAB offset TAB length}, sorted on disk by page;
     * merged with the not-modified pages (sorted the same way), a carried page's lines are read back and appended
     * whole. The targets of the carried edges that may be candidates are marked linked on the way.
     *
     * @return the edges carried
     */
    private long carry(Path now, Path earlier, Path partial) throws IOException {
        Path spill = Files.createTempFile(dir, "carried-edges", ".tmp");
        long[] carried = {0};
        try (ExternalSort pages = new ExternalSort(dir, sortBytes)) {
            try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(spill), 1 << 16)) {
                Block block = new Block(pages);
                LinksFile.readRaw(earlier, (from, toHash, b, start, toEnd, end) -> {
                    if (block.from != from) { // the next page line read: a new String
                        block.close();
                        block.from = ChangeSet.usable(from) ? from : null;
                        block.start = block.at;
                    }
                    if (block.from != null && indexOf(b, start, toEnd, (byte) '\r') < 0) { // a target as a key
                        try {
                            raw.write(b, start, end - start);
                            raw.write('\n');
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        block.at += end - start + 1;
                    }
                });
                block.close();
            }
            try (BufferedReader sources = reader(partial); FileChannel spilled = FileChannel.open(spill);
                    LinksFile graph = LinksFile.open(now)) {
                String[] source = {nextNotModified(sources)};
                pages.sorted(line -> {
                    int tab1 = line.indexOf('\t');
                    int tab2 = line.indexOf('\t', tab1 + 1);
                    String from = line.substring(0, tab1);
                    while (source[0] != null && ChangeSet.compare(source[0], from) < 0) {
                        source[0] = nextNotModified(sources);
                    }
                    if (source[0] != null && source[0].equals(from)) {
                        byte[] edges = read(spilled, Long.parseLong(line.substring(tab1 + 1, tab2)),
                                Integer.parseInt(line.substring(tab2 + 1)));
                        graph.addRaw(from, edges, 0, edges.length);
                        carried[0] += linkedFrom(from, edges);
                    }
                });
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            Files.deleteIfExists(spill);
        }
        return carried[0];
    }

    /** The page whose edge lines are being spilled: where they start and end in the spill. */
    private static final class Block {
        private final ExternalSort pages;
        String from;
        long start;
        long at;

        Block(ExternalSort pages) {
            this.pages = pages;
        }

        /** Ends the page's block: its line to the sort, if it spilled any edge. */
        void close() {
            if (from != null && at > start) {
                pages.add(from + '\t' + start + '\t' + (at - start));
            }
        }
    }

    /** Marks linked the targets among {@code edges} (carried lines of page {@code from}) that may be candidates. */
    private int linkedFrom(String from, byte[] edges) throws IOException {
        int count = 0;
        for (int line = 0; line < edges.length; ) {
            int h = 0;
            int tab = line;
            while (edges[tab] != '\t') {
                h = 31 * h + (edges[tab] & 0xff);
                tab++;
            }
            if (candidates.mightContain(h)) {
                String to = new String(edges, line, tab - line, StandardCharsets.UTF_8);
                if (!to.equals(from)) {
                    linked.add(to + '\t');
                }
            }
            int end = indexOf(edges, tab, edges.length, (byte) '\n');
            line = end + 1;
            count++;
        }
        return count;
    }

    private static byte[] read(FileChannel file, long offset, int length) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(length);
        while (bytes.hasRemaining()) {
            if (file.read(bytes, offset + bytes.position()) < 0) {
                throw new IOException("the carried edges' spill ends before " + (offset + length));
            }
        }
        return bytes.array();
    }

    private static int indexOf(byte[] b, int from, int to, byte value) {
        for (int i = from; i < to; i++) {
            if (b[i] == value) {
                return i;
            }
        }
        return -1;
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
