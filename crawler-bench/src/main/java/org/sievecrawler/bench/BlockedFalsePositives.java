package org.sievecrawler.bench;

import java.util.Locale;
import org.sievecrawler.fixtures.UrlCorpus;
import org.sievecrawler.sieve.BlockedBloomFilter;
import org.sievecrawler.sieve.BlockedPlan;
import org.sievecrawler.sieve.BloomFilter;
import org.sievecrawler.sieve.SievePlan;

/**
 * The false-positive rate of {@link BlockedBloomFilter} measured on many random URLs, against its formula
 * ({@link BlockedPlan#rateAt}): fills a filter sized for n with n distinct URLs of the fixed-seed corpus (indexes
 * [0, n)), then asks it about Q URLs never put (indexes from 2<sup>40</sup>), and prints the hits, the measured
 * rate, the formula's rate and how many binomial standard deviations √(Q·p(1-p)) apart they are (the spread of the
 * filter's own rate around the formula, ~√(Var/b) over its b blocks, is well below that at these sizes), with the
 * same for the classic {@link BloomFilter} at the same n and p beside it. Single-threaded; URLs are generated as
 * they are put or asked, so memory is the filters'. Exits 1 if the blocked filter is more than 4 deviations off.
 *
 * <pre>
 * java -Xmx2g -cp crawler-bench/target/benchmarks.jar org.sievecrawler.bench.BlockedFalsePositives \
 *     [N=100000000] [P=0.01] [QUERIES=100000000]
 * </pre>
 */
public final class BlockedFalsePositives {
    private static final long ABSENT_FROM = 1L << 40;

    private BlockedFalsePositives() {
    }

    public static void main(String[] args) {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 100_000_000L;
        double p = args.length > 1 ? Double.parseDouble(args[1]) : 0.01;
        long queries = args.length > 2 ? Long.parseLong(args[2]) : 100_000_000L;
        UrlCorpus corpus = new UrlCorpus(20261121L);
        BlockedBloomFilter blocked = BlockedBloomFilter.create(n, p);
        BloomFilter classic = BloomFilter.create(n, p);
        System.out.println(blocked.plan());
        long start = System.nanoTime();
        for (long i = 0; i < n; i++) {
            String url = corpus.url(i);
            blocked.put(url);
            classic.put(url);
        }
        long blockedHits = 0;
        long classicHits = 0;
        for (long i = 0; i < queries; i++) {
            String url = corpus.url(ABSENT_FROM + i);
            blockedHits += blocked.mightContain(url) ? 1 : 0;
            classicHits += classic.mightContain(url) ? 1 : 0;
        }
        double formula = blocked.plan().rateAt(n);
        double deviations = deviations(blockedHits, queries, formula);
        double classicFormula = SievePlan.of(n, p).rateAt(n);
        System.out.printf(Locale.ROOT, "blocked: %d of %d absent URLs hit after %d put: measured %.6g, formula %.6g,"
                        + " %+.2f sigma; %d bytes%n",
                blockedHits, queries, n, (double) blockedHits / queries, formula, deviations, blocked.byteSize());
        System.out.printf(Locale.ROOT, "classic: %d of %d absent URLs hit after %d put: measured %.6g, formula %.6g,"
                        + " %+.2f sigma; %d bytes%n",
                classicHits, queries, n, (double) classicHits / queries, classicFormula,
                deviations(classicHits, queries, classicFormula), classic.byteSize());
        System.out.printf(Locale.ROOT, "%.0f s%n", (System.nanoTime() - start) / 1e9);
        System.exit(Math.abs(deviations) <= 4 ? 0 : 1);
    }

    private static double deviations(long hits, long queries, double rate) {
        return (hits - queries * rate) / Math.sqrt(queries * rate * (1 - rate));
    }
}
