package org.sievecrawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TagLexerTest {

    @Test
    void findsTheFirstByteExactlyLikeAPlainLoopOnRandomArrays() {
        SplittableRandom random = new SplittableRandom(11);
        byte[] alphabet = {'<', '>', 0, (byte) 0x80, (byte) 0xff, (byte) 0xbc, 'a', '-', (byte) 0x3b, (byte) 0x3d};
        for (int trial = 0; trial < 20_000; trial++) {
            byte[] b = new byte[random.nextInt(40)];
            for (int i = 0; i < b.length; i++) {
                b[i] = random.nextInt(4) == 0 ? alphabet[random.nextInt(alphabet.length)] : (byte) random.nextInt(256);
            }
            int from = b.length == 0 ? 0 : random.nextInt(b.length + 1);
            int end = from + random.nextInt(b.length - from + 1);
            byte c = alphabet[random.nextInt(alphabet.length)];
            assertThat(TagLexer.indexOf(b, from, end, c)).as("trial %d", trial).isEqualTo(plainIndexOf(b, from, end, c));
        }
    }

    @Test
    void findsAStringOnlyWhereItStartsWhole() {
        byte[] b = "a-- --!> -->x-->".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(TagLexer.indexOf(b, 0, b.length, "-->")).isEqualTo(9);
        assertThat(TagLexer.indexOf(b, 10, b.length, "-->")).isEqualTo(13);
        assertThat(TagLexer.indexOf(b, 0, 11, "-->")).isEqualTo(-1);
        assertThat(TagLexer.indexOf(b, 0, b.length, "--!>")).isEqualTo(4);
    }

    private static int plainIndexOf(byte[] b, int from, int end, byte c) {
        for (int i = from; i < end; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }
}
