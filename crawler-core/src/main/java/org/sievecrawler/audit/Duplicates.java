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
 *       (Manku, Jain and Das Sarma, WWW 2007), clustered transitively (single link), listed when the cluster holds
 *       pages of at least two different digests (a cluster of exact copies only is an exact group alone). A
 *       near group lists its exact copies too.</li>
 * </ul>
 *
 * <p>How near pairs are found in bounded memory (Manku et al.'s permuted tables with 4 blocks): the 64 bits are cut
 * into 4 blocks of 16; two fingerprints within 3 bits differ in at most 3 blocks, so they agree on one block
 * exactly. Each page gives 4 rows (block number, block, fingerprint, page id), sorted on disk
 * ({@link ExternalSort}); only rows of one run of equal (block number, block) are compared (pairwise among their
 * distinct fingerprints; equal fingerprints join at once), and pairs within 3 bits are joined in a union-find over
 * page ids. Memory: the union-find's two ints per HTML page with a fingerprint (80 MB at 10 M pages), one sort run,
 * and the largest run of equal blocks; random fingerprints make runs of n / 65,536 rows on average. Exact groups
 * sort (digest, URL) rows on disk.
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
        try (ExternalSort exact = new ExternalSort(dir, ExternalSort.DEFAULT_MAX_BYTES);
                ExternalSort blocks = new ExternalSort(dir, ExternalSort.DEFAULT_MAX_BYTES)) {
            Path nearPages = Files.createTempFile("sieve-audit-near-", ".tsv");
            try {
                int near = 0;
                if (Files.exists(pages)) {
                    near = readPages(pages, exact, blocks, nearPages);
                }
                UrlGroups.Runs exactRuns = new UrlGroups.Runs((digest, urls) -> groups.add("exact", urls));
                exact.sorted(line -> {
                    int tab = line.indexOf('\t');
                    exactRuns.add(line.substring(0, tab), line.substring(tab + 1));
                });
                exactRuns.flush();
                Clusters clusters = new Clusters(near);
                clusters.join(blocks);
                nearGroups(clusters, nearPages, groups);
            } finally {
                Files.deleteIfExists(nearPages);
            }
        }
        return new Duplicates(groups.sorted());
    }

    /** Feeds the exact rows and the block rows; writes each near candidate's URL and digest, line i for page i. */
    private static int readPages(Path pages, ExternalSort exact, ExternalSort blocks, Path nearPages)
            throws IOException {
        int[] near = {0};
        try (BufferedWriter out = Files.newBufferedWriter(nearPages, StandardCharsets.UTF_8)) {
            IOException[] failed = {null};
            JsonlSink.readSkipping(pages, r -> {
                if (failed[0] != null || r.digest() == null || !isContent(r)) {
                    return;
                }
                String url = ExternalSort.oneLine(r.url());
                exact.add(r.digest() + '\t' + url);
                if (r.simhash() != null && r.outcome() == Outcome.FETCHED) {
                    long fingerprint = SimHash.parseHex(r.simhash());
                    int id = near[0]++;
                    for (int block = 0; block < 4; block++) {
                        blocks.add(blockRow(block, fingerprint, id));
                    }
                    try {
                        out.write(url + '\t' + r.digest() + '\n');
                    } catch (IOException e) {
                        failed[0] = e;
                    }
                }
            });
            if (failed[0] != null) {
                throw failed[0];
            }
        }
        return near[0];
    }

    private static boolean isContent(PageRecord r) {
        return (r.outcome() == Outcome.FETCHED || r.outcome() == Outcome.NOT_HTML) && r.status() >= 200
                && r.status() < 300;
    }

    /** A block row: block number (1 digit), the block (4 hex), the fingerprint (16 hex), the page id (8 hex). */
    static String blockRow(int block, long fingerprint, int id) {
        int bits = (int) (fingerprint >>> (16 * block)) & 0xffff;
        return block + hex(bits, 4) + SimHash.hex(fingerprint) + hex(id, 8);
    }

    private static String hex(int value, int digits) {
        String text = Integer.toHexString(value);
        return "0".repeat(digits - text.length()) + text;
    }

    /** Reads the members of clusters of two or more pages back with their URLs, and adds the near groups. */
    private static void nearGroups(Clusters clusters, Path nearPages, UrlGroups groups) throws IOException {
        try (ExternalSort members = new ExternalSort(nearPages.getParent(), ExternalSort.DEFAULT_MAX_BYTES)) {
            try (BufferedReader in = Files.newBufferedReader(nearPages, StandardCharsets.UTF_8)) {
                int id = 0;
                for (String line = in.readLine(); line != null; line = in.readLine(), id++) {
                    int root = clusters.root(id);
                    if (clusters.size(root) > 1) {
                        members.add(hex(root, 8) + '\t' + line);
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

    /** Near-duplicate clusters: a union-find (by size, path halving) over page ids. */
    static final class Clusters {
        private final int[] parent;
        private final int[] size;

        Clusters(int pages) {
            parent = new int[pages];
            size = new int[pages];
            for (int i = 0; i < pages; i++) {
                parent[i] = i;
                size[i] = 1;
            }
        }

        /** Joins the pages of every pair of block rows (sorted) of one block run within 3 bits. */
        void join(ExternalSort blocks) throws IOException {
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
                    union((int) last[1], id);
                    return;
                }
                for (long[] other : distinct) {
                    if (SimHash.distance(other[0], fingerprint) <= SimHash.NEAR_BITS) {
                        union((int) other[1], id);
                    }
                }
                distinct.add(new long[] {fingerprint, id});
            });
        }

        int root(int page) {
            int p = page;
            while (parent[p] != p) {
                parent[p] = parent[parent[p]];
                p = parent[p];
            }
            return p;
        }

        int size(int root) {
            return size[root];
        }

        void union(int a, int b) {
            int ra = root(a);
            int rb = root(b);
            if (ra == rb) {
                return;
            }
            if (size[ra] < size[rb]) {
                int t = ra;
                ra = rb;
                rb = t;
            }
            parent[rb] = ra;
            size[ra] += size[rb];
        }
    }
}
