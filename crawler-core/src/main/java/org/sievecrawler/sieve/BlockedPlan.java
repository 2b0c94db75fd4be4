package org.sievecrawler.sieve;

import java.util.Locale;

/**
 * The sizing of a {@link BlockedBloomFilter} for n expected URLs at a target false-positive rate p: a number of
 * 512-bit blocks b (m = 512·b bits) and a number k of bits set per URL inside its block, the smallest m (then the
 * smallest k) whose false-positive rate at n is at most p.
 *
 * <h2>Math</h2>
 * Each URL goes to one block, uniformly, so the number of URLs in a block after x URLs is Binomial(x, 1/b),
 * which for b in the thousands and more is Poisson with mean λ = x/b. An absent URL falls in some block and is a
 * false positive iff its k positions there (drawn with replacement) are all set; in a block that holds i URLs,
 * whose i·k positions have set X<sub>i</sub> of the B = 512 bits, that happens with probability
 * E[(X<sub>i</sub>/B)<sup>k</sup>]. The blocked rate is its expectation over the load of the block
 * (Putze, Sanders and Singler 2007, section 3):
 * <pre>
 *   p(x) = Σ<sub>i≥0</sub> e<sup>-λ</sup>·λ<sup>i</sup>/i! · E[(X<sub>i</sub>/B)<sup>k</sup>],   λ = x/b
 * </pre>
 * Putze et al. approximate the inner term by the classic rate of a B-bit filter, (1 - q<sup>i</sup>)<sup>k</sup>
 * with q = (1 - 1/B)<sup>k</sup>, i.e. the mean share of set bits raised to k; by Jensen's inequality that is
 * below the true term, and in a block of 512 bits the share varies enough to matter: the approximation
 * under-predicted measured rates by 1-3 % ({@code BlockedBloomFilterTest}'s corpus). {@link #rateAt} therefore
 * computes the inner term exactly, from the occupancy distribution of X<sub>i</sub> (i·k balls in 512 bins, by the
 * recurrence P<sub>t+1</sub>(j) = P<sub>t</sub>(j)·j/B + P<sub>t</sub>(j-1)·(B-j+1)/B), and sums the Poisson terms
 * in log space up to λ + 12√λ + 30, beyond which the tail is below 10<sup>-30</sup>: about 10<sup>6</sup>
 * multiply-adds at n for p = 10<sup>-4</sup>, a millisecond.
 *
 * <p>Because the rate of a block is convex in its load where it matters, overloaded blocks cost more than
 * underloaded ones save, so at equal bits the blocked rate is above the classic (1 - e<sup>-kx/m</sup>)<sup>k</sup>,
 * the more so the smaller p. For n = 10 M: p = 10<sup>-2</sup> takes 9.92 bits a URL and k = 6 (classic: 9.59,
 * k = 7, +3.5 %); 10<sup>-3</sup> 15.55 bits, k = 9 (14.38, +8 %); 10<sup>-4</sup> 22.03 bits, k = 12 (19.17,
 * +15 %). Past n the blocked filter degrades more slowly, having the more bits: at 2n it is 12.3 % against 15.7 %
 * for p = 10<sup>-2</sup>, 1.02 % against 2.08 % for 10<sup>-4</sup>.
 *
 * <p>The search ({@link #of}): for each k in [1, 48] the fewest blocks whose mean-share rate at n is at most p, by
 * doubling and bisection from half the classic filter's blocks (the blocked rate at equal bits is above the
 * classic one); then, for that k and its neighbours, the fewest blocks by the exact rate, which needs at least as
 * many; the plan is the k with the fewest blocks. Tens of milliseconds.
 *
 * @param expectedInsertions n, the number of distinct URLs the filter is sized for
 * @param falsePositiveRate p, the target false-positive rate at n
 * @param blocks b, the number of 512-bit blocks
 * @param hashCount k, the number of bit positions per URL inside its block
 */
