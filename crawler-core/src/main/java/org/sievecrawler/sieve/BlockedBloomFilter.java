package org.sievecrawler.sieve;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * A lock-free blocked Bloom filter of URLs: a set that answers "seen before?" with no false negatives, like
 * {@link BloomFilter}, but with all k bits of a URL inside one 512-bit block, a 64-byte cache line, so a put or a
 * lookup in a filter larger than the caches costs one memory miss instead of k.
 *
 * <h2>Math</h2>
 * Sized by {@link BlockedPlan}: b blocks of B = 512 bits (m = 512·b) and k bits per URL, the smallest m whose
 * rate at n is at most p. From the URL's 128-bit hash ({@link UrlHash}): the block is the high word of the
 * unsigned product h1·b (Lemire's division-free reduction, as {@link DoubleHashing#reduce}); the k bit positions
 * inside it are the 9-bit chunks of h2, seven of them from the top, then of fmix64(h2 + C), fmix64 of that plus C,
 * and so on for k &gt; 7 (C = ⌊2<sup>64</sup>/φ⌋): bits of the hash that did not choose the block, a shift each,
 * a finalizer per seven. The positions are drawn with replacement, as the rate below assumes; two URLs of the
 * same block share all k only if they share h2 (probability 2<sup>-64</sup>). Not chosen: double hashing inside
 * the block ((a + i·c) mod 512 has 2<sup>17</sup> patterns, so an absent URL would match the whole pattern of
 * one of 27 URLs in its block with probability ~2·10<sup>-4</sup>, above the target at p = 10<sup>-4</sup>); a
 * multiplicative sequence (top 9 bits of h2·C<sup>i</sup>), which measured 2-3 % above the rate; the split-block
 * scheme of Impala and Parquet (eight 32-bit words, one bit in each from eight odd salts), whose k is fixed at 8
 * and so cannot reach p = 10<sup>-4</sup> near the optimum. Here k follows the plan: 6 at 10<sup>-2</sup>, 12 at
 * 10<sup>-4</sup>.
 *
 * <p>After x distinct URLs the false-positive rate is the rate of one block averaged over the Poisson load of the
 * block (Putze, Sanders and Singler 2007), computed numerically by {@link BlockedPlan#rateAt}, exactly in the
 * block's occupancy rather than by Putze's mean-share approximation (see {@link BlockedPlan}):
 * <pre>
 *   p(x) = Σ<sub>i≥0</sub> e<sup>-λ</sup>·λ<sup>i</sup>/i! · E[(X<sub>i</sub>/B)<sup>k</sup>],   λ = x/b
 * </pre>
 * Above the classic (1 - e<sup>-kx/m</sup>)<sup>k</sup> at equal bits, so the plan holds more bits for equal p:
 * 22.0 bits a URL at p = 10<sup>-4</sup> against the classic 19.2, 9.9 against 9.6 at 10<sup>-2</sup>.
 *
 * <p>The filter keeps the exact count X of its set bits (each bit is set by one atomic OR that found it clear,
 * which counts it). A given bit is clear after x URLs with probability E[q<sup>L</sup>] = e<sup>-λ(1-q)</sup> for
 * a Poisson load L of mean λ, so E[X]/m = 1 - e<sup>-(x/b)(1-q)</sup>, and
 * <ul>
 *   <li>{@link #estimatedCardinality()}: n* = -b·ln(1 - X/m)/(1 - q), O(1). This is the classic estimator
 *       -(m/k)·ln(1 - X/m) with k/m replaced by (1 - q)/b, the expected share of a block's bits a URL sets.
 *       The per-block sum Σ -(B/k)·ln(1 - X<sub>b</sub>/B) would need a count per block or a scan of m bits per
 *       call, and a block whose bits are all set makes it infinite; the pooled form needs neither, and its
 *       error is that of X's fluctuation (measured: well under 1 % at n, {@code BlockedBloomFilterTest}).</li>
 *   <li>{@link #expectedFalsePositiveRate()}: the rate above at x = n*, about a millisecond.</li>
 * </ul>
 *
 * <h2>What a false positive costs</h2>
 * As for {@link BloomFilter}: a URL silently never fetched. The plan keeps the same target rate as the classic
 * layout at n, at the price of more bits (3-15 %); past n it degrades more slowly than the classic one.
 *
 * <h2>Memory and layout</h2>
 * b·64 bytes, in pages of 2<sup>21</sup> blocks (128 MiB), each page a {@code long[]} whose first 6 words are
 * padding: HotSpot places a large array (a G1 humongous object) at the start of a region, behind a 16-byte
 * header, so block j of a page starts at byte 16 + 48 + 64·j, on a cache-line boundary. Elsewhere (a small filter,
 * another collector) a block may straddle two lines, which costs speed, never answers.
 *
 * <h2>Threads</h2>
 * Safe for any number of threads, lock-free: {@link #put} gathers its k bits by word, reads the words of its
 * block (one line), and if a bit is clear sets each word's bits by one atomic OR, counting those it found clear. Two threads that put the same new URL at the same instant may both get
 * {@code true}, as with {@link BloomFilter}. The Sieve's batches ({@link #lookUp}) read each URL's one line with
 * plain loads in one loop, so the lines of several URLs are in flight at once. {@link #writeTo} may run during
 * puts: it then captures every put that completed before it began.
 *
 * <h2>References</h2>
 * F. Putze, P. Sanders and J. Singler, "Cache-, hash- and space-efficient Bloom filters", WEA 2007.
 * Apache Parquet, "Split Block Bloom Filter" (parquet-format BloomFilter.md), after Impala.
 * D. Lemire, "Fast Random Integer Generation in an Interval", ACM TOMACS 2019.
 */
public final class BlockedBloomFilter extends FilterLayer {
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final long C = 0x9E3779B97F4A7C15L;
    /** Words before the first block of a page: 16-byte array header + 6·8 bytes = one 64-byte line. */
    private static final int PAD = 6;
    private static final int WORDS_PER_BLOCK = BlockedPlan.BLOCK_BITS / Long.SIZE;
    private static final int DEFAULT_BLOCK_SHIFT = 21;

    private final BlockedPlan plan;
    private final long blocks;
    private final int k;
    private final long[][] pages;
    private final int blockShift;
    private final long blockMask;
    private final LongAdder setBits = new LongAdder();
    /** The sum of the words {@link #putAll} read ahead; written so the JIT cannot drop those reads. */
    @SuppressWarnings("unused")
    private long touchedWords;

    private BlockedBloomFilter(BlockedPlan plan, int blockShift) {
        this.plan = plan;
        this.blocks = plan.blocks();
        this.k = plan.hashCount();
        this.blockShift = blockShift;
        this.blockMask = (1L << blockShift) - 1;
        long perPage = 1L << blockShift;
        int pageCount = (int) ((blocks + perPage - 1) >>> blockShift);
        this.pages = new long[pageCount][];
        for (int p = 0; p < pageCount; p++) {
            long inPage = Math.min(perPage, blocks - ((long) p << blockShift));
            pages[p] = new long[PAD + (int) inPage * WORDS_PER_BLOCK];
        }
    }

    /**
     * A filter for {@code expectedInsertions} URLs at {@code falsePositiveRate}, sized by {@link BlockedPlan#of}.
     *
     * @throws IllegalArgumentException naming the argument and value when n &lt; 1 or p is not in (0, 1)
     */
    public static BlockedBloomFilter create(long expectedInsertions, double falsePositiveRate) {
        return create(BlockedPlan.of(expectedInsertions, falsePositiveRate));
    }

    public static BlockedBloomFilter create(BlockedPlan plan) {
        return new BlockedBloomFilter(plan, DEFAULT_BLOCK_SHIFT);
    }

    /** For tests: pages of 2^blockShift blocks, to cross page boundaries cheaply. */
    static BlockedBloomFilter create(BlockedPlan plan, int blockShift) {
        return new BlockedBloomFilter(plan, blockShift);
    }

    /**
     * Adds every URL of {@code urls}, with the outcome of as many calls of {@link #put(CharSequence)} in list
     * order: the URLs are hashed and their blocks read first, so that the cache misses of different URLs overlap,
     * then put one by one on lines now in cache.
     *
     * @return how many of the URLs changed the filter
     */
    public int putAll(List<? extends CharSequence> urls) {
        HashBatch batch = HashBatch.forCurrentThread();
        int size = urls.size();
        long touched = 0;
        for (int i = 0; i < size; i++) {
            batch.add(urls.get(i));
            long block = block(batch.h1(i));
            touched += (long) WORDS.getOpaque(page(block), offset(block));
        }
        touchedWords = touched; // uses the loads, so the JIT keeps them
        int added = 0;
        for (int i = 0; i < size; i++) {
            if (put(batch.h1(i), batch.h2(i))) {
                added++;
            }
        }
        return added;
    }


    @Override
    boolean put(long h1, long h2) {
        long block = block(h1);
        long[] page = page(block);
        int base = offset(block);
        // Read-only pass without early exit: one line, one miss; a URL already seen ends here without a write.
        if (clearBits(page, base, h2) == 0) {
            return false;
        }
        return setBits(page, base, h2);
    }

    /**
     * Sets the URL's bits in its block by one atomic OR per word that holds any of them, counting those it found
     * clear. The bits are gathered by word first, into a small array the JIT allocates in the thread's buffer.
     *
     * @return true iff this call set a bit
     */
    private boolean setBits(long[] page, int base, long h2) {
        long[] masks = new long[WORDS_PER_BLOCK];
        int touched = 0; // bit w set iff word w holds one of the URL's bits
        Bits bits = new Bits(h2);
        for (int i = 0; i < k; i++) {
            int bit = bits.next();
            masks[bit >>> 6] |= 1L << bit;
            touched |= 1 << (bit >>> 6);
        }
        // Over the touched words only: one loop exit to predict, not a coin-flip branch per word (at k = 6 a word
        // holds a bit with probability 0.55).
        int flipped = 0;
        for (; touched != 0; touched &= touched - 1) {
            int w = Integer.numberOfTrailingZeros(touched);
            long mask = masks[w];
            long before = (long) WORDS.getAndBitwiseOr(page, base + w, mask);
            flipped += Long.bitCount(mask & ~before);
        }
        if (flipped == 0) {
            return false; // another thread set every bit between our read and our writes
        }
        setBits.add(flipped);
        return true;
    }

    /**
     * The URL's bits found clear in its block, OR-ed together (each bit shifted to its place in a word, so only
     * "zero or not" means anything): plain loads of one line, no early exit, no branch on the data.
     */
    private long clearBits(long[] page, int base, long h2) {
        long missing = 0;
        Bits bits = new Bits(h2);
        for (int i = 0; i < k; i++) {
            int bit = bits.next();
            missing |= ~page[base + (bit >>> 6)] & (1L << bit);
        }
        return missing;
    }

    /**
     * Looks up every selected URL of {@code batch} in one loop: its block's index goes to the batch's positions
     * (one a URL), and the bits of it found clear to its {@code missing} mask. The loop has no branch on the loaded
     * words, so the one line each URL touches is in flight for several URLs at once.
     */
    @Override
    void lookUp(HashBatch batch) {
        int count = batch.selectedCount();
        long[] blocksOf = batch.positionsFor(1);
        long[] missing = batch.missing();
        for (int j = 0; j < count; j++) {
            int url = batch.selected(j);
            long block = block(batch.h1(url));
            blocksOf[j] = block;
            missing[j] = clearBits(page(block), offset(block), batch.h2(url));
        }
    }

    /** Sets the bits of the j-th URL of the last {@link #lookUp}, on the line that lookup brought into cache. */
    @Override
    boolean putSelected(HashBatch batch, int j) {
        long block = batch.positions()[j];
        return setBits(page(block), offset(block), batch.h2(batch.selected(j)));
    }

    @Override
    boolean mightContain(long h1, long h2) {
        long block = block(h1);
        long[] page = page(block);
        int base = offset(block);
        long missing = 0;
        Bits bits = new Bits(h2);
        for (int i = 0; i < k; i++) {
            int bit = bits.next();
            missing |= ~(long) WORDS.getAcquire(page, base + (bit >>> 6)) & (1L << bit);
        }
        return missing == 0;
    }

    /** The k bit positions of (h1, h2) as indexes into the filter's m bits; for tests. */
    void positions(long h1, long h2, long[] out) {
        long first = block(h1) * BlockedPlan.BLOCK_BITS;
        Bits bits = new Bits(h2);
        for (int i = 0; i < k; i++) {
            out[i] = first + bits.next();
        }
    }

    /**
     * A cursor over the bit positions of a URL inside its block: the 9-bit chunks of h2 from the top, seven of
     * them, then of fmix64(h2 + C), and so on. Confined to one call; scalar-replaced by the JIT.
     */
    private static final class Bits {
        private long seed;
        private long word;
        private int left = 7;

        Bits(long h2) {
            this.seed = h2;
            this.word = h2;
        }

        /** The next position in [0, 512). */
        int next() {
            if (left == 0) {
                seed = mix(seed + C);
                word = seed;
                left = 7;
            }
            int bit = (int) (word >>> 55);
            word <<= 9;
            left--;
            return bit;
        }

        /** MurmurHash3's 64-bit finalizer: every input bit flips each output bit with probability about 1/2. */
        private static long mix(long x) {
            x ^= x >>> 33;
            x *= 0xff51afd7ed558ccdL;
            x ^= x >>> 33;
            x *= 0xc4ceb9fe1a85ec53L;
            return x ^ (x >>> 33);
        }
    }

    private long block(long h1) {
        return DoubleHashing.reduce(h1, blocks);
    }

    private long[] page(long block) {
        return pages[(int) (block >>> blockShift)];
    }

    private int offset(long block) {
        return PAD + (int) (block & blockMask) * WORDS_PER_BLOCK;
    }

    /** m, the number of bits. */
    long bitSize() {
        return plan.bits();
    }

    /** k, the number of bit positions per URL. */
    int hashCount() {
        return k;
    }

    @Override
    public SieveLayout layout() {
        return SieveLayout.BLOCKED;
    }

    @Override
    public BlockedPlan plan() {
        return plan;
    }

    /** X, the exact number of bits set. */
    @Override
    public long setBitCount() {
        return setBits.sum();
    }

    /** Bytes held by the blocks (the padding of each page left out). */
    @Override
    public long byteSize() {
        return plan.bytes();
    }

    /** n* = -b·ln(1 - X/m)/(1 - q), the estimated number of distinct URLs put; O(1). Infinite once every bit is set. */
    @Override
    double estimatedCardinality() {
        return cardinalityFromSetBits(setBits.sum(), blocks, k);
    }

    /** The false-positive rate now: the plan's rate at n*. */
    @Override
    double expectedFalsePositiveRate() {
        double cardinality = estimatedCardinality();
        return Double.isInfinite(cardinality) ? 1.0 : BlockedPlan.rate(cardinality, blocks, k);
    }

    static double cardinalityFromSetBits(long setBits, long blocks, int k) {
        double bits = (double) blocks * BlockedPlan.BLOCK_BITS;
        return -blocks * Math.log1p(-setBits / bits) / (1 - BlockedPlan.clearShare(k));
    }

    @Override
    long setBitsAtCardinality(double cardinality) {
        return setBitsAtCardinality(cardinality, blocks, k);
    }

    /** The number of set bits X at which the estimate n* first exceeds {@code cardinality}. */
    static long setBitsAtCardinality(double cardinality, long blocks, int k) {
        double bits = (double) blocks * BlockedPlan.BLOCK_BITS;
        return (long) Math.floor(-bits * Math.expm1(-(1 - BlockedPlan.clearShare(k)) * cardinality / blocks));
    }

    /** A copy of the filter as it is now: every put that completed before the call is in it. */
    @Override
    BlockedBloomFilter copy() {
        BlockedBloomFilter copy = new BlockedBloomFilter(plan, blockShift);
        long set = 0;
        for (int p = 0; p < pages.length; p++) {
            long[] from = pages[p];
            long[] to = copy.pages[p];
            for (int i = PAD; i < from.length; i++) {
                long word = (long) WORDS.getAcquire(from, i);
                to[i] = word;
                set += Long.bitCount(word);
            }
        }
        copy.setBits.add(set);
        return copy;
    }

    /**
     * Writes the filter in the filter format ({@link FilterLayer#writeTo}): the header says layout blocked, b and
     * k; then the b·8 words of the blocks in order (the pages' padding left out). Safe during concurrent puts: it
     * captures every put that completed before it began. The stream is not closed.
     */
    @Override
    public void writeTo(OutputStream out) throws IOException {
        FilterFormat.write(out, SieveLayout.BLOCKED, plan, blocks, blocks * WORDS_PER_BLOCK,
                index -> (long) WORDS.getAcquire(pageOfWord(index), wordOffset(index)));
    }

    /** The bit array and its count after a blocked header of n, p, b and k (see {@link FilterFormat}). */
    static BlockedBloomFilter readBits(DataInputStream data, long n, double p, long blocks, int k, long maxBytes)
            throws IOException {
        BlockedPlan plan;
        try {
            plan = new BlockedPlan(n, p, blocks, k);
        } catch (IllegalArgumentException e) {
            throw new CorruptFilterException("Bloom filter header is invalid: " + e.getMessage());
        }
        FilterFormat.requireRoom(blocks + " blocks of 512 bits", plan.bytes(), maxBytes);
        BlockedBloomFilter filter = create(plan);
        long setBits = FilterFormat.readWords(data, blocks * WORDS_PER_BLOCK,
                (index, word) -> filter.pageOfWord(index)[filter.wordOffset(index)] = word);
        filter.setBits.add(setBits);
        return filter;
    }

    /** The page holding word {@code index} of the blocks, counted without padding. */
    private long[] pageOfWord(long index) {
        return page(index / WORDS_PER_BLOCK);
    }

    private int wordOffset(long index) {
        return offset(index / WORDS_PER_BLOCK) + (int) (index % WORDS_PER_BLOCK);
    }

    /** Sum of {@link Long#bitCount} over all blocks: the set bits counted the slow way; for tests. */
    long popCount() {
        long count = 0;
        for (long[] page : pages) {
            for (int i = PAD; i < page.length; i++) {
                count += Long.bitCount((long) WORDS.getAcquire(page, i));
            }
        }
        return count;
    }

    /**
     * The false-positive rate of the filter as it is, by a scan: the mean over blocks of (X<sub>j</sub>/B)<sup>k</sup>,
     * X<sub>j</sub> the set bits of block j, the probability that k positions drawn in a random block all hit set
     * bits. For tests, which compare it with the formula and with a measured rate.
     */
    double scannedFalsePositiveRate() {
        double sum = 0;
        for (long[] page : pages) {
            for (int i = PAD; i < page.length; i += WORDS_PER_BLOCK) {
                int set = 0;
                for (int w = 0; w < WORDS_PER_BLOCK; w++) {
                    set += Long.bitCount((long) WORDS.getAcquire(page, i + w));
                }
                sum += Math.pow((double) set / BlockedPlan.BLOCK_BITS, k);
            }
        }
        return sum / blocks;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "BlockedBloomFilter[m=%d, blocks=%d, k=%d, n=%d, p=%s, X=%d, n*=%.0f]",
                plan.bits(), blocks, k, plan.expectedInsertions(), plan.falsePositiveRate(), setBits.sum(),
                estimatedCardinality());
    }
}
