package org.sievecrawler.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.sievecrawler.CrawlException;
import org.sievecrawler.Crawler;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.OutputConfig;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.profile.ProgressConfig;
import org.sievecrawler.profile.SieveConfig;
import org.sievecrawler.progress.CrawlSummary;
import org.sievecrawler.sieve.OverflowPolicy;

/**
 * Crawls a local site as fast as politeness allows a site of one's own (16 connections, no delay) and prints
 * pages/s, MB/s, CPU per page and the process's peak RSS. With a warm-up seed, it first crawls that (the same
 * site on another port) in the same JVM, {@code -Dwarmups=N} times (default 2), so that the measured crawl runs
 * compiled code: on 2 cores the JIT spends several CPU-seconds compiling the hot paths, which dominates a crawl
 * of a few seconds but not a real one. With -XX:+LogCompilation, C2 was still compiling at 40-80 methods/s
 * through the second crawl of this site and had settled by the third. Every crawl is reported: "cold" (the first,
 * in a fresh JVM), "warmup-N", and the measured "warm". Run by {@code crawler-bench/crawl-bench.sh}.
 *
 * <p>With {@code --warc} it measures what WARC output costs: the warm-up crawl writes WARC files (so that their
 * code is compiled too), then four warm crawls of the same site alternate without and with WARC output
 * (without, with, without, with; each into its own folder, OUT_DIR-nowarc-N and OUT_DIR-warc-N), and a last
 * line gives the mean pages/s of each kind and their ratio.
 *
 * <pre>
 * java -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.CrawlBench [--warc] SEED OUT_DIR [THREADS]
 *     [CONNECTIONS] [WARMUP_SEED]
 * </pre>
 */
public final class CrawlBench {
    private CrawlBench() {
    }

    /** WARC comparison rounds ({@code -DwarcRounds=N}, default 2): each a crawl without, then one with WARC output. */
    private static final int WARC_ROUNDS = Integer.getInteger("warcRounds", 2);

    public static void main(String[] arguments) throws CrawlException, IOException {
        boolean warc = arguments.length > 0 && arguments[0].equals("--warc");
        String[] args = warc ? java.util.Arrays.copyOfRange(arguments, 1, arguments.length) : arguments;
        String seed = args[0];
        Path out = Path.of(args[1]);
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        int connections = args.length > 3 ? Integer.parseInt(args[3]) : 16;
        if (args.length > 4) {
            int warmups = Integer.getInteger("warmups", 2);
            for (int i = 1; i <= warmups; i++) {
                crawl(i == 1 ? "cold" : "warmup-" + i, args[4], out.resolveSibling(out.getFileName() + "-warmup-" + i),
                        threads, connections, warc);
            }
        }
        if (!warc) {
            crawl(args.length > 4 ? "warm" : "cold", seed, out, threads, connections, false);
            return;
        }
        double[] without = new double[2];
        double[] with = new double[2];
        // (means over all rounds; each round's crawls are printed too)
        for (int round = 1; round <= WARC_ROUNDS; round++) {
            add(without, crawl("warm-nowarc-" + round, seed, out.resolveSibling(out.getFileName() + "-nowarc-"
                    + round), threads, connections, false));
            add(with, crawl("warm-warc-" + round, seed, out.resolveSibling(out.getFileName() + "-warc-" + round),
                    threads, connections, true));
        }
        System.out.printf(Locale.ROOT, "RESULT warc-cost nowarc_pages_per_s=%.0f warc_pages_per_s=%.0f ratio=%.3f"
                        + " steady_nowarc_pages_per_s=%.0f steady_warc_pages_per_s=%.0f steady_ratio=%.3f"
                        + " (means of %d alternating warm crawls each)%n",
                without[0] / WARC_ROUNDS, with[0] / WARC_ROUNDS, with[0] / without[0], without[1] / WARC_ROUNDS,
                with[1] / WARC_ROUNDS, with[1] / without[1], WARC_ROUNDS);
    }

