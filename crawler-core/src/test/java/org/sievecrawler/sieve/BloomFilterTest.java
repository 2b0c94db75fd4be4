package org.sievecrawler.sieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sievecrawler.fixtures.UrlCorpus;

/**
 * Statistical tests with a fixed corpus seed: "present" URLs are corpus indexes [0, 3M), "absent" ones
 * [10M, 11M), disjoint by construction.
 */
class BloomFilterTest {
    private static final int N = 1_000_000;
    private static final UrlCorpus CORPUS = new UrlCorpus(20261121L);
    private static String[] present;
    private static String[] absent;

    @BeforeAll
    static void corpus() {
        present = CORPUS.urls(0, 3L * N);
        absent = CORPUS.urls(10_000_000L, 10_000_000L + N);
    }

    @Test
    void isSizedByTheFormula() {
        BloomFilter filter = BloomFilter.create(N, 0.01);
        // m = ceil(-n ln p / (ln 2)^2) = 9,585,059; k = round(m/n ln 2) = 7
        assertThat(filter.bitSize()).isEqualTo(9_585_059L);
        assertThat(filter.hashCount()).isEqualTo(7);
        assertThat(filter.expectedInsertions()).isEqualTo(N);
        assertThat(filter.byteSize()).isEqualTo((9_585_059L + 63) / 64 * 8);
    }

    @Test
    void refusesBadSizingArgumentsNamingThem() {
        assertThatThrownBy(() -> BloomFilter.create(0, 0.01))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expectedInsertions must be >= 1, was 0");
        assertThatThrownBy(() -> BloomFilter.create(1000, 1.0))
                .hasMessage("falsePositiveRate must be in (0, 1), exclusive, was 1.0");
        assertThatThrownBy(() -> BloomFilter.create(1000, 0))
                .hasMessage("falsePositiveRate must be in (0, 1), exclusive, was 0.0");
        assertThatThrownBy(() -> BloomFilter.create(1000, Double.NaN))
                .hasMessage("falsePositiveRate must be in (0, 1), exclusive, was NaN");
        assertThatThrownBy(() -> BloomFilter.create(Long.MAX_VALUE / 2, 1e-9))
                .hasMessageContaining("more than the maximum of 2^40 bits");
    }

    @Test
    void findsEveryOneOfAMillionUrlsPut() {
        BloomFilter filter = BloomFilter.create(N, 0.01);
        int newOnes = 0;
        for (int i = 0; i < N; i++) {
            if (filter.put(present[i])) {
                newOnes++;
            }
        }
        for (int i = 0; i < N; i++) {
            assertThat(filter.mightContain(present[i])).as(present[i]).isTrue();
        }
        // put reports "new" for all but the few URLs that were false positives when put (~0.3% over the fill)
        assertThat(newOnes).isGreaterThan((int) (0.99 * N));
    }

    @Test
    void findsEveryUrlPutByFourThreadsConcurrently() throws Exception {
        BloomFilter filter = BloomFilter.create(N, 0.01);
        onFourThreads(thread -> {
            // Interleaved slices, so the threads contend for the same words all the time.
            for (int i = thread; i < N; i += 4) {
                filter.put(present[i]);
            }
        });
        assertHoldsAllWithExactCount(filter);
    }

    @ParameterizedTest(name = "p = {0}")
    @ValueSource(doubles = {1e-2, 1e-3})
    void measuredFalsePositiveRateAtNIsWithinTwentyPercentOfP(double p) {
        BloomFilter filter = BloomFilter.create(N, p);
        for (int i = 0; i < N; i++) {
            filter.put(present[i]);
        }
        double measured = measuredFalsePositiveRate(filter);
        // Expected p*1M = 10,000 or 1,000 hits; +-20% is at least 6 standard deviations.
        assertThat(measured).isBetween(0.8 * p, 1.2 * p);
        // The rate the filter reports of itself agrees with what was measured.
        assertThat(filter.expectedFalsePositiveRate()).isCloseTo(measured, within(0.15 * p));
    }

    @Test
    void estimatesItsCardinalityWithinTwoPercentAtNAndFivePercentAtThreeN() {
        BloomFilter filter = BloomFilter.create(N, 0.01);
        for (int i = 0; i < N; i++) {
            filter.put(present[i]);
        }
        assertThat(filter.estimatedCardinality()).isCloseTo(N, within(0.02 * N));
        for (int i = N; i < 3 * N; i++) {
            filter.put(present[i]);
        }
        assertThat(filter.estimatedCardinality()).isCloseTo(3.0 * N, within(0.05 * 3 * N));
    }

