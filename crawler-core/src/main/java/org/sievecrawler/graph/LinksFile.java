package org.sievecrawler.graph;

import com.github.luben.zstd.ZstdIOException;
import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * links.tsv.zst, the link graph of a crawl on disk, Zstandard-compressed (level 1) text: a page's edges are a
 * line holding the page's URL alone, then one line per edge, {@code to TAB kind TAB flags TAB text}, flags {@code -}
 * or any of {@code n} (nofollow) and {@code o} (out of scope), the text with backslash, tab, CR and LF escaped as
 * {@code \\ \t \r \n}. Each run of the crawl appends one zstd frame (a resumed crawl adds one, and a page fetched
 * again after a crash may have its edges twice: readers deduplicate). On rust-doc (21,738 pages, 2.35 M edges, 108 a
 * page) it takes about 6 bytes an edge; it is appended as pages are parsed and never held in memory.
 *
 * <p>Thread-safe: {@link #add} from any number of threads; a page's lines are made and encoded outside the lock and
 * compressed together under it. Out of scope: which links a page holds (the pipeline's link step).
 */
public final class LinksFile implements LinkGraph, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LinksFile.class);
    /** The file's name in a crawl's output folder. */
    public static final String FILE = "links.tsv.zst";
    /**
     * Zstandard's level: 1, its fastest. zlib's fastest level took 12 % of a crawl's CPU on rust-doc (169 MB of
     * lines); zstd at level 1 compresses several times faster, to fewer bytes.
     */
    private static final int LEVEL = 1;

    private final OutputStream out;
    private boolean closed;

    private LinksFile(OutputStream out) {
        this.out = out;
    }

    /** Opens {@code dir}/links.tsv.zst to append a zstd frame to it (created if absent). */
    public static LinksFile open(Path dir) throws IOException {
        Path path = dir.resolve(FILE);
        OutputStream file = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        try {
            return new LinksFile(new ZstdOutputStream(new BufferedOutputStream(file, 1 << 16), LEVEL));
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    @Override
    public void add(List<Edge> edges) throws IOException {
        StringBuilder lines = new StringBuilder(64 * edges.size() + 128);
        String from = null;
        for (Edge e : edges) {
            if (!e.from().equals(from)) {
                from = e.from();
                lines.append(from).append('\n');
            }
            lines.append(e.to()).append('\t').append(e.kind().label()).append('\t');
            if (!e.nofollow() && e.inScope()) {
                lines.append('-');
            }
            if (e.nofollow()) {
                lines.append('n');
            }
            if (!e.inScope()) {
                lines.append('o');
            }
            lines.append('\t');
            escape(e.text(), lines);
            lines.append('\n');
        }
        byte[] bytes = lines.toString().getBytes(StandardCharsets.UTF_8); // outside the lock, and at once
        synchronized (this) {
            if (closed) {
                throw new IOException(FILE + " is closed");
            }
            out.write(bytes); // a page's edges a call: zstd compresses them into its own buffer
        }
    }

    /**
     * Appends the edges of page {@code from} as another file holds them: {@code lines[offset, offset + length)}, whole
     * edge lines as {@link #readRaw} gives them, each ending with its line end; copied, not decoded.
     */
    public void addRaw(String from, byte[] lines, int offset, int length) throws IOException {
        byte[] page = (from + '\n').getBytes(StandardCharsets.UTF_8);
        synchronized (this) {
            if (closed) {
                throw new IOException(FILE + " is closed");
            }
            out.write(page);
            out.write(lines, offset, length);
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
     * Reads every edge of {@code dir}/links.tsv.zst, in order (nothing if there is no file). A file cut short by a
     * crash is read up to where it was cut; a line that is not an edge is passed over; either is logged as a warning.
     *
     * @return the lines passed over
     */
    public static long read(Path dir, Consumer<Edge> each) throws IOException {
        return read(dir, (toHash, kind) -> true, each);
    }

    /**
     * Which edges a reader wants, told from the {@link #hash} of the target and the kind alone, before the line is
     * decoded. A yes for an edge it does not want (two targets with one hash) costs the reader one edge to check.
     */
    @FunctionalInterface
    public interface Wanted {
        boolean test(int toHash, Edge.Kind kind);
    }

    /**
     * The hash of a target URL that {@link Wanted} is told: {@link String#hashCode}'s polynomial over the URL's UTF-8
     * bytes (so {@code url.hashCode()} itself for an ASCII URL, as normalized URLs are), computed by the reader
     * from the file's bytes without decoding them.
     */
    public static int hash(String url) {
        for (int i = 0; i < url.length(); i++) {
            if (url.charAt(i) >= 0x80) {
                int h = 0;
                for (byte b : url.getBytes(StandardCharsets.UTF_8)) {
                    h = 31 * h + (b & 0xff);
                }
                return h;
            }
        }
        return url.hashCode();
    }

    /** An edge line as it is in the file, for a reader that copies edges rather than decode them. */
    @FunctionalInterface
    public interface RawEdge {
        /**
         * The edge line {@code b[start, end)} (its line end left out) of page {@code from} (the same String for the
         * edges of one page line), its target's {@link #hash} {@code toHash} and its target ending at {@code toEnd}.
         */
        void accept(String from, int toHash, byte[] b, int start, int toEnd, int end);
    }

    /**
     * Reads every edge of {@code dir}/links.tsv.zst as {@link #read(Path, Consumer)} does (the same lines passed
     * over), each handed over as its bytes, undecoded.
     *
     * @return the lines passed over
     */
    public static long readRaw(Path dir, RawEdge each) throws IOException {
        return read(dir, new Lines((toHash, kind) -> true, null, each));
    }

    /** The longest line read; a longer one (a damaged file: a page's URL and a link are a few KB) is passed over. */
    private static final int MAX_LINE = 1 << 20;

    /**
     * {@link #read(Path, Consumer)} passing only the edges {@code wanted} accepts. The file is read as bytes: an
     * edge not wanted is checked for its shape (a damaged line is still counted and warned of), its target hashed,
     * and nothing decoded or made for it.
     *
     * @return the lines passed over as not edges
     */
    public static long read(Path dir, Wanted wanted, Consumer<Edge> each) throws IOException {
        return read(dir, new Lines(wanted, each, null));
    }

    private static long read(Path dir, Lines lines) throws IOException {
        Path path = dir.resolve(FILE);
        if (!Files.exists(path)) {
            return 0;
        }
        try (InputStream in = new ZstdInputStream(new BufferedInputStream(Files.newInputStream(path), 1 << 16))) {
            byte[] b = new byte[1 << 16];
            int start = 0; // of the line under way
            int limit = 0; // of the bytes read
            int scan = 0; // where its end is looked for next
            boolean overlong = false;
            for (int n = in.read(b, limit, b.length - limit); ; n = in.read(b, limit, b.length - limit)) {
                if (n < 0) {
                    if (start < limit && !overlong) { // the last line, without its line end
                        lines.line(b, start, limit);
                    }
                    break;
                }
                limit += n;
                for (int nl = indexOf(b, scan, limit, (byte) '\n'); nl >= 0;
                        nl = indexOf(b, start, limit, (byte) '\n')) {
                    if (overlong) {
                        overlong = false;
                    } else {
                        lines.line(b, start, nl);
                    }
                    start = nl + 1;
                }
                if (start == limit || overlong) {
                    start = 0;
                    limit = 0;
                } else if (start > 0) { // the line under way to the front
                    System.arraycopy(b, start, b, 0, limit - start);
                    limit -= start;
                    start = 0;
                } else if (limit == b.length) {
                    if (b.length >= MAX_LINE) {
                        overlong = true;
                        lines.skipped++;
                        limit = 0;
                    } else {
                        b = java.util.Arrays.copyOf(b, 2 * b.length);
                    }
                }
                scan = limit;
            }
        } catch (ZstdIOException e) {
            lines.skipped++; // cut short (a crash, a second Ctrl-C): what was read stands
        }
        if (lines.skipped > 0) { // a damaged graph must not pass for one without broken links
            LOG.warn("{}: {} line(s) are not edges, or the file is cut short or damaged; what could be read is used,"
                    + " the rest left out", path, lines.skipped);
        }
        return lines.skipped;
    }

    private static int indexOf(byte[] b, int from, int to, byte value) {
        for (int i = from; i < to; i++) {
            if (b[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /** The lines of one read, as they come: a page's URL, then its edges. */
    private static final class Lines {
        private final Wanted wanted;
        private final Consumer<Edge> each;
        /** Takes the edges undecoded instead of {@link #each}, when not null. */
        private final RawEdge raw;
        private String from;
        long skipped;

        Lines(Wanted wanted, Consumer<Edge> each, RawEdge raw) {
            this.wanted = wanted;
            this.each = each;
            this.raw = raw;
        }

        /** The line {@code b[start, end)}, its line end left out. */
        void line(byte[] b, int start, int end) {
            int h = 0;
            int tab1 = start;
            while (tab1 < end && b[tab1] != '\t') {
                h = 31 * h + (b[tab1] & 0xff);
                tab1++;
            }
            if (tab1 == end) {
                from = start == end ? null : new String(b, start, end - start, StandardCharsets.UTF_8);
                return;
            }
            int tab2 = indexOf(b, tab1 + 1, end, (byte) '\t');
            int tab3 = tab2 < 0 ? -1 : indexOf(b, tab2 + 1, end, (byte) '\t');
            Edge.Kind kind = tab3 < 0 ? null : Edge.Kind.fromLabel(b, tab1 + 1, tab2);
            if (from == null || tab1 == start || kind == null || indexOf(b, tab3 + 1, end, (byte) '\t') >= 0) {
                skipped++;
            } else if (raw != null) {
                raw.accept(from, h, b, start, tab1, end);
            } else if (wanted.test(h, kind)) {
                String line = new String(b, start, end - start, StandardCharsets.UTF_8);
                int t1 = line.indexOf('\t');
                int t2 = line.indexOf('\t', t1 + 1);
                each.accept(edge(from, line.substring(0, t1), kind, line, t2, line.indexOf('\t', t2 + 1)));
            }
        }
    }

    /** The edge of {@code line} (of page {@code from}), its flags and text after {@code tab2} and {@code tab3}. */
    private static Edge edge(String from, String to, Edge.Kind kind, String line, int tab2, int tab3) {
        boolean nofollow = false;
        boolean inScope = true;
        for (int i = tab2 + 1; i < tab3; i++) {
            char flag = line.charAt(i);
            nofollow |= flag == 'n';
            inScope &= flag != 'o';
        }
        return new Edge(from, to, kind, nofollow, inScope, unescape(line.substring(tab3 + 1)));
    }

    private static void escape(String text, StringBuilder to) {
        if (plain(text)) { // nearly all: appended in one copy
            to.append(text);
            return;
        }
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

    /** Whether {@code text} holds nothing to escape (no backslash, and no control character: tab, CR, LF). */
    private static boolean plain(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == '\\') {
                return false;
            }
        }
        return true;
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
