package org.sievecrawler.sieve;

/**
 * The 128-bit hash every filter indexes from: MurmurHash3 x64_128 (Austin Appleby, public domain) with seed 0
 * over the UTF-8 bytes of a URL, as published, so a persisted filter means the same on any JVM and platform
 * (it equals Guava's {@code Hashing.murmur3_128().hashString(url, UTF_8)}: {@link #h1()} is the first eight
 * bytes little-endian, {@link #h2()} the last eight).
 *
 * <p>The UTF-8 bytes are produced on the fly from the chars, 16 ASCII chars per block on the fast path,
 * so hashing allocates nothing. Unpaired surrogates encode as {@code '?'}, as {@link String#getBytes} does.
 *
 * <p>Not thread-safe: an instance is a per-thread scratch holder; use {@link #forCurrentThread()}.
 */
final class UrlHash {
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;
    private static final ThreadLocal<UrlHash> SCRATCH = ThreadLocal.withInitial(UrlHash::new);

    private long h1;
    private long h2;
    // Streaming state for the byte-at-a-time path (tails and non-ASCII text).
    private long k1;
    private long k2;
    private int buffered;

    static UrlHash forCurrentThread() {
        return SCRATCH.get();
    }

    long h1() {
        return h1;
    }

    long h2() {
        return h2;
    }

    /** Hashes {@code s}; the result is in {@link #h1()} and {@link #h2()} until the next call. */
    UrlHash hash(CharSequence s) {
        int length = s.length();
        h1 = 0;
        h2 = 0;
        k1 = 0;
        k2 = 0;
        buffered = 0;
        int i = 0;
        // Fast path: whole 16-byte blocks of ASCII.
        while (i + 16 <= length) {
            long a = 0;
            long b = 0;
            int or = 0;
            for (int j = 0; j < 8; j++) {
                char c = s.charAt(i + j);
                or |= c;
                a |= (long) c << (j << 3);
            }
            for (int j = 0; j < 8; j++) {
                char c = s.charAt(i + 8 + j);
                or |= c;
                b |= (long) c << (j << 3);
            }
            if (or >= 0x80) {
                break;
            }
            mixBlock(a, b);
            i += 16;
        }
        long byteLength = i;
        // Slow path: encode the rest char by char into the block buffer.
        while (i < length) {
            char c = s.charAt(i++);
            if (c < 0x80) {
                push(c);
                byteLength += 1;
            } else if (c < 0x800) {
                push(0xC0 | (c >>> 6));
                push(0x80 | (c & 0x3F));
                byteLength += 2;
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i < length && Character.isLowSurrogate(s.charAt(i))) {
                    int cp = Character.toCodePoint(c, s.charAt(i++));
                    push(0xF0 | (cp >>> 18));
                    push(0x80 | ((cp >>> 12) & 0x3F));
                    push(0x80 | ((cp >>> 6) & 0x3F));
                    push(0x80 | (cp & 0x3F));
                    byteLength += 4;
                } else {
                    push('?');
                    byteLength += 1;
                }
            } else {
                push(0xE0 | (c >>> 12));
                push(0x80 | ((c >>> 6) & 0x3F));
                push(0x80 | (c & 0x3F));
                byteLength += 3;
            }
        }
        finish(byteLength);
        return this;
    }

    private void push(int octet) {
        long v = octet & 0xFFL;
        if (buffered < 8) {
            k1 |= v << (buffered << 3);
        } else {
            k2 |= v << ((buffered - 8) << 3);
        }
        if (++buffered == 16) {
            mixBlock(k1, k2);
            k1 = 0;
            k2 = 0;
            buffered = 0;
        }
    }

    private void mixBlock(long a, long b) {
        h1 ^= mixK1(a);
        h1 = Long.rotateLeft(h1, 27);
        h1 += h2;
        h1 = h1 * 5 + 0x52dce729;
        h2 ^= mixK2(b);
        h2 = Long.rotateLeft(h2, 31);
        h2 += h1;
        h2 = h2 * 5 + 0x38495ab5;
    }

    private void finish(long byteLength) {
        if (buffered > 8) {
            h2 ^= mixK2(k2);
        }
        if (buffered > 0) {
            h1 ^= mixK1(k1);
        }
        h1 ^= byteLength;
        h2 ^= byteLength;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
    }

    private static long mixK1(long k) {
        k *= C1;
        k = Long.rotateLeft(k, 31);
        return k * C2;
    }

    private static long mixK2(long k) {
        k *= C2;
        k = Long.rotateLeft(k, 33);
        return k * C1;
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