    @Test
    void survivesWriteAndReadWithTheSameAnswersEstimateAndRate() throws IOException {
        BloomFilter filter = BloomFilter.create(100_000, 0.01);
        for (int i = 0; i < 100_000; i++) {
            filter.put(present[i]);
        }
        BloomFilter copy = roundTrip(filter);

        assertThat(copy.bitSize()).isEqualTo(filter.bitSize());
        assertThat(copy.hashCount()).isEqualTo(filter.hashCount());
        assertThat(copy.expectedInsertions()).isEqualTo(filter.expectedInsertions());
        assertThat(copy.setBitCount()).isEqualTo(filter.setBitCount());
        assertThat(copy.estimatedCardinality()).isEqualTo(filter.estimatedCardinality());
        assertThat(copy.expectedFalsePositiveRate()).isEqualTo(filter.expectedFalsePositiveRate());
        for (int i = 0; i < 100_000; i++) {
            assertThat(copy.mightContain(present[i])).isTrue();
        }
        for (int i = 0; i < 100_000; i++) {
            assertThat(copy.mightContain(absent[i])).isEqualTo(filter.mightContain(absent[i]));
        }
        // And it keeps working: a new URL is new to the copy too.
        assertThat(copy.put(absent[0])).isEqualTo(filter.put(absent[0]));
    }

