package org.sievecrawler.sieve;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class UrlHashTest {

    @Test
    void matchesPublishedMurmur3VectorsOfTheUtf8Bytes() throws IOException {
        List<String[]> vectors = readVectors();
        assertThat(vectors).hasSizeGreaterThan(70);
        UrlHash hash = new UrlHash();
        for (String[] v : vectors) {
            String input = unescape(v[0]);
            hash.hash(input);
            assertThat(String.format("%016x %016x", hash.h1(), hash.h2()))
                    .as("hash of \"%s\"", v[0])
                    .isEqualTo(v[1] + " " + v[2]);
        }
    }

    @Test
    void streamingEncoderAgreesWithAReferenceOverUtf8BytesOnRandomText() {
        SplittableRandom random = new SplittableRandom(42);
        UrlHash hash = new UrlHash();
        for (int trial = 0; trial < 20_000; trial++) {
            String s = randomText(random);
            long[] expected = referenceMurmur3(s.getBytes(StandardCharsets.UTF_8));
            hash.hash(s);
            assertThat(new long[] {hash.h1(), hash.h2()}).as("hash of %s", s).containsExactly(expected);
        }
    }

    @Test
    void anyCharSequenceHashesLikeTheEqualString() {
        UrlHash hash = new UrlHash();
        String url = "https://example.org/wiki/Caf\u00e9/\ud83d\ude00?q=1&r=2#frag";
        hash.hash(url);
        long h1 = hash.h1();
        long h2 = hash.h2();
        hash.hash(new StringBuilder(url));
        assertThat(hash.h1()).isEqualTo(h1);
        assertThat(hash.h2()).isEqualTo(h2);
    }

    @Test
    void fingerprintIsTheFirstHalfOfThePublishedHash() throws IOException {
        UrlHash hash = new UrlHash();
        for (String[] v : readVectors()) {
            String input = unescape(v[0]);
            assertThat(UrlHash.fingerprint(input)).as("fingerprint of \"%s\"", v[0]).isEqualTo(hash.hash(input).h1());
        }
    }

    private static String randomText(SplittableRandom random) {
        int length = random.nextInt(0, 80);
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            int kind = random.nextInt(100);
            if (kind < 85) {
                sb.append((char) random.nextInt(0x20, 0x7F));
            } else if (kind < 90) {
                sb.append((char) random.nextInt(0x80, 0x800));
            } else if (kind < 95) {
                sb.append((char) random.nextInt(0x800, 0xD800));
            } else if (kind < 98) {
                sb.appendCodePoint(random.nextInt(0x10000, 0x110000));
            } else {
                sb.append((char) random.nextInt(0xD800, 0xE000)); // an unpaired surrogate
            }
        }
        return sb.toString();
    }

    /** Murmur3 x64_128, seed 0, straight from the published algorithm, over a byte array. */
    static long[] referenceMurmur3(byte[] data) {
        final long c1 = 0x87c37b91114253d5L;
        final long c2 = 0x4cf5ad432745937fL;
        long h1 = 0;
        long h2 = 0;
        ByteBuffer buffer = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int blocks = data.length / 16;
        for (int i = 0; i < blocks; i++) {
            long k1 = buffer.getLong(i * 16);
            long k2 = buffer.getLong(i * 16 + 8);
            k1 *= c1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= c2;
            h1 ^= k1;
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            k2 *= c2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= c1;
            h2 ^= k2;
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        long k1 = 0;
        long k2 = 0;
        int tail = blocks * 16;
        for (int i = data.length - 1; i >= tail; i--) {
            int offset = i - tail;
            if (offset >= 8) {
                k2 ^= (data[i] & 0xFFL) << ((offset - 8) * 8);
            } else {
                k1 ^= (data[i] & 0xFFL) << (offset * 8);
            }
        }
        if (data.length - tail > 8) {
            k2 *= c2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= c1;
            h2 ^= k2;
        }
        if (data.length - tail > 0) {
            k1 *= c1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= c2;
            h1 ^= k1;
        }
        h1 ^= data.length;
        h2 ^= data.length;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 += h2;
        h2 += h1;
        return new long[] {h1, h2};
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    private static List<String[]> readVectors() throws IOException {
        List<String[]> vectors = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(
                UrlHashTest.class.getResourceAsStream("/sieve/murmur3-vectors.tsv"), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.startsWith("#")) {
                    vectors.add(line.split("\t", -1));
                }
            }
        }
        return vectors;
    }

    private static String unescape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            if (s.startsWith("\\u", i)) {
                sb.append((char) Integer.parseInt(s.substring(i + 2, i + 6), 16));
                i += 5;
            } else {
                sb.append(s.charAt(i));
            }
        }
        return sb.toString();
    }
}
