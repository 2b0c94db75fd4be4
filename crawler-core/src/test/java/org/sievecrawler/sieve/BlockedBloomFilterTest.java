package org.sievecrawler.sieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sievecrawler.fixtures.UrlCorpus;

/**
 * Statistical tests with a fixed corpus seed, as {@link BloomFilterTest}: "present" URLs are corpus indexes
 * [0, 2M), "absent" ones [10M, 11M), disjoint by construction.
 *
 * <p>The bound on a measured false-positive rate: A absent URLs meet a filter whose own rate r is the mean over
 * its b blocks of f(L) = (1 - q<sup>L</sup>)<sup>k</sup>, L the load of a block; so the hit count has variance
 * A·p(1 - p) (binomial, given the filter) plus A²·Var[f(L)]/b (the filter drawn), p the formula's rate. A
 * measurement passes within 4 standard deviations of A·p: a fixed seed either passes or not, and a correct
 * formula fails at 4σ with probability 6·10<sup>-5</sup>. Given the filter, the hit count is also binomial around the
 * filter's own rate, scanned from its blocks ({@link BlockedBloomFilter#scannedFalsePositiveRate}): within 4σ of
 * it too.
 */
class BlockedBloomFilterTest {
    private static final int N = 1_000_000;
    private static final int ABSENT = 1_000_000;
    private static final UrlCorpus CORPUS = new UrlCorpus(20261121L);
    private static String[] present;
    private static String[] absent;

    @BeforeAll
    static void corpus() {
        present = CORPUS.urls(0, 2L * N);
        absent = CORPUS.urls(10_000_000L, 10_000_000L + ABSENT);
    }

    @Test
    void findsEveryOneOfAMillionUrlsPutAndCountsEveryBitItSet() {
        BlockedBloomFilter filter = BlockedBloomFilter.create(N, 0.01);
        int newOnes = 0;
        for (int i = 0; i < N; i++) {
            if (filter.put(present[i])) {
                newOnes++;
            }
        }
        assertHoldsAllWithExactCount(filter);
        // put reports "new" for all but the URLs that were false positives when put (~0.3 % over the fill)
        assertThat(newOnes).isGreaterThan((int) (0.99 * N));
    }

    @ParameterizedTest(name = "p = {0}")
    @ValueSource(doubles = {1e-2, 1e-3, 1e-4})
    void measuredFalsePositiveRateAtNAndTwoNIsWithinFourSigmaOfTheFormula(double p) {
        BlockedBloomFilter filter = BlockedBloomFilter.create(N, p);
        for (int i = 0; i < N; i++) {
            filter.put(present[i]);
        }
        assertMeasuredRateWithinFourSigma(filter, N);
        assertThat(filter.expectedFalsePositiveRate()).isCloseTo(filter.plan().rateAt(N), within(0.05 * p));
        for (int i = N; i < 2 * N; i++) {
            filter.put(present[i]);
        }
        assertMeasuredRateWithinFourSigma(filter, 2 * N);
    }

    @Test
    void estimatesItsCardinalityWithinOnePercentAtNAndAtTwoN() {
        BlockedBloomFilter filter = BlockedBloomFilter.create(N, 1e-3);
        for (int i = 0; i < N; i++) {
            filter.put(present[i]);
        }
        assertThat(filter.estimatedCardinality()).isCloseTo(N, within(0.01 * N));
        for (int i = N; i < 2 * N; i++) {
            filter.put(present[i]);
        }
        assertThat(filter.estimatedCardinality()).isCloseTo(2.0 * N, within(0.01 * 2 * N));
        long x = filter.setBitCount();
        long blocks = filter.plan().blocks();
        int k = filter.hashCount();
        double estimate = BlockedBloomFilter.cardinalityFromSetBits(x, blocks, k);
        assertThat(BlockedBloomFilter.setBitsAtCardinality(estimate, blocks, k)).isBetween(x - 1, x);
    }

    @Test
    void setsEveryBitOfAUrlInsideOneBlock() {
        BlockedBloomFilter filter = BlockedBloomFilter.create(N, 1e-4);
        long[] positions = new long[filter.hashCount()];
        UrlHash hash = new UrlHash();
        for (int i = 0; i < 10_000; i++) {
            hash.hash(present[i]);
            filter.positions(hash.h1(), hash.h2(), positions);
            long block = positions[0] / 512;
            for (long position : positions) {
                assertThat(position / 512).as(present[i]).isEqualTo(block);
            }
        }
    }

