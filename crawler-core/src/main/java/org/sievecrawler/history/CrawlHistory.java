package org.sievecrawler.history;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.sievecrawler.audit.ExternalSort;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.PageRecord;

/**
 * What an earlier crawl recorded of each URL, read from disk: its pages.jsonl sorted by URL into one file
 * ({@value #FILE}: a line {@code URL TAB record} per URL, the record as pages.jsonl writes it), and in memory a sparse
 * index of every {@value #STRIDE}th URL with its offset, so a lookup reads at most {@value #STRIDE} lines with one
 * positional read. A URL recorded more than once (a resumed crawl that fetched it again) keeps its last record.
 *
 * <p>Memory: the index, about 100 bytes a {@value #STRIDE} records (10 M records: ~16 MB); building it, the sort's
 * budget ({@code sortBytes}). Disk: the records once more. The earlier folder is only read: its pages.jsonl is
 * hostile input like any other, so a line that is no record, or whose URL holds a tab or a line break, is skipped
 * and counted ({@link #skipped()}).
 *
 * <p>Thread-safe: lookups read the file with positional reads; the index does not change once built.
 */
public final class CrawlHistory implements AutoCloseable {
    /** The sorted records, in the new crawl's folder. */
    public static final String FILE = "history.tsv";
    /** Records between two entries of the index. */
    static final int STRIDE = 64;
    /** The longest line a lookup reads; a longer one (pages.jsonl's own bound is 1 MiB) ends the block. */
    private static final int MAX_LINE = 1 << 20;
    /** A span of a block short enough to compare line by line rather than bisect further. */
    private static final int BISECT_BELOW = 2048;
    /** Each fetcher thread's read buffer: a lookup reads one block, 64 lines, into it. */
    private static final ThreadLocal<byte[]> BUFFER = ThreadLocal.withInitial(() -> new byte[64 * 1024]);

    private final Path file;
    private final FileChannel channel;
    private final String[] keys;
    private final long[] offsets;
    private final long records;
    private final long skipped;

