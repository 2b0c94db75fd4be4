package org.sievecrawler.bench;

import com.google.common.hash.Funnels;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.fastfilter.bloom.BlockedBloom;
import org.sievecrawler.sieve.BlockedBloomFilter;
import org.sievecrawler.sieve.BlockedPlan;
import org.sievecrawler.sieve.BloomFilter;
import org.sievecrawler.sieve.UrlHash;

/** The filters compared by the benchmarks, behind one small interface. */
final class UrlFilters {
    private UrlFilters() {
    }

    interface UrlFilter {
        boolean put(CharSequence url);

        boolean mightContain(CharSequence url);

        /** Bytes of the bit array. */
        long bytes();
    }

    /**
     * "sieve" (this crawler's {@link BloomFilter}), "blocked" (its {@link BlockedBloomFilter}), "guava" (Guava's,
     * with a UTF-8 string funnel) or "fastfilter" (fastfilter_java's {@code BlockedBloom}: 64-bit keys, here the
     * first half of the URL's MurmurHash3 ({@link UrlHash#fingerprint}), at the bits per URL of this crawler's
     * blocked plan rounded up; it neither sizes itself for a rate nor says whether a put was new, so its put
     * returns true).
     */
    static UrlFilter create(String impl, long expectedInsertions, double falsePositiveRate) {
        switch (impl) {
            case "sieve":
                return of(BloomFilter.create(expectedInsertions, falsePositiveRate));
            case "blocked":
                return of(BlockedBloomFilter.create(expectedInsertions, falsePositiveRate));
            case "fastfilter":
                return fastfilter(expectedInsertions, falsePositiveRate);
            case "guava":
                com.google.common.hash.BloomFilter<CharSequence> guava = com.google.common.hash.BloomFilter.create(
                        Funnels.stringFunnel(StandardCharsets.UTF_8), expectedInsertions, falsePositiveRate);
                return new UrlFilter() {
                    @Override
                    public boolean put(CharSequence url) {
                        return guava.put(url);
                    }

                    @Override
                    public boolean mightContain(CharSequence url) {
                        return guava.mightContain(url);
                    }

                    @Override
                    public long bytes() {
                        // Guava does not expose its size: its serialized form is 6 header bytes and the words.
                        CountingStream counter = new CountingStream();
                        try {
                            guava.writeTo(counter);
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                        return counter.count - 6;
                    }
                };
            default:
                throw new IllegalArgumentException("impl must be sieve, blocked, guava or fastfilter, was " + impl);
        }
    }

    /** This crawler's {@code filter} behind the interface. */
    static UrlFilter of(BloomFilter filter) {
        return of(filter::put, filter::mightContain, filter::byteSize);
    }

    /** This crawler's blocked {@code filter} behind the interface. */
    static UrlFilter of(BlockedBloomFilter filter) {
        return of(filter::put, filter::mightContain, filter::byteSize);
    }

    private static UrlFilter of(Predicate<CharSequence> put, Predicate<CharSequence> mightContain,
            LongSupplier bytes) {
        return new UrlFilter() {
            @Override
            public boolean put(CharSequence url) {
                return put.test(url);
            }

            @Override
            public boolean mightContain(CharSequence url) {
                return mightContain.test(url);
            }

            @Override
            public long bytes() {
                return bytes.getAsLong();
            }
        };
    }

    private static UrlFilter fastfilter(long expectedInsertions, double falsePositiveRate) {
        int bitsPerKey = (int) Math.ceil(BlockedPlan.of(expectedInsertions, falsePositiveRate).bitsPerUrl());
        BlockedBloom filter;
        try {
            // Its public factory takes every key up front; the sizing constructor is package-private.
            Constructor<BlockedBloom> sized = BlockedBloom.class.getDeclaredConstructor(int.class, int.class);
            sized.setAccessible(true);
            filter = sized.newInstance(Math.toIntExact(expectedInsertions), bitsPerKey);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("fastfilter's BlockedBloom(int, int) constructor is not usable: " + e, e);
        }
        return of(url -> {
            filter.add(UrlHash.fingerprint(url));
            return true;
        }, url -> filter.mayContain(UrlHash.fingerprint(url)), () -> filter.getBitCount() / 8);
    }

    /** The share of {@code absent} URLs the filter claims to contain. */
    static double measuredFalsePositiveRate(UrlFilter filter, String[] absent) {
        long hits = 0;
        for (String url : absent) {
            if (filter.mightContain(url)) {
                hits++;
            }
        }
        return (double) hits / absent.length;
    }

    private static final class CountingStream extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}
