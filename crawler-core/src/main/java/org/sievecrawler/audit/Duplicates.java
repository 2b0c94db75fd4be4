package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.parse.SimHash;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/**
 * The {@code duplicates} of audit.json: groups of pages of the same content, {@code [{kind, urls}]} sorted by their
 * first URL (then kind), each group's URLs sorted.
 * <ul>
 *   <li>{@code exact}: pages (fetched 2xx, HTML or not, not truncated) whose bodies have one {@code digest};</li>
 *   <li>{@code near}: HTML pages whose {@code simhash} fingerprints are within {@value SimHash#NEAR_BITS} bits
 *       (Manku, Jain and Das Sarma, WWW 2007) of their group's representative, listed when the group holds pages
 *       of at least two different digests (a group of exact copies only is an exact group alone). A near group
 *       lists its exact copies too. Groups do not chain (see {@link Clusters}): in URL order, a page joins the
 *       first earlier representative within 3 bits, or becomes one.</li>
 * </ul>
 * Pages fetched with a 2xx status without a fingerprint (records of an older build, not HTML, no words) are not
 * measured: {@link #nearNotMeasured} tells them, for {@code stats}' {@code nearDuplicatesNotMeasured}.
 *
 * <p>How near pairs are found in bounded memory (Manku et al.'s permuted tables with 4 blocks): the candidates are
 * sorted by URL on disk ({@link ExternalSort}) and numbered in that order; the 64 bits are cut into 4 blocks of
 * 16; two fingerprints within 3 bits differ in at most 3 blocks, so they agree on one block exactly. Each page
 * gives 4 rows (block number, block, fingerprint, page id), sorted on disk; only rows of one run of equal (block
 * number, block) are compared (pairwise among their distinct fingerprints; a page of a fingerprint already met
 * pairs with its first page), and the pairs within 3 bits are sorted on disk by their later page, which
 * {@link Clusters} reads in order. Memory: an int and a bit per HTML page with a fingerprint (40 MB at 10 M pages),
 * one sort run, and the largest run of equal blocks; random fingerprints make runs of n / 65,536 rows on average.
 * Exact groups sort (digest, URL) rows on disk.
 *
 * <p>Immutable once built; its groups wait in a temporary file until written. Out of scope: computing the
 * fingerprints (the parsers and {@link org.sievecrawler.sink.PayloadDigest} do, into pages.jsonl).
 */
public final class Duplicates implements AuditSection {
    private final UrlGroups groups;

    private Duplicates(UrlGroups groups) {
        this.groups = groups;
    }

    /** The duplicates among the pages of the crawl in {@code dir} (its pages.jsonl; none when it has none). */
    public static Duplicates of(Path dir) throws IOException {
        Path pages = dir.resolve(CrawlFolder.PAGES);
        UrlGroups groups = new UrlGroups(dir);
        Path nearPages = Files.createTempFile(dir, ".audit-near-", ".tsv");
        try {
            // each sort closed (its memory freed) once read, so that at most two hold lines at a time
            int near;
            try (ExternalSort candidates = new ExternalSort(dir, ExternalSort.DEFAULT_MAX_BYTES);
                    ExternalSort blocks = new ExternalSort(dir, ExternalSort.DEFAULT_MAX_BYTES)) {
                try (ExternalSort exact = new ExternalSort(dir, ExternalSort.DEFAULT_MAX_BYTES)) {
                    if (Files.exists(pages)) {
                        readPages(pages, exact, candidates);
                    }
                    UrlGroups.Runs exactRuns = new UrlGroups.Runs((digest, urls) -> groups.add("exact", urls));
                    exact.sorted(line -> {
                        int tab = line.indexOf('\t');
                        exactRuns.add(line.substring(0, tab), line.substring(tab + 1));
                    });
                    exactRuns.flush();
                }
                near = numberByUrl(candidates, blocks, nearPages);
                candidates.close();
                try (ExternalSort pairs = new ExternalSort(dir, ExternalSort.DEFAULT_MAX_BYTES)) {
                    pairs(blocks, pairs);
                    blocks.close();
                    Clusters clusters = new Clusters(near);
                    clusters.join(pairs);
                    pairs.close();
                    nearGroups(clusters, nearPages, groups);
                }
            }
        } finally {
            Files.deleteIfExists(nearPages);
        }
        return new Duplicates(groups.sorted());
    }

