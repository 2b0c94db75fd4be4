package org.sievecrawler.warc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;

class FastDeflateTest {
    private static final String[] WORDS = {"<a href=\"/docs/", "page", ".html\">", "</a>", "<p>", "</p>\n", "crawler",
        "bloom filter", " ", "the ", "frontier", "<div class=\"nav\">", "robots.txt", "sieve", "\u00e9t\u00e9", "\n"};

    @Test
    void inflatesBackToTheInputOnTextRandomBytesAndEdgeCases() throws DataFormatException {
        SplittableRandom random = new SplittableRandom(3);
        for (int trial = 0; trial < 300; trial++) {
            byte[] input = switch (trial % 5) {
                case 0 -> text(random, random.nextInt(0, 40_000));
                case 1 -> randomBytes(random, random.nextInt(0, 70_000)); // incompressible: stored blocks
                case 2 -> runs(random, random.nextInt(0, 5_000)); // long matches, length 258 and short distances
                case 3 -> randomBytes(random, random.nextInt(0, 12)); // shorter than a match
                default -> farRepeats(random); // distances up to and past the 32 KiB window
            };
            assertThat(inflate(deflate(input), input.length)).as("trial %d, %d bytes", trial, input.length)
                    .isEqualTo(input);
        }
    }

    @Test
    void shrinksHtmlAndNeverGrowsIncompressibleDataByMoreThanItsBlockHeaders() {
        SplittableRandom random = new SplittableRandom(5);
        byte[] html = text(random, 20_000);
        assertThat(deflate(html).length).isLessThan(html.length / 2);
        byte[] noise = randomBytes(random, 200_000);
        assertThat(deflate(noise).length).isLessThanOrEqualTo(noise.length + 5 * (noise.length / 65_535 + 1));
    }

    @Test
    void writesAGzipMemberThatGzipReadersRead() throws IOException {
        byte[] record = text(new SplittableRandom(9), 30_000);
        GzipMember member = new GzipMember();
        member.write(record, 0, 1000);
        member.write(java.nio.ByteBuffer.wrap(record, 1000, record.length - 1000));
        byte[] gzip = member.finish();
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            assertThat(in.readAllBytes()).isEqualTo(record);
        }
        member.write(record, 0, 10); // the next member starts afresh
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(member.finish()))) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOf(record, 10));
        }
    }

    private static byte[] deflate(byte[] input) {
        byte[] out = new byte[FastDeflate.maxOutput(input.length) + 3];
        out[0] = out[1] = out[2] = 7; // the stream starts at the offset given
        int end = FastDeflate.deflate(input, input.length, out, 3);
        assertThat(out[0]).isEqualTo((byte) 7);
        return Arrays.copyOfRange(out, 3, end);
    }

    private static byte[] inflate(byte[] deflated, int length) throws DataFormatException {
        Inflater inflater = new Inflater(true);
        inflater.setInput(deflated);
        byte[] out = new byte[length + 1];
        int n = 0;
        while (!inflater.finished()) {
            int got = inflater.inflate(out, n, out.length - n);
            assertThat(got > 0 || inflater.finished() || !inflater.needsInput()).isTrue();
            n += got;
            if (got == 0 && inflater.needsInput()) {
                break;
            }
        }
        assertThat(inflater.finished()).as("stream ends").isTrue();
        assertThat(inflater.getRemaining()).as("no trailing bytes").isZero();
        inflater.end();
        return Arrays.copyOf(out, n);
    }

    private static byte[] text(SplittableRandom random, int length) {
        StringBuilder s = new StringBuilder();
        while (s.length() < length) {
            s.append(WORDS[random.nextInt(WORDS.length)]);
            if (random.nextInt(7) == 0) {
                s.append(random.nextInt(1000));
            }
        }
        return s.substring(0, length).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] randomBytes(SplittableRandom random, int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        return b;
    }

    private static byte[] runs(SplittableRandom random, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; ) {
            int run = random.nextInt(1, 600);
            byte v = (byte) random.nextInt(4);
            for (int j = 0; j < run && i < length; j++) {
                b[i++] = v;
            }
        }
        return b;
    }

    private static byte[] farRepeats(SplittableRandom random) {
        byte[] block = randomBytes(random, random.nextInt(100, 2_000));
        int gap = random.nextInt(32_700, 32_900); // around the window's edge
        byte[] b = new byte[block.length * 3 + gap * 2];
        byte[] filler = randomBytes(random, gap);
        int at = 0;
        for (int k = 0; k < 3; k++) {
            System.arraycopy(block, 0, b, at, block.length);
            at += block.length;
            if (k < 2) {
                System.arraycopy(filler, 0, b, at, gap - block.length > 0 ? gap - block.length : 0);
                at += Math.max(0, gap - block.length);
            }
        }
        return Arrays.copyOf(b, at);
    }
}
