package org.sievecrawler.sieve;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The index math, for filters far larger than 2^32 bits, without allocating them. */
class DoubleHashingTest {
    private static final long M_2_37 = 1L << 37;
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    @Test
    void reduceIsTheHighWordOfTheUnsignedProduct() {
        SplittableRandom random = new SplittableRandom(7);
        long[] sizes = {1, 2, 63, 1L << 32, (1L << 32) + 1, M_2_37, M_2_37 + 12_345, SievePlan.MAX_BITS, Long.MAX_VALUE};
        for (long m : sizes) {
            for (int i = 0; i < 10_000; i++) {
                long x = random.nextLong();
                long expected = new BigInteger(Long.toUnsignedString(x)).multiply(BigInteger.valueOf(m))
                        .divide(TWO_64).longValueExact();
                assertThat(DoubleHashing.reduce(x, m)).as("reduce(%x, %d)", x, m).isEqualTo(expected);
            }
        }
        assertThat(DoubleHashing.reduce(-1L, M_2_37)).isEqualTo(M_2_37 - 1);
        assertThat(DoubleHashing.reduce(0L, M_2_37)).isZero();
    }

    @Test
    void positionsCoverAFilterOf2To37BitsUniformly() {
        // 2^37 + an odd amount: 64 equal-width buckets; chi-square with 63 degrees of freedom.
        long m = M_2_37 + 1_234_567;
        int k = 13;
        int buckets = 64;
        long[] counts = new long[buckets];
        long[] positions = new long[k];
        SplittableRandom random = new SplittableRandom(2024);
        int urls = 200_000;
        long above32 = 0;
        for (int u = 0; u < urls; u++) {
            DoubleHashing.positions(random.nextLong(), random.nextLong(), k, m, positions);
            for (long p : positions) {
                assertThat(p).isBetween(0L, m - 1);
                counts[(int) (p / ((m + buckets - 1) / buckets))]++;
                if (p >= (1L << 32)) {
                    above32++;
                }
            }
        }
        double expected = (double) urls * k / buckets;
        double chiSquare = 0;
        for (long c : counts) {
            chiSquare += (c - expected) * (c - expected) / expected;
        }
        // P(chi2_63 > 110) < 1e-4: a fixed seed keeps this deterministic, the bound keeps it meaningful.
        assertThat(chiSquare).isLessThan(110);
        // Nearly every position lies above 2^32 (a 32-bit index would reach only 1/32 of this filter).
        assertThat((double) above32 / (urls * (long) k)).isGreaterThan(0.96);
    }

    @Test
    void theKPositionsOfOneUrlAreAlmostAlwaysDistinctEvenWhenH2IsZero() {
        long m = M_2_37;
        long[] positions = new long[14];
        DoubleHashing.positions(123_456_789L, 0L, 14, m, positions);
        Set<Long> distinct = new HashSet<>();
        for (long p : positions) {
            distinct.add(p);
        }
        // Plain double hashing with h2 = 0 would put all 14 on one bit; the enhanced scheme spreads them.
        assertThat(distinct).hasSizeGreaterThan(10);
    }

    @Test
    void theLowBitsOfAPositionVaryEvenForLargeFilters() {
        // With m > 2^32, every bit of the position must be live: a 32-bit combination would leave
        // the low bits of a 2^37-bit position correlated with the high ones.
        long m = M_2_37;
        long[] positions = new long[7];
        SplittableRandom random = new SplittableRandom(99);
        long[] lowBitOnes = new long[37];
        int samples = 50_000;
        for (int s = 0; s < samples; s++) {
            DoubleHashing.positions(random.nextLong(), random.nextLong(), 7, m, positions);
            for (int b = 0; b < 37; b++) {
                lowBitOnes[b] += (positions[3] >>> b) & 1;
            }
        }
        for (int b = 0; b < 37; b++) {
            assertThat((double) lowBitOnes[b] / samples).as("share of ones at bit %d", b).isBetween(0.48, 0.52);
        }
    }
}