    @Test
    void refusesACorruptStreamWithAChecksumMessage() throws IOException {
        byte[] bytes = serialized(smallFilter());
        bytes[bytes.length / 2] ^= 0x10;
        assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(bytes)))
                .isInstanceOf(CorruptFilterException.class)
                .hasMessageContaining("checksum mismatch");
    }

    @Test
    void refusesATruncatedStreamSayingWhereItEnded() throws IOException {
        byte[] bytes = serialized(smallFilter());
        for (int cut : new int[] {0, 3, 20, bytes.length / 2, bytes.length - 1}) {
            byte[] truncated = java.util.Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(truncated)))
                    .as("cut at %d of %d bytes", cut, bytes.length)
                    .isInstanceOf(CorruptFilterException.class)
                    .hasMessageContaining("truncated");
        }
    }

    @Test
    void refusesAHeaderClaimingMoreBitsThanTheStreamHoldsBeforeAllocatingThem() throws IOException {
        byte[] bytes = serialized(smallFilter());
        // m, after magic, version, layout, scheme, n and p: 1 TiB of bits
        java.nio.ByteBuffer.wrap(bytes).putLong(32, 1L << 40);

        assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(bytes), bytes.length))
                .isInstanceOf(CorruptFilterException.class)
                .hasMessage("Bloom filter header says 1099511627776 bits (137438953472 bytes), more than the "
                        + bytes.length + " bytes the stream holds");
    }

    @Test
    void refusesAStreamThatIsNotAFilterOrOfAnotherVersion() throws IOException {
        byte[] notAFilter = "PK\u0003\u0004 this is a zip file".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(notAFilter)))
                .isInstanceOf(CorruptFilterException.class)
                .hasMessage("not a Bloom filter: the stream starts with 0x504b0304, expected 0x53434246 (\"SCBF\")");

        byte[] future = serialized(smallFilter());
        future[7] = 9; // format version 9
        assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(future)))
                .isInstanceOf(CorruptFilterException.class)
                .hasMessage("Bloom filter format version 9 is not supported; this build reads versions 1 and 2");
    }

    @Test
    void readsAFilterOfFormatVersionOneWrittenBeforeTheLayoutFieldAsClassic() throws IOException {
        BloomFilter filter = smallFilter();
        byte[] current = serialized(filter);
        // Version 1 is version 2 without the layout field (bytes 8-11) and with its own checksum.
        ByteArrayOutputStream old = new ByteArrayOutputStream();
        old.write(current, 0, 8);
        old.write(current, 12, current.length - 12 - 4);
        byte[] body = old.toByteArray();
        java.nio.ByteBuffer.wrap(body).putInt(4, 1);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(body);
        old.reset();
        old.write(body);
        new java.io.DataOutputStream(old).writeInt((int) crc.getValue());

        FilterLayer read = FilterLayer.read(new ByteArrayInputStream(old.toByteArray()), old.size());

        assertThat(read.layout()).isEqualTo(SieveLayout.CLASSIC);
        assertThat(serialized((BloomFilter) read)).isEqualTo(current);
    }

    @Test
    void pagedStorageAnswersExactlyLikeOneArray() throws IOException {
        SievePlan plan = SievePlan.of(50_000, 0.01);
        BloomFilter oneArray = BloomFilter.create(plan);
        BloomFilter paged = BloomFilter.create(plan, 5); // 32-word pages: hundreds of page boundaries
        for (int i = 0; i < 50_000; i++) {
            assertThat(paged.put(present[i])).isEqualTo(oneArray.put(present[i]));
        }
        for (int i = 0; i < 50_000; i++) {
            assertThat(paged.mightContain(absent[i])).isEqualTo(oneArray.mightContain(absent[i]));
        }
        assertThat(serialized(paged)).isEqualTo(serialized(oneArray));
    }

    @Test
    void putAllInBatchesOfOneToThreeHundredFindsEveryOneOfAMillionUrls() {
        BloomFilter filter = BloomFilter.create(N, 0.01);
        int newOnes = 0;
        for (List<String> batch : batches(Arrays.asList(present).subList(0, N), 300, 1)) {
            newOnes += filter.putAll(batch);
        }
        for (int i = 0; i < N; i++) {
            assertThat(filter.mightContain(present[i])).as(present[i]).isTrue();
        }
        assertThat(newOnes).isGreaterThan((int) (0.99 * N));
    }

    @ParameterizedTest(name = "p = {0}")
    @ValueSource(doubles = {1e-2, 1e-3})
    void putAllMeasuredFalsePositiveRateAtNIsWithinTwentyPercentOfP(double p) {
        BloomFilter filter = BloomFilter.create(N, p);
        for (List<String> batch : batches(Arrays.asList(present).subList(0, N), 256, 2)) {
            filter.putAll(batch);
        }
        double measured = measuredFalsePositiveRate(filter);
        // The same bound as single puts: +-20% is at least 6 standard deviations.
        assertThat(measured).isBetween(0.8 * p, 1.2 * p);
        assertThat(filter.expectedFalsePositiveRate()).isCloseTo(measured, within(0.15 * p));
    }

    @ParameterizedTest(name = "page shift {0}")
    @ValueSource(ints = {LongPages.DEFAULT_PAGE_SHIFT, 5})
    void putAllAnswersEachUrlAsSinglePutsInListOrderAndLeavesTheSameFilter(int pageShift) throws IOException {
        // 20,000 URLs into a filter for 5,000: past n, false positives are common, many of them caused by URLs
        // earlier in the same batch. One URL in ten is listed again, half of those within a few places.
        SievePlan plan = SievePlan.of(5_000, 0.01);
        BloomFilter single = BloomFilter.create(plan, pageShift);
        BloomFilter batched = BloomFilter.create(plan, pageShift);
        List<String> urls = withRepeats(Arrays.asList(present).subList(0, 20_000), 3);
        int newOnes = 0;
        for (List<String> batch : batches(urls, 300, 4)) {
            HashBatch hashes = new HashBatch(16);
            batch.forEach(hashes::add);
            int added = batched.putAll(hashes);
            int expected = 0;
            for (int i = 0; i < batch.size(); i++) {
                boolean changed = single.put(batch.get(i));
                assertThat(hashes.isOpen(i)).as(batch.get(i)).isEqualTo(changed);
                expected += changed ? 1 : 0;
            }
            assertThat(added).isEqualTo(expected);
            newOnes += added;
        }
        assertThat(newOnes).isLessThan(20_000); // the false positives this test is about did happen
        assertThat(batched.setBitCount()).isEqualTo(single.setBitCount());
        assertThat(serialized(batched)).isEqualTo(serialized(single));
    }

    @Test
    void putAllCountsAUrlListedTwiceInOneBatchOnce() throws IOException {
        BloomFilter filter = BloomFilter.create(1_000, 0.01);
        List<String> batch = List.of(present[0], present[1], present[0], present[2], present[1]);

        assertThat(filter.putAll(batch)).isEqualTo(3);
        assertThat(filter.putAll(batch)).isZero();
        assertThat(filter.setBitCount()).isEqualTo(roundTrip(filter).setBitCount());
    }

    @Test
    void putAllOfAnEmptyListChangesNothing() {
        BloomFilter filter = BloomFilter.create(1_000, 0.01);

        assertThat(filter.putAll(List.of())).isZero();
        assertThat(filter.setBitCount()).isZero();
    }

    @Test
    void putAllGrowsItsScratchForABatchLargerThanAnyBefore() {
        // A scratch sized for 2 URLs takes a batch of 10,000: 130,000 positions at k = 13.
        BloomFilter single = BloomFilter.create(100_000, 1e-4);
        BloomFilter batched = BloomFilter.create(100_000, 1e-4);
        HashBatch hashes = new HashBatch(2);
        for (int i = 0; i < 10_000; i++) {
            hashes.add(present[i]);
        }

        assertThat(batched.putAll(hashes)).isEqualTo(10_000);
        assertThat(hashes.positions().length).isGreaterThanOrEqualTo(10_000 * 13);
        for (int i = 0; i < 10_000; i++) {
            assertThat(single.put(present[i])).isTrue();
        }
        assertThat(batched.setBitCount()).isEqualTo(single.setBitCount());
        for (int i = 0; i < 10_000; i++) {
            assertThat(batched.mightContain(present[i])).isTrue();
        }
    }

    @Test
    void findsEveryUrlPutInOverlappingBatchesByFourThreadsAtOnce() throws Exception {
        BloomFilter filter = BloomFilter.create(N, 0.01);
        List<String> urls = Arrays.asList(present).subList(0, N);
        onFourThreads(thread -> {
            // Every thread puts every URL in the same order, cut into batches of other sizes, so
            // batches of different threads overlap and race on the same new URLs.
            for (List<String> batch : batches(urls, 200, 10 + thread)) {
                filter.putAll(batch);
            }
        });
        assertHoldsAllWithExactCount(filter);
    }

    /** Runs {@code work} on four threads at once (numbered 0 to 3) and waits for all; a failure fails the test. */
    static void onFourThreads(IntConsumer work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                tasks.add(() -> {
                    work.accept(thread);
                    return null;
                });
            }
            for (Future<Void> f : pool.invokeAll(tasks)) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Every one of the first N URLs is found, and no concurrent update was lost from the set-bit count. */
    private static void assertHoldsAllWithExactCount(BloomFilter filter) throws IOException {
        for (int i = 0; i < N; i++) {
            assertThat(filter.mightContain(present[i])).as(present[i]).isTrue();
        }
        assertThat(filter.setBitCount()).isEqualTo(roundTrip(filter).setBitCount());
    }

    /** {@code urls} cut into consecutive batches of 1 to {@code maxSize} URLs, sizes drawn with {@code seed}. */
    static <T> List<List<T>> batches(List<T> urls, int maxSize, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<List<T>> batches = new ArrayList<>();
        for (int from = 0; from < urls.size(); ) {
            int to = Math.min(urls.size(), from + 1 + random.nextInt(maxSize));
            batches.add(urls.subList(from, to));
            from = to;
        }
        return batches;
    }

    /** {@code urls} with one URL in ten listed again: half a few places later, half anywhere later. */
    static List<String> withRepeats(List<String> urls, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<String> out = new ArrayList<>(urls);
        for (int i = 0; i < urls.size() / 10; i++) {
            int from = random.nextInt(out.size());
            int to = random.nextBoolean() ? Math.min(out.size(), from + 1 + random.nextInt(5))
                    : from + random.nextInt(out.size() - from + 1);
            out.add(to, out.get(from));
        }
        return out;
    }

    private static BloomFilter smallFilter() {
        BloomFilter filter = BloomFilter.create(1_000, 0.01);
        for (int i = 0; i < 1_000; i++) {
            filter.put(present[i]);
        }
        return filter;
    }

    private static byte[] serialized(BloomFilter filter) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        filter.writeTo(out);
        return out.toByteArray();
    }

    /** The share of the {@code absent} URLs (never put) that {@code filter} claims to hold. */
    private static double measuredFalsePositiveRate(BloomFilter filter) {
        int falsePositives = 0;
        for (String url : absent) {
            if (filter.mightContain(url)) {
                falsePositives++;
            }
        }
        return (double) falsePositives / absent.length;
    }

    private static BloomFilter roundTrip(BloomFilter filter) throws IOException {
        return BloomFilter.readFrom(new ByteArrayInputStream(serialized(filter)));
    }
}
