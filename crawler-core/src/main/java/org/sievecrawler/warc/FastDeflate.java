package org.sievecrawler.warc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A deflate (RFC 1951) encoder built for speed over ratio, for WARC records: greedy LZ77 matching through a
 * one-entry hash table of 4-byte sequences, stepping further through runs without a match (as LZ4 and Snappy
 * do), coded in one block with the fixed Huffman
 * codes of RFC 1951 section 3.2.6, so no code tables are built or sent. Data it cannot shrink (a gzip-coded body,
 * an image) goes out in stored blocks instead, so the output is never more than a few bytes per 64 KiB larger
 * than the input.
 *
 * <p>Why not {@link java.util.zip.Deflater}: at its fastest level zlib compressed this project's benchmark pages at
 * ~110 MB/s on its 2-core machine, so archiving cost a crawl that is CPU-bound about a quarter of its pages/s.
 * This encoder runs at several times that speed for a somewhat larger output (see crawler-bench/README.md);
 * any inflater reads it, as the round-trip tests check with the JDK's.
 *
 * <p>Stateless: each call works on its own arrays; safe for any number of threads.
 */
final class FastDeflate {
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final int MAX_HASH_BITS = 14;
    /** After this many positions without a match in a row, the search steps further (as LZ4 does). */
    private static final int SKIP_TRIGGER = 6;
    private static final int MIN_MATCH = 4;
    private static final int MAX_MATCH = 258;
    private static final int WINDOW = 32 * 1024;
    private static final int MAX_STORED = 65_535;

    /** Per literal/length symbol 0..287: its fixed Huffman code, bit-reversed for LSB-first output. */
    private static final int[] LITERAL_CODE = new int[288];
    private static final int[] LITERAL_BITS = new int[288];
    /** Per match length 3..258: the length symbol's code with its extra bits above it, and the total bit count. */
    private static final int[] LENGTH_CODE = new int[MAX_MATCH + 1];
    private static final int[] LENGTH_BITS = new int[MAX_MATCH + 1];
    /** Per distance code 0..29: its 5-bit fixed code, bit-reversed. */
    private static final int[] DISTANCE_CODE = new int[30];

    static {
        for (int symbol = 0; symbol < 288; symbol++) {
            int code;
            int bits;
            if (symbol < 144) {
                code = 0x30 + symbol;
                bits = 8;
            } else if (symbol < 256) {
                code = 0x190 + symbol - 144;
                bits = 9;
            } else if (symbol < 280) {
                code = symbol - 256;
                bits = 7;
            } else {
                code = 0xc0 + symbol - 280;
                bits = 8;
            }
            LITERAL_CODE[symbol] = reverse(code, bits);
            LITERAL_BITS[symbol] = bits;
        }
        for (int length = 3; length <= MAX_MATCH; length++) {
            int x = length - 3;
            int symbol;
            int extraBits;
            if (length == MAX_MATCH) {
                symbol = 285;
                extraBits = 0;
            } else if (x < 8) {
                symbol = 257 + x;
                extraBits = 0;
            } else {
                int log = 31 - Integer.numberOfLeadingZeros(x);
                symbol = 257 + 4 * (log - 1) + ((x >>> (log - 2)) & 3);
                extraBits = log - 2;
            }
            int extra = extraBits == 0 ? 0 : x & ((1 << extraBits) - 1);
            LENGTH_CODE[length] = LITERAL_CODE[symbol] | extra << LITERAL_BITS[symbol];
            LENGTH_BITS[length] = LITERAL_BITS[symbol] + extraBits;
        }
        for (int code = 0; code < 30; code++) {
            DISTANCE_CODE[code] = reverse(code, 5);
        }
    }

    private FastDeflate() {
    }

    /**
     * An upper bound of the bytes {@link #deflate} writes for {@code length} input bytes: room for the Huffman
     * attempt (at most 9 bits a byte), which is replaced by stored blocks when it comes out larger than those.
     */
    static int maxOutput(int length) {
        return length + (length >>> 3) + 5 * (length / MAX_STORED + 1) + 16;
    }

