package org.sievecrawler.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;
import org.sievecrawler.sieve.BloomFilter;

/**
 * {@code put} and {@code mightContain} (absent keys) of this crawler's Bloom filters (classic, {@code sieve}, and
 * blocked, {@code blocked}: one cache line a URL), Guava's, and fastfilter_java's {@code BlockedBloom}, side by side,
 * on n = 10 M URL-like strings at p = 1e-2 and 1e-4, with 1 and 2 threads. One measured invocation streams the
 * 10 M URLs into fresh filters sized for n, each filled from empty to n (so a put's cost is averaged over a
 * whole fill, as in a crawl): one filter at n = 10 M; ten at n = 1 M, which shows the cost once the filter
 * fits in cache. {@code mightContain} queries 2 M absent URLs against a filter holding n. The score is ns per
 * operation per thread. At the end of each trial the measured false-positive rate on 2 M absent URLs and the
 * bytes of the bit array are printed. {@code putBatched1Thread} fills this crawler's filters with the same
 * URLs through {@code putAll}, in batches of 1 to 256 URLs, as the links of a page (real documentation pages
 * have ~50-300); its score is ns per URL.
 *
 * <pre>
 * mvn -q -DskipTests package &amp;&amp; java -jar crawler-bench/target/benchmarks.jar BloomFilterBenchmark
 * java -jar crawler-bench/target/benchmarks.jar BloomFilterBenchmark -p n=1000000   # filters that fit in cache
 * java -jar crawler-bench/target/benchmarks.jar 'BloomFilterBenchmark.put(1Thread|Batched1Thread)' -p fpp=0.0001
 * java -jar crawler-bench/target/benchmarks.jar 'BloomFilterBenchmark.(put|mightContainAbsent)1Thread' -wi 2 -i 4
 * java -jar crawler-bench/target/benchmarks.jar 'BloomFilterBenchmark.putStream1Thread' -f 1 -wi 2 -i 3   # 10 M, 100 M
 * </pre>
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgs = {"-Xms6g", "-Xmx6g"})
public class BloomFilterBenchmark {

    /** Fresh, empty filters every iteration, N / n of them: for put. */
    @State(Scope.Benchmark)
    public static class Empty {
        @Param({"sieve", "blocked", "guava", "fastfilter"})
        public String impl;

        @Param({"0.01", "0.0001"})
        public double fpp;

        @Param({"10000000"})
        public int n;

        String[] keys;
        UrlFilters.UrlFilter[] filters;
        UrlFilters.UrlFilter filter;

        @Setup(Level.Trial)
        public void corpus() {
            if (n < 1 || Corpus.N % n != 0) {
                throw new IllegalArgumentException("n must divide " + Corpus.N + ", was " + n);
            }
            keys = Corpus.present();
        }

        @Setup(Level.Iteration)
        public void fresh() {
            filters = null;
            filters = new UrlFilters.UrlFilter[Corpus.N / n];
            for (int i = 0; i < filters.length; i++) {
                filters[i] = UrlFilters.create(impl, n, fpp);
            }
            filter = filters[filters.length - 1];
        }

        @TearDown(Level.Trial)
        public void report() {
            BloomFilterBenchmark.report("put", impl, n, fpp, filter);
        }
    }

    /**
     * Fresh, empty filters of this crawler every iteration, N / n of them, as {@link Empty}: for put in
     * batches of {@code batch} URLs ({@link BloomFilter#putAll}), as the links of a page.
     */
    @State(Scope.Benchmark)
    public static class Batched {
        @Param({"1", "16", "64", "256"})
        public int batch;

        @Param({"0.01", "0.0001"})
        public double fpp;

        @Param({"10000000"})
        public int n;

        List<String> keys;
        BloomFilter[] filters;

        @Setup(Level.Trial)
        public void corpus() {
            if (n < 1 || Corpus.N % n != 0) {
                throw new IllegalArgumentException("n must divide " + Corpus.N + ", was " + n);
            }
            keys = Arrays.asList(Corpus.present());
        }

        @Setup(Level.Iteration)
        public void fresh() {
            filters = null;
            filters = new BloomFilter[Corpus.N / n];
            for (int i = 0; i < filters.length; i++) {
                filters[i] = BloomFilter.create(n, fpp);
            }
        }

        @TearDown(Level.Trial)
        public void report() {
            BloomFilterBenchmark.report("putAll batch=" + batch, "sieve", n, fpp,
                    UrlFilters.of(filters[filters.length - 1]));
        }
    }

    /** A filter holding n URLs, filled once per trial: for mightContain. */
    @State(Scope.Benchmark)
    public static class Full {
        @Param({"sieve", "blocked", "guava", "fastfilter"})
        public String impl;

        @Param({"0.01", "0.0001"})
        public double fpp;

        @Param({"10000000"})
        public int n;

        String[] absent;
        UrlFilters.UrlFilter filter;

        @Setup(Level.Trial)
        public void fill() {
            filter = UrlFilters.create(impl, n, fpp);
            String[] present = Corpus.present();
            for (int i = 0; i < n; i++) {
                filter.put(present[i]);
            }
            absent = Corpus.absent();
        }

        @TearDown(Level.Trial)
        public void report() {
            BloomFilterBenchmark.report("mightContain", impl, n, fpp, filter);
        }
    }

    /**
     * One filter sized for n (10 M or 100 M) and filled by a stream of keys, 10 M per invocation: at n = 10 M a
     * fresh filter each iteration (each invocation is a whole fill, as {@link Empty}); at n = 100 M one filter per
     * trial that every invocation fills further (iteration j puts keys [10 M·j, 10 M·(j + 1))), so with
     * {@code -wi 2 -i 3} the measured puts find it holding 20-50 M URLs, its 120-275 MB far beyond the caches. Key
     * i is corpus URL i mod 10 M with i / 10 M appended, built in a reused StringBuilder (100 M strings would not
     * fit the heap); {@code impl=keys} builds the keys alone, the cost to subtract from the others.
     */
    @State(Scope.Benchmark)
    public static class Stream {
        @Param({"sieve", "blocked", "guava", "fastfilter", "keys"})
        public String impl;

        @Param({"0.01", "0.0001"})
        public double fpp;

        @Param({"10000000", "100000000"})
        public int n;

        String[] bases;
        UrlFilters.UrlFilter filter;
        long next;
        final StringBuilder key = new StringBuilder(160);

        @Setup(Level.Trial)
        public void corpus() {
            bases = Corpus.present();
            if (n > Corpus.N) {
                filter = create();
                next = 0;
            }
        }

        @Setup(Level.Iteration)
        public void fresh() {
            if (n <= Corpus.N) {
                filter = null;
                filter = create();
                next = 0;
            } else if (next + Corpus.N > n) {
                throw new IllegalStateException("the " + n + "-URL filter is full: run fewer iterations");
            }
        }

        private UrlFilters.UrlFilter create() {
            return impl.equals("keys") ? null : UrlFilters.create(impl, n, fpp);
        }

        @TearDown(Level.Trial)
        public void report() {
            if (filter != null) {
                BloomFilterBenchmark.report("putStream holding " + next, impl, n, fpp, filter);
            }
        }
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(10_000_000)
    public int putStream1Thread(Stream state) {
        String[] bases = state.bases;
        StringBuilder key = state.key;
        UrlFilters.UrlFilter filter = state.filter;
        long from = state.next;
        int changed = 0;
        for (long i = from, end = from + 10_000_000; i < end; i++) {
            key.setLength(0);
            key.append(bases[(int) (i % bases.length)]).append(i / bases.length);
            if (filter == null ? key.charAt(key.length() - 1) == '0' : filter.put(key)) {
                changed++;
            }
        }
        state.next = from + 10_000_000;
        return changed;
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(10_000_000)
    public int put1Thread(Empty state) {
        return putSlice(state, 0, 1);
    }

    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(5_000_000)
    public int put2Threads(Empty state, ThreadParams thread) {
        return putSlice(state, thread.getThreadIndex(), 2);
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(10_000_000)
    public int putBatched1Thread(Batched state) {
        List<String> keys = state.keys;
        int changed = 0;
        for (int f = 0; f < state.filters.length; f++) {
            BloomFilter filter = state.filters[f];
            int end = (f + 1) * state.n;
            for (int i = f * state.n; i < end; i += state.batch) {
                changed += filter.putAll(keys.subList(i, Math.min(i + state.batch, end)));
            }
        }
        return changed;
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(2_000_000)
    public int mightContainAbsent1Thread(Full state) {
        return querySlice(state, 0, 1);
    }

    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(1_000_000)
    public int mightContainAbsent2Threads(Full state, ThreadParams thread) {
        return querySlice(state, thread.getThreadIndex(), 2);
    }

    private static int putSlice(Empty state, int thread, int threads) {
        String[] keys = state.keys;
        int changed = 0;
        for (int f = 0; f < state.filters.length; f++) {
            UrlFilters.UrlFilter filter = state.filters[f];
            int end = (f + 1) * state.n;
            for (int i = f * state.n + thread; i < end; i += threads) {
                if (filter.put(keys[i])) {
                    changed++;
                }
            }
        }
        return changed;
    }

    private static int querySlice(Full state, int thread, int threads) {
        String[] absent = state.absent;
        UrlFilters.UrlFilter filter = state.filter;
        int hits = 0;
        for (int i = thread; i < absent.length; i += threads) {
            if (filter.mightContain(absent[i])) {
                hits++;
            }
        }
        return hits;
    }

    static void report(String benchmark, String impl, int n, double fpp, UrlFilters.UrlFilter filter) {
        double measured = UrlFilters.measuredFalsePositiveRate(filter, Corpus.absent());
        long formulaBits = (long) Math.ceil(-(double) n * Math.log(fpp) / (Math.log(2) * Math.log(2)));
        System.out.printf(Locale.ROOT,
                "%n[%s] impl=%s p=%s n=%d: measured false-positive rate %.4g%% (%.3fp) on %d absent URLs;"
                        + " %d bytes, %.2f%% over the formula's m/8 = %d%n",
                benchmark, impl, fpp, n, measured * 100, measured / fpp, Corpus.ABSENT, filter.bytes(),
                100.0 * (filter.bytes() - formulaBits / 8.0) / (formulaBits / 8.0), formulaBits / 8);
    }
}