    /**
     * Whether near duplicates were not measured for a record: a page fetched with a 2xx status (HTML or not)
     * without a {@code simhash} (written before fingerprints existed, not HTML, or HTML without words).
     */
    public static boolean nearNotMeasured(PageRecord r) {
        return isContent(r) && r.simhash() == null;
    }

    /** Feeds the exact rows, and a candidate row (URL, digest, fingerprint) per near candidate. */
    private static void readPages(Path pages, ExternalSort exact, ExternalSort candidates) throws IOException {
        JsonlSink.readSkipping(pages, r -> {
            if (r.digest() == null || !isContent(r)) {
                return;
            }
            String url = ExternalSort.oneLine(r.url());
            exact.add(r.digest() + '\t' + url);
            if (r.simhash() != null && (r.outcome() == Outcome.FETCHED || r.outcome() == Outcome.NOT_MODIFIED)) {
                candidates.add(url + '\t' + r.digest() + '\t' + r.simhash());
            }
        });
    }

    /**
     * Numbers the near candidates in URL order (page i is line i of {@code nearPages}: URL and digest) and feeds
     * their block rows; returns how many there are.
     */
    private static int numberByUrl(ExternalSort candidates, ExternalSort blocks, Path nearPages) throws IOException {
        int[] near = {0};
        try (BufferedWriter out = Files.newBufferedWriter(nearPages, StandardCharsets.UTF_8)) {
            candidates.sorted(line -> {
                int last = line.lastIndexOf('\t');
                long fingerprint = SimHash.parseHex(line.substring(last + 1));
                int id = near[0]++;
                for (int block = 0; block < 4; block++) {
                    blocks.add(blockRow(block, fingerprint, id));
                }
                out.write(line, 0, last);
                out.write('\n');
            });
        }
        return near[0];
    }

    /** A body as sent (2xx), or a recrawl's page not modified since the earlier crawl got it (its digest carried). */
    private static boolean isContent(PageRecord r) {
        return (r.outcome() == Outcome.FETCHED || r.outcome() == Outcome.NOT_HTML) && r.status() >= 200
                && r.status() < 300 || r.outcome() == Outcome.NOT_MODIFIED;
    }

    /** A block row: block number (1 digit), the block (4 hex), the fingerprint (16 hex), the page id (8 hex). */
    static String blockRow(int block, long fingerprint, int id) {
        int bits = (int) (fingerprint >>> (16 * block)) & 0xffff;
        return block + hex(bits, 4) + SimHash.hex(fingerprint) + hex(id, 8);
    }

    /**
     * A pair row, for page {@code later} (the larger id): {@code later}, {@link #SAME} or {@link #NEAR}, the earlier
     * page's id (8 hex each), so that sorted rows give each page its earlier neighbours, same fingerprint first.
     */
    static String pairRow(int later, char kind, int earlier) {
        return hex(later, 8) + kind + hex(earlier, 8);
    }

    /** A pair of pages of one fingerprint, the earlier the first page of that fingerprint. */
    static final char SAME = '0';
    /** A pair of first pages of two fingerprints within {@value SimHash#NEAR_BITS} bits. */
    static final char NEAR = '1';

    /**
     * Feeds the pair rows of every run of equal (block number, block) among the sorted block rows: each page of a
     * fingerprint to its first page (rows of one fingerprint come in id order), and the first pages of every two
     * distinct fingerprints of the run within {@value SimHash#NEAR_BITS} bits to each other.
     */
    static void pairs(ExternalSort blocks, ExternalSort pairs) throws IOException {
        String[] run = {null};
        List<long[]> distinct = new ArrayList<>();
        blocks.sorted(row -> {
            String key = row.substring(0, 5);
            long fingerprint = Long.parseUnsignedLong(row.substring(5, 21), 16);
            int id = Integer.parseInt(row.substring(21), 16);
            if (!key.equals(run[0])) {
                run[0] = key;
                distinct.clear();
            }
            long[] last = distinct.isEmpty() ? null : distinct.get(distinct.size() - 1);
            if (last != null && last[0] == fingerprint) {
                pairs.add(pairRow(id, SAME, (int) last[1]));
                return;
            }
            for (long[] other : distinct) {
                if (SimHash.distance(other[0], fingerprint) <= SimHash.NEAR_BITS) {
                    int a = (int) other[1];
                    pairs.add(a < id ? pairRow(id, NEAR, a) : pairRow(a, NEAR, id));
                }
            }
            distinct.add(new long[] {fingerprint, id});
        });
    }

