package org.sievecrawler.changes;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.sievecrawler.audit.ExternalSort;
import org.sievecrawler.audit.UrlHashes;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.escape.Json;
import org.sievecrawler.graph.LinksFile;
import org.sievecrawler.history.CrawlHistory;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.input.InputFileException;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * changes.jsonl, what changed between an earlier crawl and a recrawl ({@code crawl --since}) of it: one JSON line
 * per URL of either crawl, sorted by URL, {@code {"url", "change", "status", "previousStatus", "outcome"}} (status
 * and outcome of the new record, null for a URL it has none of; previousStatus the earlier record's, null for a new
 * URL), {@code "previousReferrer"} where the earlier record had one (so a gone page says where it was linked from)
 * and {@code "unlinked": true} on a URL no page links to any more (below). The change is {@link Change#of}'s rule.
 *
 * <p>How: the new crawl's pages.jsonl is sorted by URL on disk ({@link ExternalSort}, at most {@code sortBytes} of
 * lines in memory; of a URL recorded twice, by a resumed crawl, the last record counts) and merged with the earlier
 * crawl's records, {@link CrawlHistory#FILE}, which the recrawl wrote sorted the same way: both sort lines
 * {@code URL TAB ...} with {@link String#compareTo}, so URLs compare as {@code URL + TAB} ({@link #compare}); the
 * merge checks that each file's URLs rise and refuses a history.tsv that does not. Memory: the sort's budget and a
 * few lines, then for the unlinked URLs two sorts of half the budget each and the candidates' hashes (at most
 * 16 MB, {@link UrlHashes}). Disk: the new records once more, then changes.jsonl twice (a partial file, then the
 * file). A line of either
 * file that is no record, or a URL holding a tab or a line break, is skipped and counted
 * ({@link ChangeCounts#skipped()}), never a crash.
 *
 * <p>Unlinked: a URL of both crawls (the recrawl is seeded with every URL of the earlier one) that the earlier crawl
 * found through a link (not a seed there: depth 0 without a referrer; a recrawl keeps the depth and referrer it was
 * found with) and is not one of the recrawl's {@code seeds}, that no page of the new crawl links to. Known only from
 * both link graphs (links.tsv.zst, {@code output.links} in both crawls): the new crawl's edges, and, for the
 * sources answered not-modified (their body was not sent, their links not read again), the earlier crawl's edges from
 * them ({@link Unlinked}; those edges are then appended to the recrawl's links.tsv.zst, so that a recrawl of this
 * recrawl finds a whole graph). A link from a page to itself does not count. When either graph is missing nothing
 * is guessed: {@link ChangeCounts#unlinked()} is empty and no line is flagged.
 *
 * <p>Not thread-safe: one call at a time per folder, once nothing writes its pages.jsonl any more. Out of scope:
 * building history.tsv ({@link CrawlHistory#build}), fetching.
 */
public final class ChangeSet {
    /** The file's name in the recrawl's folder. */
    public static final String FILE = CrawlFolder.CHANGES;
    private static final Logger LOG = LoggerFactory.getLogger(ChangeSet.class);

    private ChangeSet() {
    }

    /**
     * Writes {@code out}/changes.jsonl (replacing one written before) from {@code out}'s pages.jsonl and the earlier
     * crawl's records sorted by URL, and returns the counts.
     *
     * @param out the recrawl's folder
     * @param history the earlier crawl's records sorted by URL ({@link CrawlHistory#file()}, written by
     *     {@link CrawlHistory#build})
     * @param earlier the earlier crawl's folder, for when it started (its summary.json) and its link graph; null
     *     when unknown (then {@code since} is null and unlinked not measured)
     * @param seeds the recrawl's own seeds (normalized), never reported unlinked
     * @param sortBytes the sort's memory budget
     * @throws IOException naming the file that could not be read or written, or a history.tsv out of order
     */
    public static ChangeCounts write(Path out, Path history, Path earlier, Set<String> seeds, long sortBytes)
            throws IOException {
        Path pages = out.resolve(CrawlFolder.PAGES);
        Path partial = out.resolve(FILE + ".partial");
        Path file = out.resolve(FILE);
        boolean measured = earlier != null && Files.isRegularFile(out.resolve(LinksFile.FILE))
                && Files.isRegularFile(earlier.resolve(LinksFile.FILE));
        Map<Change, Long> counts = new EnumMap<>(Change.class);
        try (Unlinked unlinked = new Unlinked(out, sortBytes)) {
            long skipped = merge(pages, history, partial, seeds, measured ? unlinked : null, counts, sortBytes);
            OptionalLong unlinkedCount = OptionalLong.empty();
            if (measured) {
                long carried = unlinked.readGraphs(out, earlier, partial);
                LOG.info("{} links of pages not modified since the earlier crawl carried into {}", carried,
                        out.resolve(LinksFile.FILE));
            }
            long flagged = unlinked.flag(partial, file, measured);
            if (measured) {
                unlinkedCount = OptionalLong.of(flagged);
            }
            if (skipped > 0) {
                LOG.warn("{} and {}: {} line(s) are no usable record; changes.jsonl leaves them out", pages, history,
                        skipped);
            }
            return new ChangeCounts(since(earlier), counts, unlinkedCount, skipped);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /**
     * Sorts {@code pages} by URL and merges it with {@code history} into {@code partial}, counting the changes into
     * {@code counts} and giving {@code unlinked} (null when not measured) its candidates. The sort is closed, its
     * memory freed, before the unlinked URLs are looked for.
     *
     * @return the lines of either file that were no usable record
     */
    private static long merge(Path pages, Path history, Path partial, Set<String> seeds, Unlinked unlinked,
            Map<Change, Long> counts, long sortBytes) throws IOException {
        try (ExternalSort sort = new ExternalSort(partial.getParent(), sortBytes)) {
            long[] skipped = {0};
            long[] order = {0};
            JsonlSink.Skipped bad = JsonlSink.readSkipping(pages, record -> {
                if (!usable(record.url())) {
                    skipped[0]++;
                    return;
                }
                try {
                    byte[] line = JsonlSink.serialize(record); // its line break last
                    sort.add(record.url() + '\t' + sequence(order[0]++) + '\t'
                            + new String(line, 0, line.length - 1, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            skipped[0] += bad.lines();
            try (Merge merge = new Merge(history, partial, seeds, unlinked, counts)) {
                String[] held = {null, null}; // the URL and the record line of the last record seen of it
                sort.sorted(line -> {
                    int tab = line.indexOf('\t');
                    String url = line.substring(0, tab);
                    if (held[0] != null && !held[0].equals(url)) {
                        merge.now(held[0], held[1]);
                    }
                    held[0] = url;
                    held[1] = line.substring(line.indexOf('\t', tab + 1) + 1);
                });
                if (held[0] != null) {
                    merge.now(held[0], held[1]);
                }
                merge.finish();
                return skipped[0] + merge.skipped;
            }
        }
    }

    /**
     * Compares two URLs as the sorted files order them: as {@code url + TAB} by {@link String#compareTo} (a line
     * {@code URL TAB ...} sorts by that prefix first, since a usable URL holds no tab).
     */
    static int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                return x - y;
            }
        }
        if (a.length() == b.length()) {
            return 0;
        }
        return a.length() < b.length() ? '\t' - b.charAt(n) : a.charAt(n) - '\t';
    }

    /** Whether {@code url} can be a key of the sorted files: no tab, no line break (as {@link CrawlHistory}). */
    static boolean usable(String url) {
        return url.indexOf('\t') < 0 && url.indexOf('\n') < 0 && url.indexOf('\r') < 0;
    }

    /** {@code n} in 19 digits, zero-padded: sequence numbers that sort as numbers. */
    private static String sequence(long n) {
        String digits = Long.toString(n);
        return "0".repeat(19 - digits.length()) + digits;
    }

    /** The {@code startedAt} of {@code earlier}'s summary.json; null when there is none or it cannot be read. */
    static String since(Path earlier) {
        if (earlier == null || !Files.isRegularFile(earlier.resolve(CrawlFolder.SUMMARY))) {
            return null;
        }
        Path summary = earlier.resolve(CrawlFolder.SUMMARY);
        try (JsonParser json = Json.parser(new String(InputFile.read(summary, InputFile.SUMMARY),
                StandardCharsets.UTF_8))) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            for (JsonToken t = json.nextToken(); t == JsonToken.FIELD_NAME; t = json.nextToken()) {
                String name = json.currentName();
                JsonToken value = json.nextToken();
                if (name.equals("startedAt") && value == JsonToken.VALUE_STRING) {
                    return json.getText();
                }
                json.skipChildren();
            }
            return null;
        } catch (InputFileException e) {
            LOG.warn("the earlier crawl's {}: {}; changes are not dated", summary, e.getMessage());
            return null;
        } catch (IOException e) {
            LOG.warn("the earlier crawl's {} is not JSON ({}); changes are not dated", summary, e.getMessage());
            return null;
        }
    }

    /**
     * The merge of the new records, given in URL order ({@link #now}), with history.tsv, read along: writes the
     * partial file's lines {@code URL TAB flags TAB json}, flags {@code c} (a candidate for unlinked) or {@code -},
     * then {@code m} (answered not-modified) or {@code -}.
     */
    private static final class Merge implements AutoCloseable {
        private final Path historyFile;
        private final BufferedReader history;
        private final BufferedWriter out;
        private final Set<String> seeds;
        private final Unlinked unlinked;
        private final Map<Change, Long> counts;
        private long skipped;
        private long historyLine;
        /** The earlier record read and not yet merged, and its URL; null at the end of the file. */
        private PageRecord earlier;
        private String earlierUrl;
        private String lastNew;

        Merge(Path historyFile, Path partial, Set<String> seeds, Unlinked unlinked, Map<Change, Long> counts)
                throws IOException {
            this.historyFile = historyFile;
            this.history = new BufferedReader(new InputStreamReader(Files.newInputStream(historyFile),
                    StandardCharsets.UTF_8), 1 << 16); // bytes that are not UTF-8 read as U+FFFD
            this.out = Files.newBufferedWriter(partial, StandardCharsets.UTF_8);
            this.seeds = seeds;
            this.unlinked = unlinked;
            this.counts = counts;
            advance();
        }

        /** The new crawl's record of {@code url} (its JSON line), URLs rising. */
        void now(String url, String line) throws IOException {
            PageRecord now;
            try {
                now = JsonlSink.parse(line);
            } catch (IOException e) {
                skipped++; // parsed once already: not expected
                return;
            }
            if (lastNew != null && compare(lastNew, url) >= 0) {
                throw new IllegalStateException("the sorted records are out of order at " + url);
            }
            lastNew = url;
            while (earlier != null && compare(earlierUrl, url) < 0) {
                emit(earlierUrl, earlier, null);
                advance();
            }
            if (earlier != null && earlierUrl.equals(url)) {
                emit(url, earlier, now);
                advance();
            } else {
                emit(url, null, now);
            }
        }

        /** The earlier records after the last new one. */
        void finish() throws IOException {
            while (earlier != null) {
                emit(earlierUrl, earlier, null);
                advance();
            }
        }

        private void emit(String url, PageRecord before, PageRecord now) throws IOException {
            Change change = Change.of(before, now);
            counts.merge(change, 1L, Long::sum);
            boolean candidate = before != null && now != null && !(before.depth() == 0 && before.referrer() == null)
                    && !seeds.contains(url);
            boolean notModified = now != null && now.outcome() == Outcome.NOT_MODIFIED;
            if (unlinked != null && candidate) {
                unlinked.candidate(url);
            }
            out.write(url);
            out.write('\t');
            out.write(candidate ? 'c' : '-');
            out.write(notModified ? 'm' : '-');
            out.write('\t');
            out.write(line(url, change, before, now));
            out.write('\n');
        }

        /** Reads the next usable line of history.tsv into {@link #earlier}; null at the end. */
        private void advance() throws IOException {
            String previous = earlierUrl;
            earlier = null;
            earlierUrl = null;
            for (String line = history.readLine(); line != null; line = history.readLine()) {
                historyLine++;
                int tab = line.indexOf('\t');
                if (tab < 0) {
                    skipped++;
                    continue;
                }
                String url = line.substring(0, tab);
                PageRecord record;
                try {
                    record = JsonlSink.parse(line.substring(tab + 1));
                } catch (IOException e) {
                    skipped++;
                    continue;
                }
                if (!url.equals(record.url()) || !usable(url)) {
                    skipped++;
                    continue;
                }
                if (previous != null && compare(previous, url) >= 0) {
                    throw new IOException(historyFile + ": line " + historyLine + " (" + url
                            + ") does not sort after the URL before it (" + previous + "): not a file "
                            + "written by the recrawl; delete it and start the recrawl again");
                }
                earlier = record;
                earlierUrl = url;
                return;
            }
        }

        @Override
        public void close() throws IOException {
            try (BufferedReader in = history; BufferedWriter written = out) {
                // closed in reverse order
            }
        }
    }

    /** The changes.jsonl line (without its line break and without {@code unlinked}) of one URL. */
    static String line(String url, Change change, PageRecord before, PageRecord now) throws IOException {
        StringWriter text = new StringWriter(160);
        try (JsonGenerator json = Json.writer(text)) {
            json.writeStartObject();
            json.writeStringField("url", url);
            json.writeStringField("change", change.label());
            if (now == null) {
                json.writeNullField("status");
            } else {
                json.writeNumberField("status", now.status());
            }
            if (before == null) {
                json.writeNullField("previousStatus");
            } else {
                json.writeNumberField("previousStatus", before.status());
            }
            if (now == null) {
                json.writeNullField("outcome");
            } else {
                json.writeStringField("outcome", now.outcome().label());
            }
            if (before != null && before.referrer() != null) {
                json.writeStringField("previousReferrer", before.referrer());
            }
            json.writeEndObject();
        }
        return text.toString();
    }

    /** Replaces {@code target} with {@code written}. */
    static void replace(Path written, Path target) throws IOException {
        Files.move(written, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
