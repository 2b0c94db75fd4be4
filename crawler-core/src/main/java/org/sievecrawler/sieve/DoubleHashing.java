package org.sievecrawler.sieve;

/**
 * The k bit positions of a URL, derived from its one 128-bit hash by enhanced double hashing
 * (Dillinger and Manolios 2004) in 64-bit arithmetic: x<sub>0</sub> = h1, y<sub>0</sub> = h2, and for
 * i = 0..k-1 the position is reduce(x<sub>i</sub>), then x<sub>i+1</sub> = x<sub>i</sub> + y<sub>i</sub>,
 * y<sub>i+1</sub> = y<sub>i</sub> + i·C, all modulo 2<sup>64</sup>, so
 * x<sub>i</sub> = h1 + i·h2 + C·(i³ - i)/6. The cubic term keeps the positions apart when h2 happens to be
 * small, which plain double hashing (h1 + i·h2) does not. Dillinger's scheme adds the bare i, which suits a
 * reduction modulo m; the reduction here reads the high bits, so the cubic term is scaled by the odd
 * constant C = ⌊2<sup>64</sup>/φ⌋ to reach them.
 *
 * <p>Range reduction to [0, m) takes the high 64 bits of the unsigned 128-bit product x·m (Lemire 2019,
 * "Fast Random Integer Generation in an Interval"): no division, full 64-bit input, so any m up to
 * 2<sup>63</sup> works, far beyond the 2<sup>37</sup> bits of a billion-URL crawl. Each position is hit by
 * either floor(2<sup>64</sup>/m) or that plus one values of x: a relative bias of at most m/2<sup>64</sup>
 * (below 10<sup>-8</sup> for m ≤ 2<sup>37</sup>), far under anything a false-positive rate can show.
 * Guava's old MURMUR128_MITZ_32 combined two 32-bit halves and took them modulo m, which left most of a
 * large filter unreachable; nothing here is 32-bit.
 *
 * <p>A cursor is confined to one thread; the static functions are pure.
 */
final class DoubleHashing {
    private static final long C = 0x9E3779B97F4A7C15L;

    private final long m;
    private long x;
    private long y;
    private long d;

    /**
     * A cursor over the positions of the URL hashed to (h1, h2) in a filter of m positions. Allocated per
     * call; small enough for the JIT to inline and scalar-replace, so it costs no heap allocation.
     */
    DoubleHashing(long h1, long h2, long m) {
        this.m = m;
        this.x = h1;
        this.y = h2;
    }

    /** The next position in [0, m). */
    long next() {
        long position = reduce(x, m);
        x += y;
        y += d;
        d += C;
        return position;
    }

    /** The position in [0, m) of 64-bit value {@code x}: high word of the unsigned product x·m, for m &gt; 0. */
    static long reduce(long x, long m) {
        // Unsigned multiply-high from the signed one (m is non-negative, so only x's sign needs fixing).
        return Math.multiplyHigh(x, m) + ((x >> 63) & m);
    }

    /** All k positions for (h1, h2) in [0, m), written to {@code out[0..k-1]}; for tests and tools. */
    static void positions(long h1, long h2, int k, long m, long[] out) {
        DoubleHashing positions = new DoubleHashing(h1, h2, m);
        for (int i = 0; i < k; i++) {
            out[i] = positions.next();
        }
    }
}