    /**
     * Deflates {@code in[0, length)} as a complete raw deflate stream into {@code out} from {@code outOffset}.
     *
     * @param out at least {@code outOffset + maxOutput(length)} bytes long
     * @return the offset after the stream's last byte
     */
    static int deflate(byte[] in, int length, byte[] out, int outOffset) {
        Bits bits = new Bits(out, outOffset);
        bits.put(0b011, 3); // BFINAL = 1, BTYPE = 01 (fixed Huffman)
        // a table for the input's size: a small record (a request) need not clear 64 KiB
        int hashBits = Math.max(8, Math.min(MAX_HASH_BITS, 32 - Integer.numberOfLeadingZeros(length)));
        int shift = 32 - hashBits;
        int[] table = new int[1 << hashBits];
        int literalStart = 0;
        int misses = 0;
        int i = 0;
        int last = length - MIN_MATCH; // a match needs 4 bytes to compare
        while (i <= last) {
            int word = (int) INTS.get(in, i);
            int slot = (word * 0x9E3779B1) >>> shift;
            int candidate = table[slot] - 1; // stored + 1, so 0 means empty
            table[slot] = i + 1;
            if (candidate >= 0 && i - candidate <= WINDOW && (int) INTS.get(in, candidate) == word) {
                int matched = matchLength(in, candidate, i, Math.min(MAX_MATCH, length - i));
                literals(bits, in, literalStart, i);
                bits.put(LENGTH_CODE[matched], LENGTH_BITS[matched]);
                distance(bits, i - candidate);
                i += matched;
                literalStart = i;
                misses = 0;
                if (i - 1 <= last) {
                    int tail = (int) INTS.get(in, i - 1);
                    table[(tail * 0x9E3779B1) >>> shift] = i; // position i - 1, stored + 1
                }
            } else {
                i += 1 + (misses++ >>> SKIP_TRIGGER);
            }
        }
        literals(bits, in, literalStart, length);
        bits.put(LITERAL_CODE[256], LITERAL_BITS[256]); // end of block
        int end = bits.finish();
        if (end - outOffset > length + 5 * (length / MAX_STORED + 1)) {
            return stored(in, length, out, outOffset); // it grew: store instead
        }
        return end;
    }

    private static int matchLength(byte[] in, int from, int at, int max) {
        int n = MIN_MATCH;
        while (n + Long.BYTES <= max) {
            long diff = (long) LONGS.get(in, from + n) ^ (long) LONGS.get(in, at + n);
            if (diff != 0) {
                return n + (Long.numberOfTrailingZeros(diff) >>> 3);
            }
            n += Long.BYTES;
        }
        while (n < max && in[from + n] == in[at + n]) {
            n++;
        }
        return n;
    }

    private static void literals(Bits bits, byte[] in, int from, int to) {
        for (int i = from; i < to; i++) {
            int symbol = in[i] & 0xff;
            bits.put(LITERAL_CODE[symbol], LITERAL_BITS[symbol]);
        }
    }

    private static void distance(Bits bits, int distance) {
        int x = distance - 1;
        if (x < 4) {
            bits.put(DISTANCE_CODE[x], 5);
            return;
        }
        int log = 31 - Integer.numberOfLeadingZeros(x);
        int code = 2 * log + ((x >>> (log - 1)) & 1);
        int extraBits = log - 1;
        bits.put(DISTANCE_CODE[code] | (x & ((1 << extraBits) - 1)) << 5, 5 + extraBits);
    }

    /** The input in stored blocks of at most 65,535 bytes each. */
    private static int stored(byte[] in, int length, byte[] out, int outOffset) {
        int at = outOffset;
        int from = 0;
        do {
            int block = Math.min(MAX_STORED, length - from);
            out[at++] = (byte) (from + block == length ? 1 : 0); // BFINAL, BTYPE = 00, aligned
            out[at++] = (byte) block;
            out[at++] = (byte) (block >>> 8);
            out[at++] = (byte) ~block;
            out[at++] = (byte) (~block >>> 8);
            System.arraycopy(in, from, out, at, block);
            at += block;
            from += block;
        } while (from < length);
        return at;
    }

    private static int reverse(int code, int bits) {
        return Integer.reverse(code) >>> (32 - bits);
    }

    /** LSB-first bit output into a byte array, through a 64-bit accumulator. */
    private static final class Bits {
        private final byte[] out;
        private int at;
        private long buffer;
        private int count;

        Bits(byte[] out, int at) {
            this.out = out;
            this.at = at;
        }

        void put(int value, int bits) {
            buffer |= (long) value << count;
            count += bits;
            if (count >= 32) {
                out[at] = (byte) buffer;
                out[at + 1] = (byte) (buffer >>> 8);
                out[at + 2] = (byte) (buffer >>> 16);
                out[at + 3] = (byte) (buffer >>> 24);
                at += 4;
                buffer >>>= 32;
                count -= 32;
            }
        }

        int finish() {
            while (count > 0) {
                out[at++] = (byte) buffer;
                buffer >>>= 8;
                count -= 8;
            }
            return at;
        }
    }
}
