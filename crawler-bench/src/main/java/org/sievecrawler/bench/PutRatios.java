package org.sievecrawler.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Single-threaded {@code put} of the classic, blocked, Guava and fastfilter_java filters, measured interleaved so
 * that their ratios hold on a shared machine whose speed drifts: four filters sized for n are filled side by side,
 * chunk by chunk ({@code CHUNK} keys each, the order of the four rotated every chunk, with a chunk that only builds
 * the keys), and each chunk's time per put is kept. It prints, per filter, the median ns per put over the chunks
 * (the first tenth left out as warm-up) with and without the key building subtracted, and the median over chunks
 * of Guava's time divided by each filter's, each ratio taken between chunks run within a fraction of a second of
 * each other. A cross-check of the JMH {@link BloomFilterBenchmark}, whose trials run minutes apart. Keys as in
 * {@code putStream1Thread}: corpus URL i mod 10 M with i / 10 M appended, built in a reused StringBuilder.
 *
 * <pre>
 * java -Xmx6g -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.PutRatios [N=10000000] [P=0.01]
 *     [CHUNK=100000]
 * </pre>
 */
public final class PutRatios {
    private static final String[] IMPLS = {"sieve", "blocked", "guava", "fastfilter"};

    private PutRatios() {
    }

    public static void main(String[] args) {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        double p = args.length > 1 ? Double.parseDouble(args[1]) : 0.01;
        int chunk = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
        String[] bases = Corpus.present();
        StringBuilder key = new StringBuilder(160);
        // Warm-up: every path compiled before the measured fill.
        for (String impl : IMPLS) {
            UrlFilters.UrlFilter warm = UrlFilters.create(impl, 1_000_000, p);
            put(warm, bases, key, 0, 1_000_000);
        }
        keys(bases, key, 0, 1_000_000);
        UrlFilters.UrlFilter[] filters = new UrlFilters.UrlFilter[IMPLS.length];
        for (int f = 0; f < IMPLS.length; f++) {
            filters[f] = UrlFilters.create(IMPLS[f], n, p);
        }
        int chunks = (int) (n / chunk);
        double[][] nsPerPut = new double[IMPLS.length + 1][chunks];
        for (int c = 0; c < chunks; c++) {
            long from = (long) c * chunk;
            for (int r = 0; r <= IMPLS.length; r++) {
                int f = (c + r) % (IMPLS.length + 1); // rotated: no filter always runs first or after another
                long start = System.nanoTime();
                if (f == IMPLS.length) {
                    keys(bases, key, from, from + chunk);
                } else {
                    put(filters[f], bases, key, from, from + chunk);
                }
                nsPerPut[f][c] = (double) (System.nanoTime() - start) / chunk;
            }
        }
        int skip = chunks / 10;
        double keysNs = median(nsPerPut[IMPLS.length], skip, null);
        System.out.printf(Locale.ROOT, "n=%d p=%s chunk=%d, %d chunks measured (first %d left out); keys alone %.0f ns%n",
                n, p, chunk, chunks - skip, skip, keysNs);
        int guava = Arrays.asList(IMPLS).indexOf("guava");
        for (int f = 0; f < IMPLS.length; f++) {
            double ns = median(nsPerPut[f], skip, null);
            double ratio = median(nsPerPut[guava], skip, nsPerPut[f]);
            double[] net = new double[chunks];
            double[] guavaNet = new double[chunks];
            for (int c = 0; c < chunks; c++) {
                net[c] = Math.max(1, nsPerPut[f][c] - nsPerPut[IMPLS.length][c]);
                guavaNet[c] = Math.max(1, nsPerPut[guava][c] - nsPerPut[IMPLS.length][c]);
            }
            System.out.printf(Locale.ROOT, "  %-10s put %6.0f ns (%6.0f without the keys)   Guava / it: %.2fx"
                    + " (%.2fx without the keys)   %,d bytes%n", IMPLS[f], ns, median(net, skip, null), ratio,
                    median(guavaNet, skip, net), filters[f].bytes());
        }
    }

    /** The median of a[skip..], or of a[c] / b[c] if b is given. */
    private static double median(double[] a, int skip, double[] b) {
        List<Double> values = new ArrayList<>();
        for (int c = skip; c < a.length; c++) {
            values.add(b == null ? a[c] : a[c] / b[c]);
        }
        values.sort(null);
        int size = values.size();
        return size % 2 == 1 ? values.get(size / 2) : (values.get(size / 2 - 1) + values.get(size / 2)) / 2;
    }

    private static int put(UrlFilters.UrlFilter filter, String[] bases, StringBuilder key, long from, long to) {
        int changed = 0;
        for (long i = from; i < to; i++) {
            key.setLength(0);
            key.append(bases[(int) (i % bases.length)]).append(i / bases.length);
            changed += filter.put(key) ? 1 : 0;
        }
        return changed;
    }

    private static int keys(String[] bases, StringBuilder key, long from, long to) {
        int last = 0;
        for (long i = from; i < to; i++) {
            key.setLength(0);
            key.append(bases[(int) (i % bases.length)]).append(i / bases.length);
            last += key.charAt(key.length() - 1);
        }
        return last;
    }
}
