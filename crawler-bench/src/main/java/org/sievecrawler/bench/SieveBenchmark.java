package org.sievecrawler.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;
import org.sievecrawler.sieve.OverflowPolicy;
import org.sievecrawler.sieve.PendingQueue;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.Sieve;
import org.sievecrawler.sieve.SieveLayout;

/**
 * {@code Sieve.offer} of n = 10 M new URL-like strings into a fresh Sieve sized for n, at p = 1e-2 and 1e-4,
 * with 1 and 2 threads, beside the naive equivalent built from Guava: a Guava {@code BloomFilter.put} and,
 * when it says new, a {@code ConcurrentLinkedQueue.add}; and {@code Sieve.offerAll} of the same URLs in
 * batches of 1 to 256, as a crawl offers a page's links (real documentation pages have ~50-300). Score: ns
 * per offered URL per thread. {@code layout} picks the Sieve's filter ({@code sieve.layout}: classic or blocked);
 * {@code impl=guava} is Guava's {@code put} alone, the yardstick, in the same run; {@code queue=none}
 * offers into a Sieve whose pending queue keeps nothing, the filter's share of an offer.
 *
 * <pre>
 * mvn -q -DskipTests package &amp;&amp; java -jar crawler-bench/target/benchmarks.jar SieveBenchmark
 * java -jar crawler-bench/target/benchmarks.jar 'SieveBenchmark.offer(1Thread|Batched1Thread)' -p fpp=0.0001 -wi 2 -i 4
 * java -jar crawler-bench/target/benchmarks.jar 'SieveBenchmark.offer(1Thread|Batched1Thread)' -p layout=blocked \
 *     -p batch=64 -f 1 -wi 2 -i 3
 * </pre>
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgs = {"-Xms6g", "-Xmx6g"})
public class SieveBenchmark {

    /** The offer path under test. */
    interface Frontier {
        boolean offer(String url);
    }

    @State(Scope.Benchmark)
    public static class Fresh {
        @Param({"sieve", "guava+queue", "guava"})
        public String impl;

        @Param({"classic", "blocked"})
        public String layout;

        @Param({"0.01", "0.0001"})
        public double fpp;

        String[] keys;
        Frontier frontier;

        @Setup(Level.Trial)
        public void corpus() {
            keys = Corpus.present();
        }

        @Setup(Level.Iteration)
        public void fresh() {
            frontier = null;
            System.gc(); // the previous iteration's 10 M queued URLs
            if (impl.equals("sieve")) {
                Sieve sieve = Sieve.create(SieveLayout.valueOf(layout.toUpperCase(java.util.Locale.ROOT)), Corpus.N,
                        fpp, OverflowPolicy.WARN, PendingQueue.fifo());
                frontier = sieve::offer;
            } else if (impl.equals("guava")) {
                UrlFilters.UrlFilter filter = UrlFilters.create("guava", Corpus.N, fpp);
                frontier = filter::put;
            } else {
                UrlFilters.UrlFilter filter = UrlFilters.create("guava", Corpus.N, fpp);
                Queue<String> queue = new ConcurrentLinkedQueue<>();
                frontier = url -> filter.put(url) && queue.add(url);
            }
        }
    }

    /** A fresh Sieve every iteration, for offers in batches of {@code batch} URLs, as the links of a page. */
    @State(Scope.Benchmark)
    public static class Batched {
        @Param({"1", "16", "64", "256"})
        public int batch;

        @Param({"classic", "blocked"})
        public String layout;

        @Param({"fifo", "none"})
        public String queue;

        @Param({"0.01", "0.0001"})
        public double fpp;

        String[] keys;
        Sieve sieve;

        @Setup(Level.Trial)
        public void corpus() {
            keys = Corpus.present();
        }

        @Setup(Level.Iteration)
        public void fresh() {
            sieve = null;
            System.gc(); // the previous iteration's 10 M queued URLs
            sieve = Sieve.create(SieveLayout.valueOf(layout.toUpperCase(java.util.Locale.ROOT)), Corpus.N, fpp,
                    OverflowPolicy.WARN, queue.equals("fifo") ? PendingQueue.fifo() : new Discard());
        }
    }

    /** A pending queue that keeps nothing: what an offer costs without the queue's nodes. */
    static final class Discard implements PendingQueue {
        @Override
        public void add(PendingUrl url) {
        }

        @Override
        public PendingUrl poll() {
            return null;
        }

        @Override
        public int size() {
            return 0;
        }
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(10_000_000)
    public int offer1Thread(Fresh state) {
        return offerSlice(state, 0, 1);
    }

    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(5_000_000)
    public int offer2Threads(Fresh state, ThreadParams thread) {
        return offerSlice(state, thread.getThreadIndex(), 2);
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(10_000_000)
    public int offerBatched1Thread(Batched state) {
        String[] keys = state.keys;
        List<PendingUrl> page = new ArrayList<>(state.batch);
        int admitted = 0;
        for (int i = 0; i < keys.length; i += state.batch) {
            page.clear();
            for (int j = i, end = Math.min(keys.length, i + state.batch); j < end; j++) {
                page.add(PendingUrl.seed(keys[j]));
            }
            admitted += state.sieve.offerAll(page);
        }
        return admitted;
    }

    private static int offerSlice(Fresh state, int thread, int threads) {
        String[] keys = state.keys;
        Frontier frontier = state.frontier;
        int admitted = 0;
        for (int i = thread; i < keys.length; i += threads) {
            if (frontier.offer(keys[i])) {
                admitted++;
            }
        }
        return admitted;
    }
}
