package org.sievecrawler.sieve;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * A lock-free Bloom filter of URLs: a set that answers "seen before?" in about 1.2 bytes per URL at a 1 %
 * false-positive rate, with no false negatives.
 *
 * <h2>Math</h2>
 * For n expected URLs and a target false-positive rate p the filter has
 * m = ⌈-n·ln p / (ln 2)²⌉ bits and sets k = max(1, round((m/n)·ln 2)) of them per URL
 * (see {@link SievePlan}). The k positions come from one 128-bit hash per URL ({@link UrlHash}, MurmurHash3
 * x64_128 of its UTF-8 bytes) by enhanced double hashing with 64-bit arithmetic and division-free range
 * reduction ({@link DoubleHashing}). After x distinct URLs the false-positive rate is
 * (1 - e<sup>-kx/m</sup>)<sup>k</sup>: p at n, but about 16 % at 2n for a 1 % filter, and 68 % at 4n.
 *
 * <p>The filter keeps an exact count X of its set bits (each bit is set by exactly one atomic write, a
 * successful compare-and-set or an OR that found it clear, which counts it), so two estimates cost O(1) rather
 * than a scan of the array:
 * <ul>
 *   <li>{@link #estimatedCardinality()}: n* = -(m/k)·ln(1 - X/m), the number of distinct URLs put
 *       (Swamidass and Baldi 2007); its relative error is well under 1 % at n.</li>
 *   <li>{@link #expectedFalsePositiveRate()}: (X/m)<sup>k</sup>, the false-positive rate now.</li>
 * </ul>
 *
 * <h2>What a false positive costs</h2>
 * The Sieve drops any URL the filter claims to have seen, so a false positive is a URL silently never
 * fetched (and, transitively, whatever only it links to). At p = 1 % one new URL in a hundred is lost; the
 * crawler warns when the estimate n* passes n because the loss then grows quickly.
 *
 * <h2>Memory and limits</h2>
 * The bit array is ⌈m/64⌉ longs, in pages of 128 MiB so m may exceed Java's array limit; up to
 * {@link SievePlan#MAX_BITS} = 2<sup>40</sup> bits. A billion URLs at p = 10<sup>-4</sup> take 2.4 GB.
 *
 * <h2>Batches</h2>
 * In a filter larger than the core's share of the caches each of a new URL's k words is a cache miss (and a TLB
 * miss: 4-KiB pages). {@link #put} issues its k loads together, then compare-and-sets the clear bits; a locked
 * instruction lets no later load start, so consecutive puts cannot overlap their misses and a put costs about
 * one memory round trip plus its locked instructions, as Guava's does. {@link #putAll} takes b URLs at once (a
 * page's links): it hashes them, writes their b·k positions to a scratch array, loads all b·k words in one loop
 * without early exit or data-dependent branch ({@link LongPages#clearBits}), so the misses of different URLs
 * are in flight together, and only then sets, by one atomic OR per position, the bits of the URLs that had one
 * clear, on lines now in cache. At n = 10 M, p = 10<sup>-4</sup> (k = 13) and b ≥ 64 a new URL then costs about
 * <pre>
 *   hashing + k·t<sub>load</sub> + k·t<sub>or</sub> ≈ 90 + 13·5 + 13·6 ≈ 235 ns
 * </pre>
 * on the machine of crawler-bench/README.md, where t<sub>load</sub> is the rate at which one core retires
 * independent random loads from a 24 MB array (5-7 ns whether a lone miss takes 40 or 130 ns), t<sub>or</sub>
 * a locked OR on a line in L1 or L2, and hashing the URL (50 ns alone, ~90 between lookups). From precomputed
 * hashes a batch costs ~150 ns a URL. The batch's outcome, and the filter after it, are those of b puts in
 * list order, so the false-positive rate is the one above. Measured and left out: sorting the positions by
 * page (sorting costs ~35 ns a position); 2-MiB pages ({@code -XX:+UseTransparentHugePages}: 5-10 % faster, a
 * JVM flag); hashing each URL in the loop of its loads (slower); cutting a batch into chunks whose lines stay
 * in L1, and ORing only the bits seen clear (both within noise); a compare-and-set only where a bit is seen
 * clear (~15 % slower: that branch is mispredicted for one bit in four during a fill); plain stores, as under
 * a single writer lock (~10 % faster, not worth serializing every writer).
 *
 * <h2>Threads</h2>
 * Safe for any number of threads, lock-free: {@link #put} reads its k words, and compare-and-sets only the
 * bits still clear; {@link #putAll} reads with plain loads (a word seen stale only sends its URL on to the
 * writes) and sets bits by atomic OR. Two threads that put the same new URL at the same instant may both get
 * {@code true} (each changed the filter); callers that need exactly-once admission, like {@link Sieve},
 * serialize new URLs by hash stripe. {@link #writeTo} may run during puts: it then captures every put that
 * completed before it began.
 *
 * <h2>References</h2>
 * B. H. Bloom, "Space/time trade-offs in hash coding with allowable errors", CACM 13(7), 1970.
 * A. Kirsch and M. Mitzenmacher, "Less hashing, same performance: building a better Bloom filter", 2006.
 * P. C. Dillinger and P. Manolios, "Bloom filters in probabilistic verification", FMCAD 2004.
 * S. J. Swamidass and P. Baldi, "Mathematical correction for fingerprint similarity measures", 2007.
 */
public final class BloomFilter extends FilterLayer {
    private final SievePlan plan;
    private final long bits;
    private final int k;
    private final LongPages words;
    private final LongAdder setBits = new LongAdder();

    private BloomFilter(SievePlan plan, LongPages words) {
        this.plan = plan;
        this.bits = plan.bits();
        this.k = plan.hashCount();
        this.words = words;
    }

    /**
     * A filter for {@code expectedInsertions} URLs at {@code falsePositiveRate}.
     *
     * @throws IllegalArgumentException naming the argument and value when n &lt; 1 or p is not in (0, 1)
     */
    public static BloomFilter create(long expectedInsertions, double falsePositiveRate) {
        return create(SievePlan.of(expectedInsertions, falsePositiveRate));
    }

    static BloomFilter create(SievePlan plan) {
        return new BloomFilter(plan, new LongPages((plan.bits() + 63) >>> 6));
    }

    /** For tests: a filter whose storage pages are 2^pageShift words, to cross page boundaries cheaply. */
    static BloomFilter create(SievePlan plan, int pageShift) {
        return new BloomFilter(plan, new LongPages((plan.bits() + 63) >>> 6, pageShift));
    }

    /**
     * Adds every URL of {@code urls}, with the outcome of as many calls of {@link #put(CharSequence)} in list
     * order, but faster for a filter larger than the caches: the words of all the URLs are read before any bit
     * is written, so their cache misses overlap (see the class notes, "Batches"). For the links of a page.
     *
     * @return how many of the URLs changed the filter: as many as single puts would have returned true for
     */
    public int putAll(List<? extends CharSequence> urls) {
        HashBatch batch = HashBatch.forCurrentThread();
        for (int i = 0, size = urls.size(); i < size; i++) {
            batch.add(urls.get(i));
        }
        return putAll(batch);
    }

    /**
     * Adds the open URLs of {@code batch} in batch order and leaves open exactly those that changed the filter,
     * the URLs single puts would have returned true for: a URL whose bits an earlier URL of the batch set (a
     * duplicate, or a false positive by then) finds them set when it writes, as a later single put would.
     *
     * @return the number of URLs that changed the filter
     */
    int putAll(HashBatch batch) {
        if (batch.select() == 0) {
            return 0;
        }
        lookUp(batch);
        long[] positions = batch.positions();
        int added = 0;
        long flipped = 0;
        for (int j = 0, count = batch.selectedCount(); j < count; j++) {
            int set = batch.missing(j) == 0 ? 0 : setBits(positions, j * k);
            if (set == 0) {
                batch.close(batch.selected(j));
            } else {
                added++;
                flipped += set;
            }
        }
        setBits.add(flipped);
        return added;
    }

    /**
     * Looks up every selected URL of {@code batch} without writing: first the k positions of each into the
     * batch's position array (sequential stores), then one loop that loads the word of every position of every
     * URL ({@link LongPages#clearBits}) and leaves each URL's clear bits in its {@code missing} mask. Plain
     * loads: a URL found with every bit set was put (or is a false positive); one found with a bit clear may
     * have been put since, which the atomic writes of {@link #putAll(HashBatch)} and {@link #putSelected} find.
     */
    @Override
    void lookUp(HashBatch batch) {
        int count = batch.selectedCount();
        long[] positions = batch.positionsFor(k);
        for (int j = 0, p = 0; j < count; j++) {
            int url = batch.selected(j);
            DoubleHashing cursor = new DoubleHashing(batch.h1(url), batch.h2(url), bits);
            for (int i = 0; i < k; i++) {
                positions[p++] = cursor.next();
            }
        }
        words.clearBits(positions, count, k, batch.missing());
    }

    /**
     * Sets the bits of the j-th URL selected by the last {@link #lookUp} of {@code batch}, whose words that
     * lookup brought into cache.
     *
     * @return true iff this call changed the filter, as {@link #put(long, long)} returns
     */
    @Override
    boolean putSelected(HashBatch batch, int j) {
        int flipped = setBits(batch.positions(), j * k);
        if (flipped == 0) {
            return false;
        }
        setBits.add(flipped);
        return true;
    }

    /**
     * Sets the k bits at {@code positions[from..from+k-1]} by atomic OR, whether or not they look set already:
     * a branch on that would be mispredicted for about one bit in four during a fill, which costs more than the
     * locked instruction it saves (measured: 300 against 350 ns per URL at n = 10 M, p = 1e-4).
     *
     * @return the number of bits this call set (each bit is counted by the one OR that found it clear)
     */
    private int setBits(long[] positions, int from) {
        int flipped = 0;
        for (int i = from, end = from + k; i < end; i++) {
            long position = positions[i];
            long before = words.getAndBitwiseOr(position >>> 6, 1L << position);
            flipped += (int) (~before >>> position) & 1;
        }
        return flipped;
    }


    @Override
    boolean put(long h1, long h2) {
        // First pass: read-only and without early exit, so all k (likely cache-missing) loads overlap and the
        // compare-and-sets below find their lines in cache; a lock-prefixed instruction would wait for each
        // miss in turn. A URL already seen (most of what a crawler offers) ends here without a write.
        if (allSet(h1, h2)) {
            return false;
        }
        DoubleHashing positions = new DoubleHashing(h1, h2, bits);
        int flipped = 0;
        for (int i = 0; i < k; i++) {
            flipped += setBit(positions.next());
        }
        if (flipped == 0) {
            return false; // another thread set every bit between our read and our writes
        }
        setBits.add(flipped);
        return true;
    }

    /** Whether all k bits are set, reading every one (no early exit), so their cache misses overlap. */
    private boolean allSet(long h1, long h2) {
        DoubleHashing positions = new DoubleHashing(h1, h2, bits);
        long missing = 0;
        for (int i = 0; i < k; i++) {
            long position = positions.next();
            missing |= ~words.getAcquire(position >>> 6) & (1L << position);
        }
        return missing == 0;
    }

    /** Atomically sets the bit at {@code position}; 1 if this call set it, 0 if it was already set. */
    private int setBit(long position) {
        long index = position >>> 6;
        long mask = 1L << position;
        long word = words.getAcquire(index);
        while ((word & mask) == 0) {
            if (words.compareAndSet(index, word, word | mask)) {
                return 1;
            }
            word = words.getAcquire(index);
        }
        return 0;
    }

    @Override
    boolean mightContain(long h1, long h2) {
        DoubleHashing positions = new DoubleHashing(h1, h2, bits);
        for (int i = 0; i < k; i++) {
            long position = positions.next();
            // Early exit: the CPU predicts "set" and issues the later loads speculatively, so a URL that was
            // seen waits for its k cache misses together, and a new one returns at its first clear bit.
            if ((words.getAcquire(position >>> 6) & (1L << position)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** m, the number of bits. */
    long bitSize() {
        return bits;
    }

    /** k, the number of bit positions per URL. */
    int hashCount() {
        return k;
    }

    @Override
    public SieveLayout layout() {
        return SieveLayout.CLASSIC;
    }

    @Override
    public SievePlan plan() {
        return plan;
    }

    /** X, the exact number of bits set. */
    @Override
    public long setBitCount() {
        return setBits.sum();
    }

    /** Bytes held by the bit array. */
    @Override
    public long byteSize() {
        return words.length() * Long.BYTES;
    }

    /**
     * n* = -(m/k)·ln(1 - X/m), the estimated number of distinct URLs put; O(1).
     * Infinite once every bit is set.
     */
    @Override
    double estimatedCardinality() {
        return cardinalityFromSetBits(setBits.sum(), bits, k);
    }

    /** (X/m)^k, the probability that a URL never put is reported present, now. */
    @Override
    double expectedFalsePositiveRate() {
        return Math.pow((double) setBits.sum() / bits, k);
    }

    static double cardinalityFromSetBits(long setBits, long bits, int k) {
        return -((double) bits / k) * Math.log1p(-(double) setBits / bits);
    }

    @Override
    long setBitsAtCardinality(double cardinality) {
        return setBitsAtCardinality(cardinality, bits, k);
    }

    /** The number of set bits X at which the estimate n* first exceeds {@code cardinality}. */
    static long setBitsAtCardinality(double cardinality, long bits, int k) {
        return (long) Math.floor(-bits * Math.expm1(-k * cardinality / bits));
    }

    /**
     * A copy of the filter as it is now: every put that completed before the call is in it. For a checkpoint,
     * which copies under its lock and writes the copy after.
     */
    @Override
    BloomFilter copy() {
        BloomFilter copy = create(plan);
        long length = words.length();
        long set = 0;
        for (long i = 0; i < length; i++) {
            long word = words.getAcquire(i);
            copy.words.setPlain(i, word);
            set += Long.bitCount(word);
        }
        copy.setBits.add(set);
        return copy;
    }

    /**
     * Writes the filter in the filter format ({@link FilterLayer#writeTo}): the header says layout classic, m and k.
     * Safe during concurrent puts (see the class notes). The stream is not closed.
     */
    @Override
    public void writeTo(OutputStream out) throws IOException {
        FilterFormat.write(out, SieveLayout.CLASSIC, plan, bits, words.length(), words::getAcquire);
    }

    /**
     * Reads a classic filter written by {@link #writeTo} (or by a build before the blocked layout). The count of set
     * bits is recomputed from the array.
     *
     * @throws CorruptFilterException as {@link FilterLayer#read}, or if the stream holds a filter of another layout
     */
    public static BloomFilter readFrom(InputStream in) throws IOException {
        return readFrom(in, Long.MAX_VALUE);
    }

    /**
     * {@link #readFrom(InputStream)} from a stream of at most {@code maxBytes} (a file's length): a header whose bit
     * array would be longer is refused before the array is allocated, so a header that lies costs no memory.
     */
    public static BloomFilter readFrom(InputStream in, long maxBytes) throws IOException {
        FilterLayer layer = FilterLayer.read(in, maxBytes);
        if (layer instanceof BloomFilter classic) {
            return classic;
        }
        throw new CorruptFilterException("the stream holds a Bloom filter of the " + layer.layout().key()
                + " layout, not a classic one");
    }

    /** The bit array and its count after a classic header of n, p, m and k (see {@link FilterFormat}). */
    static BloomFilter readBits(DataInputStream data, long n, double p, long m, int k, long maxBytes)
            throws IOException {
        SievePlan plan;
        try {
            plan = new SievePlan(n, p, m, k);
        } catch (IllegalArgumentException e) {
            throw new CorruptFilterException("Bloom filter header is invalid: " + e.getMessage());
        }
        long arrayBytes = (plan.bits() + 63) / 64 * Long.BYTES;
        FilterFormat.requireRoom(plan.bits() + " bits", arrayBytes, maxBytes);
        BloomFilter filter = create(plan);
        long length = filter.words.length();
        long setBits = FilterFormat.readWords(data, length, filter.words::setPlain);
        long lastWordBits = m & 63;
        if (lastWordBits != 0 && (filter.words.getAcquire(length - 1) >>> lastWordBits) != 0) {
            throw new CorruptFilterException("Bloom filter has bits set beyond its size of " + m + " bits");
        }
        filter.setBits.add(setBits);
        return filter;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "BloomFilter[m=%d, k=%d, n=%d, p=%s, X=%d, n*=%.0f]",
                bits, k, plan.expectedInsertions(), plan.falsePositiveRate(), setBits.sum(),
                estimatedCardinality());
    }
}