    private CrawlHistory(Path file, String[] keys, long[] offsets, long records, long skipped) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        this.keys = keys;
        this.offsets = offsets;
        this.records = records;
        this.skipped = skipped;
    }

    /**
     * Reads the records of the crawl in {@code earlier} (its pages.jsonl), sorts them by URL on disk in {@code into}
     * (the new crawl's folder) with at most {@code sortBytes} of lines in memory, and writes {@value #FILE} there.
     *
     * @throws IOException naming the file that could not be read or written
     */
    public static CrawlHistory build(Path earlier, Path into, long sortBytes) throws IOException {
        Path pages = earlier.resolve(CrawlFolder.PAGES);
        if (!Files.isRegularFile(pages)) {
            throw new IOException(earlier + " holds no " + CrawlFolder.PAGES + ": not the folder of a crawl");
        }
        long[] order = {0};
        long[] unusable = {0};
        Path file = into.resolve(FILE);
        Path partial = into.resolve(FILE + ".partial");
        Index index = new Index();
        try (ExternalSort sort = new ExternalSort(into, sortBytes)) {
            JsonlSink.Skipped bad = JsonlSink.readSkipping(pages, record -> {
                String url = record.url();
                if (url.indexOf('\t') >= 0 || url.indexOf('\n') >= 0 || url.indexOf('\r') >= 0) {
                    unusable[0]++;
                    return;
                }
                try {
                    // the order it was written in breaks ties: of one URL's records the last written sorts last
                    byte[] line = JsonlSink.serialize(record); // its line break last
                    sort.add(url + '\t' + sequence(order[0]++) + '\t'
                            + new String(line, 0, line.length - 1, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            try (BufferedWriter out = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
                String[] held = {null, null}; // the URL and the line of the last record seen of it
                sort.sorted(line -> {
                    int tab = line.indexOf('\t');
                    String url = line.substring(0, tab);
                    String kept = url + '\t' + line.substring(line.indexOf('\t', tab + 1) + 1);
                    if (held[0] != null && !held[0].equals(url)) {
                        index.write(out, held[0], held[1]);
                    }
                    held[0] = url;
                    held[1] = kept;
                });
                if (held[0] != null) {
                    index.write(out, held[0], held[1]);
                }
            }
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return new CrawlHistory(file, index.keys(), index.offsets(), index.count,
                    bad.lines() + unusable[0]);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /**
     * Opens {@value #FILE} written by {@link #build} in {@code dir} (a resumed recrawl), reading it once for its
     * index.
     *
     * @throws IOException naming the file when it cannot be read
     */
    public static CrawlHistory open(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        Index index = new Index();
        try (var lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                int tab = line.indexOf('\t');
                index.add(tab < 0 ? line : line.substring(0, tab), line);
            }
        }
        return new CrawlHistory(file, index.keys(), index.offsets(), index.count, 0);
    }

    /**
     * The earlier crawl's last record of {@code url} (normalized as in pages.jsonl), or empty if it recorded none.
     *
     * @throws IOException naming the file when it cannot be read, or a line of it that is no record
     */
    public Optional<PageRecord> lookup(String url) throws IOException {
        int at = Arrays.binarySearch(keys, url);
        int block = at >= 0 ? at : -at - 2; // the last key <= url
        if (block < 0) {
            return Optional.empty();
        }
        long from = offsets[block];
        long to = block + 1 < offsets.length ? offsets[block + 1] : channel.size();
        int length = (int) Math.min(to - from, (long) STRIDE * MAX_LINE);
        byte[] read = buffer(length);
        ByteBuffer bytes = ByteBuffer.wrap(read, 0, length);
        while (bytes.hasRemaining()) {
            if (channel.read(bytes, from + bytes.position()) < 0) {
                break;
            }
        }
        int end = bytes.position();
        byte[] prefix = (url + '\t').getBytes(StandardCharsets.UTF_8);
        // only the line of the URL is decoded: the block's lines are sorted, so it is bisected by offset down to a
        // few lines, each step decoding one URL, then those lines are compared byte for byte
        int lo = 0;
        int hi = end;
        while (hi - lo > BISECT_BELOW) {
            int line = lineAfter(read, (lo + hi) >>> 1, hi);
            if (line >= hi) {
                break;
            }
            int tab = line;
            while (tab < hi && read[tab] != '\t' && read[tab] != '\n') {
                tab++;
            }
            if (url.compareTo(new String(read, line, tab - line, StandardCharsets.UTF_8)) < 0) {
                hi = line;
            } else {
                lo = line;
            }
        }
        for (int line = lo; line < hi; ) {
            int next = lineAfter(read, line, hi);
            if (next - line > prefix.length && Arrays.equals(read, line, line + prefix.length, prefix, 0,
                    prefix.length)) {
                int lineEnd = read[next - 1] == '\n' ? next - 1 : next;
                String json = new String(read, line + prefix.length, lineEnd - line - prefix.length,
                        StandardCharsets.UTF_8);
                try {
                    return Optional.of(JsonlSink.parse(json));
                } catch (IOException e) {
                    throw new IOException(file + ": the line of " + url + " is no record: " + e.getMessage(), e);
                }
            }
            line = next;
        }
        return Optional.empty();
    }

    /** Where the line after the one holding {@code from} starts in {@code bytes} (at most {@code end}). */
    private static int lineAfter(byte[] bytes, int from, int end) {
        int at = from;
        while (at < end && bytes[at] != '\n') {
            at++;
        }
        return Math.min(at + 1, end);
    }

    /** This thread's read buffer, at least {@code length} bytes; one grown past 1 MiB is not kept. */
    private static byte[] buffer(int length) {
        byte[] kept = BUFFER.get();
        if (kept.length >= length) {
            return kept;
        }
        byte[] grown = new byte[Math.max(length, kept.length * 2)];
        if (grown.length <= 1 << 20) {
            BUFFER.set(grown);
        }
        return grown;
    }

    /** {@code n} in 19 digits, zero-padded: sequence numbers that sort as numbers. */
    private static String sequence(long n) {
        String digits = Long.toString(n);
        return "0".repeat(19 - digits.length()) + digits;
    }

    /** The sorted file: a URL, a tab and its last record, a line each, sorted by URL. */
    public Path file() {
        return file;
    }

    /** The URLs the earlier crawl recorded (each once). */
    public long size() {
        return records;
    }

    /** Lines of the earlier pages.jsonl that were no usable record, left out (0 for a history opened again). */
    public long skipped() {
        return skipped;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** The sparse index as the sorted lines go by: every {@value #STRIDE}th URL and its line's offset. */
    private static final class Index {
        private final List<String> keys = new ArrayList<>();
        private final List<Long> offsets = new ArrayList<>();
        private long count;
        private long offset;

        void write(BufferedWriter out, String url, String line) {
            add(url, line);
            try {
                out.write(line);
                out.write('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void add(String url, String line) {
            if (count++ % STRIDE == 0) {
                keys.add(url);
                offsets.add(offset);
            }
            offset += line.getBytes(StandardCharsets.UTF_8).length + 1;
        }

        String[] keys() {
            return keys.toArray(String[]::new);
        }

        long[] offsets() {
            return offsets.stream().mapToLong(Long::longValue).toArray();
        }
    }
}
