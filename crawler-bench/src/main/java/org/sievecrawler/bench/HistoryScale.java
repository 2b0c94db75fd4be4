package org.sievecrawler.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.sievecrawler.history.CrawlHistory;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/**
 * What a recrawl's history of an earlier crawl costs (issue 29: {@code --since} a 10 M-record crawl in a 512 MB heap):
 * writes N page records (~250 bytes each, 1,000 hosts, an ETag and a Last-Modified each, a digest) to
 * DIR/earlier/pages.jsonl unless it is there, builds {@link CrawlHistory} into DIR/new with the given sort budget,
 * then looks up LOOKUPS URLs, half recorded and half not, and prints the times, the heap used after GC with the
 * history open (its index) and the file sizes. Run it with the heap to prove, e.g.:
 *
 * <pre>
 * java -Xmx512m -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.HistoryScale DIR [N=10000000]
 *     [SORT_MB=64] [LOOKUPS=100000]
 * </pre>
 */
public final class HistoryScale {
    private HistoryScale() {
    }

    private static String url(long i) {
        return "https://host" + (i % 1000) + ".example/docs/section-" + (i / 1000 % 100) + "/page-" + i + ".html";
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        long n = args.length > 1 ? Long.parseLong(args[1]) : 10_000_000L;
        long sortBytes = (args.length > 2 ? Long.parseLong(args[2]) : 64) << 20;
        int lookups = args.length > 3 ? Integer.parseInt(args[3]) : 100_000;
        Path earlier = dir.resolve("earlier");
        Path into = dir.resolve("new");
        Files.createDirectories(earlier);
        Files.createDirectories(into);
        SplittableRandom random = new SplittableRandom(29);
        if (!Files.exists(earlier.resolve("pages.jsonl"))) {
            long start = System.nanoTime();
            try (JsonlSink sink = JsonlSink.open(earlier.resolve("pages.jsonl"))) {
                for (long i = 0; i < n; i++) {
                    long k = random.nextLong(n); // written in no order, some URLs twice
                    sink.accept(new PageRecord(url(k), 200, Outcome.FETCHED, "text/html", 2, 12_000, 5, 40,
                            "Page " + k, null, url(k / 2), null, false, null, -1,
                            "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5", "00ff00000000000a", 3)
                            .withValidators("\"" + Long.toHexString(k) + "-5f0c\"", "Wed, 21 Oct 2015 07:28:00 GMT"));
                }
            }
            System.out.printf("wrote %,d records in %.1f s%n", n, (System.nanoTime() - start) / 1e9);
        }
        long start = System.nanoTime();
        try (CrawlHistory history = CrawlHistory.build(earlier, into, sortBytes)) {
            double built = (System.nanoTime() - start) / 1e9;
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            long found = 0;
            start = System.nanoTime();
            for (int i = 0; i < lookups; i++) {
                long k = random.nextLong(n);
                String url = i % 2 == 0 ? url(k) : url(k) + "?absent";
                if (history.lookup(url).isPresent()) {
                    found++;
                }
            }
            double looked = (System.nanoTime() - start) / 1e9;
            System.out.printf("HISTORY records=%d urls=%d skipped=%d build_s=%.1f heap_after_gc_mb=%.1f max_heap_mb=%d"
                    + " lookups=%d found=%d lookup_us=%.1f pages_jsonl_mb=%d history_mb=%d%n", n, history.size(),
                    history.skipped(), built, heap / 1048576.0, Runtime.getRuntime().maxMemory() >> 20, lookups, found,
                    looked * 1e6 / lookups, Files.size(earlier.resolve("pages.jsonl")) >> 20,
                    Files.size(into.resolve(CrawlHistory.FILE)) >> 20);
        }
    }
}
