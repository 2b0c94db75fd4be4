package org.sievecrawler.bench;

import com.google.common.hash.Funnels;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.sievecrawler.sieve.BloomFilter;

/** The filters compared by the benchmarks, behind one small interface. */
final class UrlFilters {
    private UrlFilters() {
    }

    interface UrlFilter {
        boolean put(String url);

        boolean mightContain(String url);

        /** Bytes of the bit array. */
        long bytes();
    }

    /** "sieve" (this crawler's {@link BloomFilter}) or "guava" (Guava's, with a UTF-8 string funnel). */
    static UrlFilter create(String impl, long expectedInsertions, double falsePositiveRate) {
        switch (impl) {
            case "sieve":
                return of(BloomFilter.create(expectedInsertions, falsePositiveRate));
            case "guava":
                com.google.common.hash.BloomFilter<CharSequence> guava = com.google.common.hash.BloomFilter.create(
                        Funnels.stringFunnel(StandardCharsets.UTF_8), expectedInsertions, falsePositiveRate);
                return new UrlFilter() {
                    @Override
                    public boolean put(String url) {
                        return guava.put(url);
                    }

                    @Override
                    public boolean mightContain(String url) {
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
                throw new IllegalArgumentException("impl must be sieve or guava, was " + impl);
        }
    }

    /** This crawler's {@code filter} behind the interface. */
    static UrlFilter of(BloomFilter filter) {
        return new UrlFilter() {
            @Override
            public boolean put(String url) {
                return filter.put(url);
            }

            @Override
            public boolean mightContain(String url) {
                return filter.mightContain(url);
            }

            @Override
            public long bytes() {
                return filter.byteSize();
            }
        };
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
