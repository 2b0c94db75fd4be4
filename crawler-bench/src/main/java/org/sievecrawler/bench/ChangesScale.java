package org.sievecrawler.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.sievecrawler.audit.ExternalSort;
import org.sievecrawler.changes.Change;
import org.sievecrawler.changes.ChangeCounts;
import org.sievecrawler.changes.ChangeSet;
import org.sievecrawler.graph.Edge;
import org.sievecrawler.graph.LinksFile;
import org.sievecrawler.history.CrawlHistory;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/**
 * What a recrawl's changes.jsonl costs (issue 29, item 3: 10 M records in a 512 MB heap): writes N earlier records
 * to DIR/earlier/pages.jsonl and N recrawl records to DIR/new/pages.jsonl unless they are there (the earlier ones
 * as {@link HistoryScale} writes them: random order, some URLs twice; the recrawl's each URL once, in a scrambled
 * order: 94 % not-modified, 2 % the same body, 1 % a changed body, 1 % 404, 1 % redirects, 1 % new URLs), builds
 * history.tsv into DIR/new, then writes changes.jsonl ({@link ChangeSet}) with the given sort budget and prints its
 * time, the counts, the heap pools' peaks summed (taken at different moments, garbage included: no bound, a hint)
 * and the file sizes. Run it with the heap to prove:
 *
 * <pre>
 * java -Xmx512m -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.ChangesScale DIR [N=10000000]
 *     [SORT_MB=64] [EDGES=0]
 * </pre>
 *
 * With EDGES &gt; 0 it also writes the link graphs (links.tsv.zst) when the records are written: in the earlier
 * crawl, each of the N URLs links to EDGES random ones; in the recrawl, each page fetched again (not the
 * not-modified ones, not the 404s) to EDGES random ones, a redirect to its target; and the unlinked URLs are
 * measured (the earlier folder passed to {@link ChangeSet#write}, the not-modified pages' earlier links carried).
 */
public final class ChangesScale {
    private static final String SAME = "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5";
    private static final String OTHER = "sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

    private ChangesScale() {
    }

    private static String url(long i) {
        return "https://host" + (i % 1000) + ".example/docs/section-" + (i / 1000 % 100) + "/page-" + i + ".html";
    }

    private static PageRecord earlier(long k) {
        return new PageRecord(url(k), 200, Outcome.FETCHED, "text/html", 2, 12_000, 5, 40, "Page " + k, null,
                url(k / 2), null, false, null, -1, SAME, "00ff00000000000a", 3)
                .withValidators("\"" + Long.toHexString(k) + "-5f0c\"", "Wed, 21 Oct 2015 07:28:00 GMT");
    }

    private static PageRecord now(long k, int kind) {
        String url = kind == 99 ? url(k) + "?new" : url(k);
        int status = kind < 94 ? 304 : kind < 97 ? 200 : kind == 97 ? 404 : 301;
        Outcome outcome = kind < 94 ? Outcome.NOT_MODIFIED : kind < 97 || kind == 99 ? Outcome.FETCHED
                : kind == 97 ? Outcome.HTTP_ERROR : Outcome.REDIRECT;
        if (kind == 99) {
            status = 200;
        }
        return new PageRecord(url, status, outcome, "text/html", kind == 99 ? 3 : 0, 12_000, 5, 40, "Page " + k,
                outcome == Outcome.REDIRECT ? url(k) + "/" : null, kind == 99 ? url(k / 2) : null, null, false, null,
                -1, status == 200 || status == 304 ? (kind == 96 ? OTHER : SAME) : null, null, 3);
    }

    /** {@code edges} links from {@code from} to random URLs of the {@code n}. */
    private static List<Edge> links(String from, int edges, long n, SplittableRandom random) {
        List<Edge> links = new ArrayList<>(edges);
        for (int e = 0; e < edges; e++) {
            links.add(new Edge(from, url(random.nextLong(n)), Edge.Kind.A, false, true, "link " + e));
        }
        return links;
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        long n = args.length > 1 ? Long.parseLong(args[1]) : 10_000_000L;
        long sortBytes = (args.length > 2 ? Long.parseLong(args[2]) : 64) << 20;
        int edges = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        Path earlierDir = dir.resolve("earlier");
        Path into = dir.resolve("new");
        Files.createDirectories(earlierDir);
        Files.createDirectories(into);
        SplittableRandom random = new SplittableRandom(29);
        if (!Files.exists(earlierDir.resolve("pages.jsonl"))) {
            long start = System.nanoTime();
            try (JsonlSink sink = JsonlSink.open(earlierDir.resolve("pages.jsonl"))) {
                for (long i = 0; i < n; i++) {
                    sink.accept(earlier(random.nextLong(n))); // written in no order, some URLs twice
                }
            }
            System.out.printf("wrote %,d earlier records in %.1f s%n", n, (System.nanoTime() - start) / 1e9);
            if (edges > 0) {
                try (LinksFile graph = LinksFile.open(earlierDir)) {
                    for (long k = 0; k < n; k++) {
                        graph.add(links(url(k), edges, n, random));
                    }
                }
                System.out.printf("wrote %,d earlier edges%n", n * edges);
            }
        }
        if (!Files.exists(into.resolve("pages.jsonl"))) {
            long start = System.nanoTime();
            try (JsonlSink sink = JsonlSink.open(into.resolve("pages.jsonl"));
                    LinksFile graph = edges > 0 ? LinksFile.open(into) : null) {
                for (long i = 0; i < n; i++) {
                    long k = (i * 7_919_993L) % n; // each URL once, scrambled (7,919,993 is prime)
                    PageRecord record = now(k, random.nextInt(100));
                    sink.accept(record);
                    if (graph != null && record.outcome() == Outcome.REDIRECT) {
                        graph.add(List.of(new Edge(record.url(), record.redirectTo(), Edge.Kind.REDIRECT, false,
                                true, "")));
                    } else if (graph != null && record.outcome() == Outcome.FETCHED) {
                        graph.add(links(record.url(), edges, n, random));
                    }
                }
            }
            System.out.printf("wrote %,d recrawl records in %.1f s%n", n, (System.nanoTime() - start) / 1e9);
        }
        if (!Files.exists(into.resolve(CrawlHistory.FILE))) {
            long start = System.nanoTime();
            CrawlHistory.build(earlierDir, into, ExternalSort.DEFAULT_MAX_BYTES).close();
            System.out.printf("built history.tsv in %.1f s%n", (System.nanoTime() - start) / 1e9);
        }
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
        long start = System.nanoTime();
        ChangeCounts counts = ChangeSet.write(into, into.resolve(CrawlHistory.FILE), edges > 0 ? earlierDir : null,
                Set.of(), sortBytes);
        double took = (System.nanoTime() - start) / 1e9;
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        StringBuilder byChange = new StringBuilder();
        for (Change change : Change.values()) {
            byChange.append(' ').append(change.key()).append('=').append(counts.count(change));
        }
        System.out.printf("CHANGES records=%d sort_mb=%d write_s=%.1f heap_peak_mb=%.1f max_heap_mb=%d"
                + " pages_jsonl_mb=%d history_mb=%d changes_mb=%d skipped=%d unlinked=%s%s%n", n, sortBytes >> 20, took,
                peak / 1048576.0, Runtime.getRuntime().maxMemory() >> 20, Files.size(into.resolve("pages.jsonl")) >> 20,
                Files.size(into.resolve(CrawlHistory.FILE)) >> 20, Files.size(into.resolve(ChangeSet.FILE)) >> 20,
                counts.skipped(), counts.unlinked().isPresent() ? counts.unlinked().getAsLong() : "null", byChange);
    }
}