    private static void add(double[] sums, double[] values) {
        sums[0] += values[0];
        sums[1] += values[1];
    }

    /** Crawls once and prints its RESULT line; returns pages/s overall and in the steady state. */
    private static double[] crawl(String label, String seed, Path out, int threads, int connections, boolean warc)
            throws CrawlException, IOException {
        CrawlProfile defaults = CrawlProfile.defaults();
        CrawlProfile profile = defaults.withSeeds(List.of(seed))
                .withFetch(defaults.fetch().withThreads(threads))
                .withLimits(defaults.limits().withMaxPagesPerHost(0)) // the site is one host of 10,101 pages
                .withPoliteness(PolitenessConfig.defaults().withDelay(Duration.ZERO)
                        .withMaxConnectionsPerHost(connections))
                .withSieve(new SieveConfig(1_000_000, 0.001, OverflowPolicy.WARN))
                .withProgress(new ProgressConfig(Duration.ofSeconds(1)))
                .withOutput(OutputConfig.defaults().withDir(out).withWarc(warc));
        Crawler crawler = new Crawler(profile);
        List<long[]> samples = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.ScheduledExecutorService sampler = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(() -> samples.add(new long[] {System.nanoTime(), crawler.stats().fetched(),
            processCpuNanos()}), 0, 250, java.util.concurrent.TimeUnit.MILLISECONDS);
        long cpuBefore = processCpuNanos();
        CrawlSummary summary = crawler.run();
        long cpuAfter = processCpuNanos();
        sampler.shutdownNow();
        double cpuMillisPerPage = (cpuAfter - cpuBefore) / 1e6 / Math.max(1, summary.fetched());
        double seconds = summary.duration().toMillis() / 1000.0;
        double[] steady = steadyState(samples, summary.fetched());
        System.out.printf(Locale.ROOT,
                "RESULT %s pages=%d seconds=%.2f pages_per_s=%.0f mb_per_s=%.1f bytes=%d peak_rss_mb=%d"
                        + " cpu_ms_per_page=%.3f steady_pages_per_s=%.0f steady_cpu_ms_per_page=%.3f%s outcomes=%s%n",
                label, summary.fetched(), seconds, summary.fetched() / seconds, summary.bytes() / 1e6 / seconds,
                summary.bytes(), peakRssMegabytes(), cpuMillisPerPage, steady[0], steady[1],
                warc ? String.format(Locale.ROOT, " warc_mb=%.1f", warcBytes(out) / 1e6) : "", summary.outcomes());
        return new double[] {summary.fetched() / seconds, steady[0]};
    }

    /** The bytes of the WARC files in {@code out}. */
    static long warcBytes(Path out) throws IOException {
        try (java.util.stream.Stream<Path> files = Files.list(out)) {
            long bytes = 0;
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".warc.gz"))::iterator) {
                bytes += Files.size(file);
            }
            return bytes;
        }
    }

    /**
     * Pages/s and CPU ms per page between the samples at 30 % and 90 % of the pages: the crawl once the JIT
     * has compiled the hot paths, before the tail where few URLs are left.
     */
    static double[] steadyState(List<long[]> samples, long pages) {
        long[] from = null;
        long[] to = null;
        for (long[] sample : samples) {
            if (from == null && sample[1] >= pages * 0.3) {
                from = sample;
            }
            if (sample[1] <= pages * 0.9) {
                to = sample;
            }
        }
        if (from == null || to == null || to[1] <= from[1]) {
            return new double[] {0, 0};
        }
        double seconds = (to[0] - from[0]) / 1e9;
        return new double[] {(to[1] - from[1]) / seconds, (to[2] - from[2]) / 1e6 / (to[1] - from[1])};
    }

    /** CPU time of this whole process (every thread, JIT and GC included), in nanoseconds. */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** VmHWM of this process from /proc, in MB (0 where /proc is not there). */
    static long peakRssMegabytes() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return 0;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        return 0;
    }
}