public record BlockedPlan(long expectedInsertions, double falsePositiveRate, long blocks, int hashCount)
        implements FilterPlan {

    /** B, the bits of one block: a 64-byte cache line, eight 64-bit words. */
    static final int BLOCK_BITS = 512;

    private static final int MAX_HASH_COUNT = 48;

    public BlockedPlan {
        if (blocks < 1 || blocks > SievePlan.MAX_BITS / BLOCK_BITS) {
            throw new IllegalArgumentException("blocks must be in [1, 2^31], was " + blocks);
        }
        if (hashCount < 1 || hashCount > MAX_HASH_COUNT) {
            throw new IllegalArgumentException("hashCount must be in [1, " + MAX_HASH_COUNT + "], was " + hashCount);
        }
        // The classic plan validates n and p with the same messages.
        SievePlan.of(expectedInsertions, falsePositiveRate);
    }

    /**
     * The smallest blocked plan for {@code expectedInsertions} URLs at {@code falsePositiveRate}.
     *
     * @throws IllegalArgumentException naming the argument and its value when n &lt; 1, p is not in (0, 1), or
     *     the filter would exceed {@link SievePlan#MAX_BITS}
     */
    public static BlockedPlan of(long expectedInsertions, double falsePositiveRate) {
        SievePlan classic = SievePlan.of(expectedInsertions, falsePositiveRate);
        long start = Math.max(1, classic.bits() / BLOCK_BITS / 2); // the rate there is above p (class notes)
        // Cheap pass: the k with the fewest blocks by the mean-share rate, a lower bound of the exact one.
        long fewest = Long.MAX_VALUE;
        int bestK = 0;
        for (int k = 1; k <= MAX_HASH_COUNT; k++) {
            long blocks = fewestBlocks(expectedInsertions, falsePositiveRate, k, start, false);
            if (blocks < fewest) {
                fewest = blocks;
                bestK = k;
            }
        }
        if (bestK == 0) {
            throw tooLarge(expectedInsertions, falsePositiveRate);
        }
        // Exact pass around it: the exact rate needs at least the cheap pass's blocks.
        long exactFewest = Long.MAX_VALUE;
        int exactK = 0;
        for (int k = Math.max(1, bestK - 1); k <= Math.min(MAX_HASH_COUNT, bestK + 1); k++) {
            long blocks = fewestBlocks(expectedInsertions, falsePositiveRate, k, Math.max(1, fewest - 1), true);
            if (blocks < exactFewest) {
                exactFewest = blocks;
                exactK = k;
            }
        }
        if (exactK == 0) {
            throw tooLarge(expectedInsertions, falsePositiveRate);
        }
        return new BlockedPlan(expectedInsertions, falsePositiveRate, exactFewest, exactK);
    }

    /**
     * The fewest blocks, above {@code low} (whose rate is above p), at which the rate of k bits a URL at n is at
     * most p, by doubling and bisection; {@code Long.MAX_VALUE} if even the largest filter misses p.
     */
    private static long fewestBlocks(long n, double p, int k, long low, boolean exact) {
        long maxBlocks = SievePlan.MAX_BITS / BLOCK_BITS;
        long high = Math.min(maxBlocks, low + Math.max(1, low / 8));
        while (rate(n, high, k, exact) > p) {
            if (high == maxBlocks) {
                return Long.MAX_VALUE;
            }
            low = high;
            high = Math.min(maxBlocks, 2 * high);
        }
        while (high - low > 1) {
            long middle = (low + high) >>> 1;
            if (rate(n, middle, k, exact) > p) {
                low = middle;
            } else {
                high = middle;
            }
        }
        return high;
    }

    private static IllegalArgumentException tooLarge(long n, double p) {
        return new IllegalArgumentException(String.format(Locale.ROOT,
                "expectedInsertions %d at falsePositiveRate %s needs more than the maximum of 2^40 bits"
                        + " (128 GiB) in the blocked layout; lower expectedInsertions or raise falsePositiveRate",
                n, p));
    }

    /** m = 512·b, the number of bits. */
    public long bits() {
        return blocks * BLOCK_BITS;
    }

    /** Memory of the bit array: 64 bytes a block. */
    public long bytes() {
        return bits() / 8;
    }

    public double bitsPerUrl() {
        return (double) bits() / expectedInsertions;
    }

    /** The expected false-positive rate once {@code insertions} distinct URLs are in the filter (class notes). */
    public double rateAt(long insertions) {
        return rate(insertions, blocks, hashCount);
    }

    /** q = (1 - 1/B)^k, the probability that one URL leaves a given bit of its block clear. */
    static double clearShare(int k) {
        return Math.pow(1.0 - 1.0 / BLOCK_BITS, k);
    }

    /** The exact blocked false-positive rate of b blocks and k bits a URL after x URLs (class notes). */
    static double rate(double insertions, long blocks, int k) {
        return rate(insertions, blocks, k, true);
    }

    /**
     * Σ Poisson(i; x/b)·r(i): with {@code exact}, r(i) = E[(X<sub>i</sub>/B)<sup>k</sup>] over the occupancy
     * distribution of X<sub>i</sub>, the set bits of a block after i·k positions; else the mean-share rate
     * r(i) = (1 - q<sup>i</sup>)<sup>k</sup>, which Jensen's inequality puts below it.
     */
    static double rate(double insertions, long blocks, int k, boolean exact) {
        double lambda = insertions / blocks;
        if (lambda == 0) {
            return 0;
        }
        int last = (int) Math.min(Integer.MAX_VALUE / k - 1, Math.ceil(lambda + 12 * Math.sqrt(lambda) + 30));
        double logQ = Math.log(clearShare(k));
        double logLambda = Math.log(lambda);
        double[] shareToTheK = null;
        double[] occupancy = null;
        if (exact) {
            shareToTheK = new double[BLOCK_BITS + 1];
            for (int j = 0; j <= BLOCK_BITS; j++) {
                shareToTheK[j] = Math.pow((double) j / BLOCK_BITS, k);
            }
            occupancy = new double[BLOCK_BITS + 1];
            occupancy[0] = 1; // P(X = j) after t positions, from t = 0
        }
        int highest = 0; // the largest j with P(X = j) > 0 so far
        double logPmf = -lambda; // ln Poisson(0; λ)
        double sum = 0;
        for (int i = 1; i <= last; i++) {
            logPmf += logLambda - Math.log(i);
            double perBlock;
            if (exact) {
                for (int ball = 0; ball < k; ball++) {
                    // One more position: it lands on one of the j set bits, or sets a clear one.
                    highest = Math.min(BLOCK_BITS, highest + 1);
                    for (int j = highest; j >= 1; j--) {
                        occupancy[j] = occupancy[j] * j / BLOCK_BITS
                                + occupancy[j - 1] * (BLOCK_BITS - j + 1) / BLOCK_BITS;
                    }
                    occupancy[0] = 0;
                }
                perBlock = 0;
                for (int j = 1; j <= highest; j++) {
                    perBlock += occupancy[j] * shareToTheK[j];
                }
            } else {
                perBlock = Math.exp(k * Math.log(-Math.expm1(i * logQ)));
            }
            if (logPmf > -745) { // below, exp underflows to 0
                sum += Math.exp(logPmf) * perBlock;
            }
        }
        return Math.min(1.0, sum);
    }

    /** A human summary: bits, hash count, memory, the rate at n, 2n and 4n, and the classic plan's bits. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT,
                "n=%d p=%s blocked: m=%d bits (%d blocks of 512, %.2f bits/URL), k=%d, memory=%s (%d bytes),"
                        + " rate at n=%.3g, at 2n=%.3g, at 4n=%.3g",
                expectedInsertions, falsePositiveRate, bits(), blocks, bitsPerUrl(), hashCount,
                SievePlan.humanBytes(bytes()), bytes(), rateAt(expectedInsertions), rateAt(2 * expectedInsertions),
                rateAt(4 * expectedInsertions));
    }
}
