package org.sievecrawler.bench;

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
import org.sievecrawler.sieve.Sieve;

/**
 * {@code Sieve.offer} of n = 10 M new URL-like strings into a fresh Sieve sized for n, at p = 1e-2 and 1e-4,
 * with 1 and 2 threads, beside the naive equivalent built from Guava: a Guava {@code BloomFilter.put} and,
 * when it says new, a {@code ConcurrentLinkedQueue.add}. Score: ns per offer per thread.
 *
 * <pre>
 * mvn -q -DskipTests package &amp;&amp; java -jar crawler-bench/target/benchmarks.jar SieveBenchmark
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
        @Param({"sieve", "guava+queue"})
        public String impl;

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
                Sieve sieve = Sieve.create(Corpus.N, fpp);
                frontier = sieve::offer;
            } else {
                UrlFilters.UrlFilter filter = UrlFilters.create("guava", Corpus.N, fpp);
                Queue<String> queue = new ConcurrentLinkedQueue<>();
                frontier = url -> filter.put(url) && queue.add(url);
            }
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