    private static String hex(int value, int digits) {
        String text = Integer.toHexString(value);
        return "0".repeat(digits - text.length()) + text;
    }

    /** Reads the members of groups of two or more pages back with their URLs, and adds the near groups. */
    private static void nearGroups(Clusters clusters, Path nearPages, UrlGroups groups) throws IOException {
        try (ExternalSort members = new ExternalSort(nearPages.getParent(), ExternalSort.DEFAULT_MAX_BYTES)) {
            try (BufferedReader in = Files.newBufferedReader(nearPages, StandardCharsets.UTF_8)) {
                int id = 0;
                for (String line = in.readLine(); line != null; line = in.readLine(), id++) {
                    if (clusters.inGroup(id)) {
                        members.add(hex(clusters.representative(id), 8) + '\t' + line);
                    }
                }
            }
            String[] cluster = {null};
            String[] firstDigest = {null};
            boolean[] differ = {false};
            List<String> urls = new ArrayList<>();
            LineAction close = () -> {
                if (differ[0] && urls.size() > 1) {
                    groups.add("near", urls);
                }
                urls.clear();
                differ[0] = false;
                firstDigest[0] = null;
            };
            members.sorted(line -> {
                String[] fields = line.split("\t", -1);
                if (!fields[0].equals(cluster[0])) {
                    close.run();
                    cluster[0] = fields[0];
                }
                if (urls.isEmpty() || !urls.get(urls.size() - 1).equals(fields[1])) {
                    urls.add(fields[1]);
                }
                if (firstDigest[0] == null) {
                    firstDigest[0] = fields[2];
                } else if (!firstDigest[0].equals(fields[2])) {
                    differ[0] = true;
                }
            });
            close.run();
        }
    }

    @FunctionalInterface
    private interface LineAction {
        void run() throws IOException;
    }

    @Override
    public String name() {
        return "duplicates";
    }

    @Override
    public long findings() {
        return groups.count();
    }

    @Override
    public void write(JsonGenerator json) throws IOException {
        groups.write(json, "kind");
    }

    /**
     * Near-duplicate groups without chaining: pages are taken in id (URL) order, and each joins the group of the first
     * earlier representative within {@value SimHash#NEAR_BITS} bits of it (a page of the same fingerprint as an
     * earlier one joins that one's group), or becomes a representative. Every member is within 3 bits of its
     * representative, so a chain A~B~C with A and C more than 3 bits apart is no group of three (members may be up
     * to 6 bits apart from each other). One int per page (its representative) and one bit (whether a group holds
     * more than its representative).
     */
    static final class Clusters {
        private final int[] representative;
        private final java.util.BitSet joined;

        Clusters(int pages) {
            representative = new int[pages];
            for (int i = 0; i < pages; i++) {
                representative[i] = i;
            }
            joined = new java.util.BitSet(pages);
        }

        /** Assigns each page its representative from the pair rows (see {@link #pairRow}), sorted. */
        void join(ExternalSort pairs) throws IOException {
            int[] page = {-1};
            boolean[] decided = {false};
            pairs.sorted(row -> {
                int later = Integer.parseInt(row.substring(0, 8), 16);
                char kind = row.charAt(8);
                int earlier = Integer.parseInt(row.substring(9), 16);
                if (later != page[0]) {
                    page[0] = later;
                    decided[0] = false;
                }
                if (decided[0]) {
                    return;
                }
                if (kind == SAME) {
                    join(later, representative[earlier]);
                    decided[0] = true;
                } else if (representative[earlier] == earlier) {
                    join(later, earlier); // rows come in id order: the first representative near it
                    decided[0] = true;
                }
            });
        }

        private void join(int page, int to) {
            representative[page] = to;
            joined.set(to);
            joined.set(page);
        }

        /** The representative of the page's group (itself when it is one). */
        int representative(int page) {
            return representative[page];
        }

        /** Whether the page's group holds two pages or more. */
        boolean inGroup(int page) {
            return joined.get(page);
        }
    }
}