    @ParameterizedTest(name = "pages of 2^{0} blocks")
    @ValueSource(ints = {4, 21})
    void putAllAnswersEachUrlAsSinglePutsInListOrderAndLeavesTheSameFilter(int blockShift) {
        BlockedPlan plan = BlockedPlan.of(100_000, 0.01);
        BlockedBloomFilter batched = BlockedBloomFilter.create(plan, blockShift);
        BlockedBloomFilter single = BlockedBloomFilter.create(plan, blockShift);
        // Each URL twice, so batches hold duplicates of URLs earlier in themselves and in earlier batches.
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            urls.add(present[i]);
            urls.add(present[i / 2]);
        }
        for (List<String> batch : BloomFilterTest.batches(urls, 300, 7)) {
            int expected = 0;
            for (String url : batch) {
                expected += single.put(url) ? 1 : 0;
            }
            assertThat(batched.putAll(batch)).isEqualTo(expected);
        }
        assertThat(batched.setBitCount()).isEqualTo(single.setBitCount()).isEqualTo(batched.popCount());
        for (int i = 0; i < 100_000; i++) {
            assertThat(batched.mightContain(absent[i])).isEqualTo(single.mightContain(absent[i]));
        }
    }

    @Test
    void findsEveryUrlPutByFourThreadsConcurrently() throws Exception {
        BlockedBloomFilter filter = BlockedBloomFilter.create(N, 0.01);
        List<String> urls = Arrays.asList(present).subList(0, N);
        BloomFilterTest.onFourThreads(thread -> {
            // Threads 0 and 1 put interleaved slices (contending for the same blocks all the time); 2 and 3 put
            // every URL in batches of other sizes, racing the others on the same new URLs.
            if (thread < 2) {
                for (int i = thread; i < N; i += 2) {
                    filter.put(present[i]);
                }
            } else {
                for (List<String> batch : BloomFilterTest.batches(urls, 200, 10 + thread)) {
                    filter.putAll(batch);
                }
            }
        });
        assertHoldsAllWithExactCount(filter);
    }

    @ParameterizedTest(name = "pages of 2^{0} blocks")
    @ValueSource(ints = {4, 21})
    void survivesWriteAndReadWithTheSameAnswersCountEstimateAndRate(int blockShift) throws IOException {
        BlockedBloomFilter filter = BlockedBloomFilter.create(BlockedPlan.of(100_000, 0.01), blockShift);
        for (int i = 0; i < 100_000; i++) {
            filter.put(present[i]);
        }
        byte[] bytes = serialized(filter);
        FilterLayer read = FilterLayer.read(new ByteArrayInputStream(bytes), bytes.length);

        assertThat(read).isInstanceOf(BlockedBloomFilter.class);
        BlockedBloomFilter copy = (BlockedBloomFilter) read;
        assertThat(copy.layout()).isEqualTo(SieveLayout.BLOCKED);
        assertThat(copy.plan()).isEqualTo(filter.plan());
        assertThat(copy.setBitCount()).isEqualTo(filter.setBitCount()).isEqualTo(copy.popCount());
        assertThat(copy.estimatedCardinality()).isEqualTo(filter.estimatedCardinality());
        assertThat(copy.expectedFalsePositiveRate()).isEqualTo(filter.expectedFalsePositiveRate());
        for (int i = 0; i < 100_000; i++) {
            assertThat(copy.mightContain(present[i])).isTrue();
            assertThat(copy.mightContain(absent[i])).isEqualTo(filter.mightContain(absent[i]));
        }
        // The same bytes whatever the pages: the file holds the blocks, not the padding.
        assertThat(serialized(copy)).isEqualTo(bytes);
        assertThat(serialized(filter.copy())).isEqualTo(bytes);
        assertThat(copy.put(absent[0])).isEqualTo(filter.put(absent[0]));
    }

    @Test
    void refusesACorruptTruncatedOrLyingStreamSayingWhich() throws IOException {
        BlockedBloomFilter filter = BlockedBloomFilter.create(1_000, 0.01);
        for (int i = 0; i < 1_000; i++) {
            filter.put(present[i]);
        }
        byte[] bytes = serialized(filter);

        byte[] corrupt = bytes.clone();
        corrupt[bytes.length / 2] ^= 0x10;
        assertThatThrownBy(() -> FilterLayer.read(new ByteArrayInputStream(corrupt), corrupt.length))
                .isInstanceOf(CorruptFilterException.class).hasMessageContaining("checksum mismatch");
        for (int cut : new int[] {0, 10, 40, bytes.length / 2, bytes.length - 1}) {
            byte[] truncated = Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> FilterLayer.read(new ByteArrayInputStream(truncated), bytes.length))
                    .as("cut at %d of %d bytes", cut, bytes.length)
                    .isInstanceOf(CorruptFilterException.class).hasMessageContaining("truncated");
        }
        byte[] lying = bytes.clone();
        ByteBuffer.wrap(lying).putLong(32, 1L << 31); // b, after magic, version, layout, scheme, n and p
        assertThatThrownBy(() -> FilterLayer.read(new ByteArrayInputStream(lying), lying.length))
                .isInstanceOf(CorruptFilterException.class)
                .hasMessage("Bloom filter header says 2147483648 blocks of 512 bits (137438953472 bytes), more than the "
                        + lying.length + " bytes the stream holds");
        byte[] otherLayout = bytes.clone();
        otherLayout[11] = 7; // layout 7
        assertThatThrownBy(() -> FilterLayer.read(new ByteArrayInputStream(otherLayout), otherLayout.length))
                .isInstanceOf(CorruptFilterException.class)
                .hasMessage("Bloom filter layout 7 is not supported; this build reads layouts 1 (classic) and 2"
                        + " (blocked)");
        assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(bytes)))
                .isInstanceOf(CorruptFilterException.class)
                .hasMessage("the stream holds a Bloom filter of the blocked layout, not a classic one");
    }

    @Test
    void aBatchLookUpAndItsWritesAnswerAsSinglePutsInListOrder() {
        BlockedBloomFilter batched = BlockedBloomFilter.create(BlockedPlan.of(50_000, 0.01), 4);
        BlockedBloomFilter single = BlockedBloomFilter.create(BlockedPlan.of(50_000, 0.01), 4);
        List<String> urls = BloomFilterTest.withRepeats(Arrays.asList(present).subList(0, 60_000), 3);
        for (List<String> batch : BloomFilterTest.batches(urls, 200, 5)) {
            HashBatch hashes = HashBatch.forCurrentThread();
            for (String url : batch) {
                hashes.add(url);
            }
            hashes.select();
            batched.lookUp(hashes);
            for (int j = 0; j < batch.size(); j++) {
                boolean expected = single.put(batch.get(j));
                // A URL found whole is not new; one with a bit clear is new unless an earlier URL set it.
                boolean added = hashes.missing(j) != 0 && batched.putSelected(hashes, j);
                assertThat(added).as(batch.get(j)).isEqualTo(expected);
            }
        }
        assertThat(batched.setBitCount()).isEqualTo(single.setBitCount()).isEqualTo(batched.popCount());
    }

    private static byte[] serialized(FilterLayer filter) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        filter.writeTo(out);
        return out.toByteArray();
    }

    private static void assertMeasuredRateWithinFourSigma(BlockedBloomFilter filter, int insertions) {
        long hits = 0;
        for (String url : absent) {
            if (filter.mightContain(url)) {
                hits++;
            }
        }
        BlockedPlan plan = filter.plan();
        double p = plan.rateAt(insertions);
        double variance = ABSENT * p * (1 - p)
                + (double) ABSENT * ABSENT * loadVariance(insertions, plan.blocks(), plan.hashCount()) / plan.blocks();
        assertThat((double) hits)
                .as("false positives among %d absent URLs after %d put, formula rate %.4g", ABSENT, insertions, p)
                .isCloseTo(ABSENT * p, within(4 * Math.sqrt(variance)));
        // Given the filter, the hits are binomial around its own rate, scanned from its blocks.
        double own = filter.scannedFalsePositiveRate();
        assertThat((double) hits)
                .as("false positives among %d absent URLs after %d put, scanned rate %.4g", ABSENT, insertions, own)
                .isCloseTo(ABSENT * own, within(4 * Math.sqrt(ABSENT * own * (1 - own))));
    }

    /**
     * Var[f(L)], f(i) = (1 - q^i)^k, L ~ Poisson(x/b): how much one block's rate varies with its load (by the
     * mean-share rate of a block, close enough for a variance).
     */
    private static double loadVariance(double insertions, long blocks, int k) {
        double lambda = insertions / blocks;
        double q = BlockedPlan.clearShare(k);
        double mean = 0;
        double square = 0;
        double logPmf = -lambda;
        for (int i = 1; i <= lambda + 12 * Math.sqrt(lambda) + 30; i++) {
            logPmf += Math.log(lambda) - Math.log(i);
            double f = Math.pow(1 - Math.pow(q, i), k);
            mean += Math.exp(logPmf) * f;
            square += Math.exp(logPmf) * f * f;
        }
        return square - mean * mean;
    }

    /** Every one of the first N URLs is found, and no concurrent update was lost from the set-bit count. */
    private static void assertHoldsAllWithExactCount(BlockedBloomFilter filter) {
        for (int i = 0; i < N; i++) {
            assertThat(filter.mightContain(present[i])).as(present[i]).isTrue();
        }
        assertThat(filter.setBitCount()).isEqualTo(filter.popCount());
    }
}
