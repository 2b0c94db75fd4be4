package org.sievecrawler.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.sievecrawler.sieve.BlockedPlan;
import org.sievecrawler.sieve.OverflowPolicy;
import org.sievecrawler.sieve.PendingQueue;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sieve.Sieve;
import org.sievecrawler.sieve.SieveLayout;

/**
 * Single-threaded {@code put} of the classic, blocked, Guava and fastfilter_java filters, measured interleaved so
 * that their ratios hold on a shared machine whose speed drifts: four filters sized for n are filled side by side,
 * chunk by chunk ({@code CHUNK} keys each, the order of the four rotated every chunk, with a chunk that only builds
 * the keys), and each chunk's time per put is kept. It prints, per filter, the median ns per put over the chunks
 * (the first tenth left out as warm-up) with and without the key building subtracted, and the median over chunks
 * of Guava's time divided by each filter's, each ratio taken between chunks run within a fraction of a second of
 * each other. A cross-check of the JMH {@link BloomFilterBenchmark}, whose trials run minutes apart. Beside the
 * four puts, {@code offerAll-classic} and {@code offerAll-blocked} offer the same keys to a {@link Sieve} of that
 * layout in batches of 64 (a page's links) with a pending queue that keeps nothing: the Sieve's batched offer.
 * Keys: corpus URL i for i &lt; 10 M (the strings of {@link Corpus}), past that corpus URL i mod 10 M with i / 10 M
 * appended, built in a reused StringBuilder (and made a String for the Sieve). FILL (default n) keys are put, so a
 * filter sized for 100 M can be measured while it holds the first FILL.
 *
 * <pre>
 * java -Xmx6g -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.PutRatios [N=10000000] [P=0.01]
 *     [CHUNK=100000] [FILL=N]
 * </pre>
 */
public final class PutRatios {
    private static final String[] ALL = {"sieve", "blocked", "guava", "fastfilter", "offerAll-classic",
        "offerAll-blocked"};
    private static final int BATCH = 64;

    private PutRatios() {
    }

    public static void main(String[] args) {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        double p = args.length > 1 ? Double.parseDouble(args[1]) : 0.01;
        int chunk = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
        long fill = args.length > 3 ? Long.parseLong(args[3]) : n;
        String[] bases = Corpus.present();
        StringBuilder key = new StringBuilder(160);
        // fastfilter's BlockedBloom counts its bits in an int: past 2^31 bits (100 M URLs at 1e-4) it cannot be made.
        List<String> usable = new ArrayList<>(Arrays.asList(ALL));
        if (n * BlockedPlan.of(n, p).bitsPerUrl() >= Integer.MAX_VALUE) {
            usable.remove("fastfilter");
            System.out.println("fastfilter left out: its BlockedBloom cannot hold 2^31 bits or more");
        }
        String[] impls = usable.toArray(new String[0]);
        // Warm-up: every path compiled before the measured fill (keys past 10 M too).
        for (String impl : impls) {
            Target warm = target(impl, 1_000_000, p);
            warm.put(bases, key, 0, 500_000);
            warm.put(bases, key, bases.length, bases.length + 500_000L);
        }
        keys(bases, key, 0, 1_000_000);
        keys(bases, key, bases.length, bases.length + 1_000_000L);
        Target[] filters = new Target[impls.length];
        for (int f = 0; f < impls.length; f++) {
            filters[f] = target(impls[f], n, p);
        }
        int chunks = (int) (fill / chunk);
        double[][] nsPerPut = new double[impls.length + 1][chunks];
        for (int c = 0; c < chunks; c++) {
            long from = (long) c * chunk;
            for (int r = 0; r <= impls.length; r++) {
                int f = (c + r) % (impls.length + 1); // rotated: no filter always runs first or after another
                long start = System.nanoTime();
                if (f == impls.length) {
                    keys(bases, key, from, from + chunk);
                } else {
                    filters[f].put(bases, key, from, from + chunk);
                }
                nsPerPut[f][c] = (double) (System.nanoTime() - start) / chunk;
            }
        }
        int skip = chunks / 10;
        double keysNs = median(nsPerPut[impls.length], skip, null);
        System.out.printf(Locale.ROOT, "n=%d p=%s chunk=%d fill=%d, %d chunks measured (first %d left out);"
                + " keys alone %.0f ns%n", n, p, chunk, fill, chunks - skip, skip, keysNs);
        int guava = Arrays.asList(impls).indexOf("guava");
        for (int f = 0; f < impls.length; f++) {
            double ns = median(nsPerPut[f], skip, null);
            double ratio = median(nsPerPut[guava], skip, nsPerPut[f]);
            double[] net = new double[chunks];
            double[] guavaNet = new double[chunks];
            for (int c = 0; c < chunks; c++) {
                net[c] = Math.max(1, nsPerPut[f][c] - nsPerPut[impls.length][c]);
                guavaNet[c] = Math.max(1, nsPerPut[guava][c] - nsPerPut[impls.length][c]);
            }
            System.out.printf(Locale.ROOT, "  %-16s put %6.0f ns (%6.0f without the keys)   Guava / it: %.2fx"
                    + " (%.2fx without the keys)   %,d bytes%n", impls[f], ns, median(net, skip, null), ratio,
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

    /** What is measured: puts into a filter, or batched offers to a Sieve. */
    private interface Target {
        int put(String[] bases, StringBuilder key, long from, long to);

        long bytes();
    }

    private static Target target(String impl, long n, double p) {
        if (!impl.startsWith("offerAll-")) {
            UrlFilters.UrlFilter filter = UrlFilters.create(impl, n, p);
            return new Target() {
                @Override
                public int put(String[] bases, StringBuilder key, long from, long to) {
                    int changed = 0;
                    for (long i = from; i < to; i++) {
                        changed += filter.put(key(bases, key, i)) ? 1 : 0;
                    }
                    return changed;
                }

                @Override
                public long bytes() {
                    return filter.bytes();
                }
            };
        }
        SieveLayout layout = impl.endsWith("blocked") ? SieveLayout.BLOCKED : SieveLayout.CLASSIC;
        Sieve sieve = Sieve.create(layout, n, p, OverflowPolicy.WARN, new SieveBenchmark.Discard());
        List<PendingUrl> page = new ArrayList<>(BATCH);
        return new Target() {
            @Override
            public int put(String[] bases, StringBuilder key, long from, long to) {
                int admitted = 0;
                for (long i = from; i < to; i += BATCH) {
                    page.clear();
                    for (long j = i, end = Math.min(to, i + BATCH); j < end; j++) {
                        page.add(PendingUrl.seed(key(bases, key, j).toString()));
                    }
                    admitted += sieve.offerAll(page);
                }
                return admitted;
            }

            @Override
            public long bytes() {
                return layout.plan(n, p).bytes();
            }
        };
    }

    /** Key i: corpus URL i below 10 M, else URL i mod 10 M with i / 10 M appended, in {@code key}. */
    private static CharSequence key(String[] bases, StringBuilder key, long i) {
        if (i < bases.length) {
            return bases[(int) i];
        }
        key.setLength(0);
        return key.append(bases[(int) (i % bases.length)]).append(i / bases.length);
    }

    private static int keys(String[] bases, StringBuilder key, long from, long to) {
        int last = 0;
        for (long i = from; i < to; i++) {
            CharSequence k = key(bases, key, i);
            last += k.charAt(k.length() - 1);
        }
        return last;
    }
}
