package org.sievecrawler.graph;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * links.tsv.gz, the link graph of a crawl on disk: one line per edge, {@code from TAB to TAB kind TAB flags TAB
 * text}, flags {@code -} or any of {@code n} (nofollow) and {@code o} (out of scope), the text with backslash,
 * tab, CR and LF escaped as {@code \\ \t \r \n}. Gzip-compressed; each run of the crawl appends one gzip member (a
 * resumed crawl adds one, and a page fetched again after a crash may have its edges twice: readers deduplicate).
 * About 25 bytes an edge compressed on documentation sites, so 10 M pages of 50 links take about 12 GB and no
 * memory: lines are appended as pages are parsed.
 *
 * <p>Thread-safe: {@link #add} from any number of threads (one lock, one buffered stream). Out of scope: which
 * links a page holds (the pipeline's link step).
 */
public final class LinksFile implements LinkGraph, AutoCloseable {
    /** The file's name in a crawl's output folder. */
    public static final String FILE = "links.tsv.gz";

    private final Writer out;
    private boolean closed;

    private LinksFile(Writer out) {
        this.out = out;
    }

    /** Opens {@code dir}/links.tsv.gz to append a gzip member to it (created if absent). */
    public static LinksFile open(Path dir) throws IOException {
        Path path = dir.resolve(FILE);
        return new LinksFile(new BufferedWriter(new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(
                path, StandardOpenOption.CREATE, StandardOpenOption.APPEND), 1 << 16), StandardCharsets.UTF_8),
                1 << 16));
    }

    @Override
    public synchronized void add(List<Edge> edges) throws IOException {
        if (closed) {
            throw new IOException(FILE + " is closed");
        }
        StringBuilder line = new StringBuilder(128);
        for (Edge e : edges) {
            line.setLength(0);
            line.append(e.from()).append('\t').append(e.to()).append('\t').append(e.kind().label()).append('\t');
            if (!e.nofollow() && e.inScope()) {
                line.append('-');
            }
            if (e.nofollow()) {
                line.append('n');
            }
            if (!e.inScope()) {
                line.append('o');
            }
            line.append('\t');
            escape(e.text(), line);
            line.append('\n');
            out.append(line);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            closed = true;
            out.close();
        }
    }

    /**
     * Reads every edge of {@code dir}/links.tsv.gz, in order (nothing if there is no file). A file cut short by a
     * crash is read up to where it was cut; a line that is not an edge is passed over.
     *
     * @return the lines passed over
     */
    public static long read(Path dir, Consumer<Edge> each) throws IOException {
        Path path = dir.resolve(FILE);
        if (!Files.exists(path)) {
            return 0;
        }
        long skipped = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(
                Files.newInputStream(path), 1 << 16), StandardCharsets.UTF_8), 1 << 16)) {
            String line;
            while ((line = in.readLine()) != null) {
                Edge edge = parse(line);
                if (edge == null) {
                    skipped++;
                } else {
                    each.accept(edge);
                }
            }
        } catch (EOFException e) {
            skipped++; // cut short: what was read stands
        }
        return skipped;
    }

    /** The edge of one line, or null if it is not one. */
    static Edge parse(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 5 || f[0].isEmpty() || f[1].isEmpty()) {
            return null;
        }
        Edge.Kind kind;
        try {
            kind = Edge.Kind.fromLabel(f[2]);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return new Edge(f[0], f[1], kind, f[3].indexOf('n') >= 0, f[3].indexOf('o') < 0, unescape(f[4]));
    }

    private static void escape(String text, StringBuilder to) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> to.append("\\\\");
                case '\t' -> to.append("\\t");
                case '\n' -> to.append("\\n");
                case '\r' -> to.append("\\r");
                default -> to.append(c);
            }
        }
    }

    private static String unescape(String text) {
        if (text.indexOf('\\') < 0) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length()) {
                char n = text.charAt(++i);
                sb.append(switch (n) {
                    case 't' -> '\t';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    default -> n;
                });
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
