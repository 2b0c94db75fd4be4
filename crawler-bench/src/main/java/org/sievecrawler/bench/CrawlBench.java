package org.sievecrawler.bench;

import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_WARC_COMPRESSION;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.PROGRESS_INTERVAL;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_EXPECTED_URLS;
import static org.sievecrawler.profile.ProfileKeys.SIEVE_FALSE_POSITIVE_RATE;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.sievecrawler.CrawlException;
import org.sievecrawler.Crawler;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.OutputConfig;
import org.sievecrawler.profile.WarcCompression;
import org.sievecrawler.progress.CrawlSummary;
import org.sievecrawler.warc.WarcArchive;

/**
 * Crawls a local site as fast as politeness allows a site of one's own (16 connections, no delay) and prints
 * pages/s, MB/s, CPU per page and the process's peak RSS. With a warm-up seed, it first crawls that (the same
 * site on another port) in the same JVM, {@code -Dwarmups=N} times (default 2), so that the measured crawl runs
 * compiled code: on 2 cores the JIT spends several CPU-seconds compiling the hot paths, which dominates a crawl
 * of a few seconds but not a real one. With -XX:+LogCompilation, C2 was still compiling at 40-80 methods/s
 * through the second crawl of this site and had settled by the third. Every crawl is reported: "cold" (the first,
 * in a fresh JVM), "warmup-N", and the measured "warm". Run by {@code crawler-bench/crawl-bench.sh}.
 *
 * <p>With {@code --warc} it measures what WARC output costs: the warm-up crawls write WARC files (gzip, zstd, gzip,
 * ...: so that the code of both is compiled too), then {@code -DwarcRounds=N} rounds (default 2) of three warm crawls
 * of the same site alternate without WARC output, with gzip and with zstd (each into its own folder, OUT_DIR-nowarc-N,
 * OUT_DIR-gzip-N, OUT_DIR-zstd-N), and two last lines give, for gzip and for zstd, the median pages/s and CPU per page
 * against the crawls without WARC output, and their ratio.
 *
 * <pre>
 * java -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.CrawlBench [--warc] SEED OUT_DIR [THREADS]
 *     [CONNECTIONS] [WARMUP_SEED]
 * </pre>
 */
public final class CrawlBench {
    private CrawlBench() {
    }

    /** WARC comparison rounds ({@code -DwarcRounds=N}, default 2): each a crawl without WARC, with gzip, with zstd. */
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
                        threads, connections, warc ? Optional.of(WarcCompression.values()[(i - 1)
                                % WarcCompression.values().length]) : Optional.empty());
            }
        }
        if (!warc) {
            crawl(args.length > 4 ? "warm" : "cold", seed, out, threads, connections, Optional.empty());
            return;
        }
        // each round: without WARC, with gzip, with zstd (each its own folder); medians over the rounds
        String[] modes = {"nowarc", "gzip", "zstd"}; // WarcCompression's, in order, after none
        List<List<double[]>> results = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int round = 1; round <= WARC_ROUNDS; round++) {
            for (int m = 0; m < modes.length; m++) {
                Optional<WarcCompression> compression = m == 0 ? Optional.empty()
                        : Optional.of(WarcCompression.values()[m - 1]);
                results.get(m).add(crawl("warm-" + modes[m] + "-" + round, seed, out.resolveSibling(out.getFileName()
                        + "-" + modes[m] + "-" + round), threads, connections, compression));
            }
        }
        double[] base = medians(results.get(0));
        for (int m = 1; m < modes.length; m++) {
            double[] with = medians(results.get(m));
            System.out.printf(Locale.ROOT, "RESULT warc-cost %s nowarc_pages_per_s=%.0f warc_pages_per_s=%.0f"
                            + " ratio=%.3f nowarc_cpu_ms_per_page=%.3f warc_cpu_ms_per_page=%.3f warc_mb=%.1f"
                            + " (medians of %d alternating warm crawls each)%n", modes[m], base[0], with[0],
                    with[0] / base[0], base[2], with[2], with[3], WARC_ROUNDS);
        }
    }

    /** The median of each column. */
    private static double[] medians(List<double[]> rows) {
        double[] medians = new double[rows.get(0).length];
        for (int column = 0; column < medians.length; column++) {
            final int c = column;
            double[] values = rows.stream().mapToDouble(row -> row[c]).sorted().toArray();
            int n = values.length;
            medians[column] = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
        }
        return medians;
    }

    /**
     * Crawls once (with WARC output compressed as {@code warc} says, or none) and prints its RESULT line; returns
     * pages/s overall and in the steady state, CPU ms per page and the WARC files' MB.
     */
    private static double[] crawl(String label, String seed, Path out, int threads, int connections,
            Optional<WarcCompression> warc) throws CrawlException, IOException {
        CrawlProfile defaults = CrawlProfile.defaults();
        CrawlProfile profile = defaults.with(SEEDS, List.of(seed))
                .with(FETCH_THREADS, threads)
                .with(LIMITS_MAX_PAGES_PER_HOST, 0L) // the site is one host of 10,101 pages
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, connections)
                .with(SIEVE_EXPECTED_URLS, 1_000_000L).with(SIEVE_FALSE_POSITIVE_RATE, 0.001)
                .with(PROGRESS_INTERVAL, Duration.ofSeconds(1))
                .with(OUTPUT_DIR, out).with(OUTPUT_WARC, warc.isPresent())
                .with(OUTPUT_WARC_COMPRESSION, warc.orElse(WarcCompression.GZIP));
        Crawler crawler = Crawler.newCrawl(profile);
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
        double warcMegabytes = warc.isPresent() ? warcBytes(out) / 1e6 : 0;
        System.out.printf(Locale.ROOT,
                "RESULT %s pages=%d seconds=%.2f pages_per_s=%.0f mb_per_s=%.1f bytes=%d peak_rss_mb=%d"
                        + " cpu_ms_per_page=%.3f steady_pages_per_s=%.0f steady_cpu_ms_per_page=%.3f%s outcomes=%s%n",
                label, summary.fetched(), seconds, summary.fetched() / seconds, summary.bytes() / 1e6 / seconds,
                summary.bytes(), peakRssMegabytes(), cpuMillisPerPage, steady[0], steady[1],
                warc.isPresent() ? String.format(Locale.ROOT, " warc_mb=%.1f", warcMegabytes) : "",
                summary.outcomes());
        return new double[] {summary.fetched() / seconds, steady[0], cpuMillisPerPage,
            warcMegabytes};
    }

    /** The bytes of the WARC files in {@code out}. */
    static long warcBytes(Path out) throws IOException {
        long bytes = 0;
        for (Path file : WarcArchive.existingFiles(out, OutputConfig.defaults().warcPrefix())) {
            bytes += Files.size(file);
        }
        return bytes;
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
