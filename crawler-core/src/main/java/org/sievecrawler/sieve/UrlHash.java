package org.sievecrawler.sieve;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The 128-bit hash every filter indexes from: MurmurHash3 x64_128 (Austin Appleby, public domain) with seed 0
 * over the UTF-8 bytes of a URL, as published, so a persisted filter means the same on any JVM and platform
 * (it equals Guava's {@code Hashing.murmur3_128().hashString(url, UTF_8)}: {@link #h1()} is the first eight
 * bytes little-endian, {@link #h2()} the last eight). Unpaired surrogates encode as {@code '?'}, as
 * {@link String#getBytes} does.
 *
 * <p>Allocation-free: the chars are copied in bulk into a reused {@code char[]} ({@link String#getChars} is
 * an intrinsic), encoded by a reused UTF-8 {@link CharsetEncoder} into a reused {@code byte[]} (the JDK's
 * ASCII fast loop), and mixed eight bytes at a time. On the 2-core machine this was measured on, that is
 * about 30 ns for a 55-character URL, against 60-80 ns for encoding char by char in Java.
 *
 * <p>Not thread-safe: an instance is a per-thread scratch holder; use {@link #forCurrentThread()}. The one public
 * method, {@link #fingerprint}, is thread-safe: it hashes with the calling thread's holder.
 */
public final class UrlHash {
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final ThreadLocal<UrlHash> SCRATCH = ThreadLocal.withInitial(UrlHash::new);

    private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    private char[] chars;
    private byte[] bytes;
    private CharBuffer charBuffer;
    private ByteBuffer byteBuffer;
    private long h1;
    private long h2;

    UrlHash() {
        allocate(256);
    }

    /**
     * The first 64 bits ({@link #h1()}) of the hash of {@code url}, allocation-free: a URL's key where a set of
     * URLs is kept as numbers (the frontier's completed URLs). Two URLs share it with probability 2^-64.
     */
    public static long fingerprint(CharSequence url) {
        return SCRATCH.get().hash(url).h1;
    }

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
        if (chars.length < length) {
            allocate(Math.max(length, chars.length * 2));
        }
        if (s instanceof String) {
            ((String) s).getChars(0, length, chars, 0);
        } else if (s instanceof StringBuilder) {
            ((StringBuilder) s).getChars(0, length, chars, 0);
        } else {
            for (int i = 0; i < length; i++) {
                chars[i] = s.charAt(i);
            }
        }
        charBuffer.clear().limit(length);
        byteBuffer.clear();
        utf8.reset();
        CoderResult result = utf8.encode(charBuffer, byteBuffer, true);
        if (!result.isUnderflow()) {
            // Cannot happen: there are 3 bytes of room per char, and malformed input is replaced.
            throw new IllegalStateException("UTF-8 encoding of a " + length + "-char URL failed: " + result);
        }
        utf8.flush(byteBuffer);
        murmur3(bytes, byteBuffer.position());
        return this;
    }

    private void allocate(int capacity) {
        chars = new char[capacity];
        bytes = new byte[capacity * 3]; // UTF-8 needs at most 3 bytes per UTF-16 char
        charBuffer = CharBuffer.wrap(chars);
        byteBuffer = ByteBuffer.wrap(bytes);
    }

    private void murmur3(byte[] data, int length) {
        long x1 = 0;
        long x2 = 0;
        int i = 0;
        for (; i + 16 <= length; i += 16) {
            x1 ^= mixK1((long) LONG_LE.get(data, i));
            x1 = Long.rotateLeft(x1, 27);
            x1 += x2;
            x1 = x1 * 5 + 0x52dce729;
            x2 ^= mixK2((long) LONG_LE.get(data, i + 8));
            x2 = Long.rotateLeft(x2, 31);
            x2 += x1;
            x2 = x2 * 5 + 0x38495ab5;
        }
        int rest = length - i;
        if (rest > 0) {
            long k1 = 0;
            long k2 = 0;
            for (int j = rest - 1; j >= 8; j--) {
                k2 = (k2 << 8) | (data[i + j] & 0xFFL);
            }
            for (int j = Math.min(rest, 8) - 1; j >= 0; j--) {
                k1 = (k1 << 8) | (data[i + j] & 0xFFL);
            }
            if (rest > 8) {
                x2 ^= mixK2(k2);
            }
            x1 ^= mixK1(k1);
        }
        x1 ^= length;
        x2 ^= length;
        x1 += x2;
        x2 += x1;
        x1 = fmix64(x1);
        x2 = fmix64(x2);
        x1 += x2;
        x2 += x1;
        h1 = x1;
        h2 = x2;
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
