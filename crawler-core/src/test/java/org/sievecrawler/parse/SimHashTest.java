package org.sievecrawler.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * SimHash's contract on random texts (fixed seed): balanced bits, a one-word edit of a 500-word text within
 * {@value SimHash#NEAR_BITS} bits in most trials, unrelated texts far apart.
 */
class SimHashTest {
    private static final int VOCABULARY = 5_000;
    private final List<String> vocabulary = vocabulary(new SplittableRandom(7));

    @Test
    void eachBitIsSetInAboutHalfOfTheFingerprintsOfRandomTexts() {
        SplittableRandom random = new SplittableRandom(28);
        int texts = 4_000;
        int[] ones = new int[64];
        for (int t = 0; t < texts; t++) {
            long fingerprint = SimHash.of(String.join(" ", randomWords(random, 200)));
            for (int bit = 0; bit < 64; bit++) {
                ones[bit] += (int) (fingerprint >>> bit & 1);
            }
        }
        // a fair bit: share ~ N(0.5, 0.0079) at 4,000 texts; 0.45..0.55 is more than 6 sigma for each of the 64
        for (int bit = 0; bit < 64; bit++) {
            assertThat(ones[bit] / (double) texts).as("share of fingerprints with bit %d set", bit)
                    .isBetween(0.45, 0.55);
        }
    }

    @Test
    void aOneWordEditOfA500WordTextStaysWithinThreeBitsInMostTrials() {
        SplittableRandom random = new SplittableRandom(2007);
        int trials = 2_000;
        int near = 0;
        long distances = 0;
        for (int t = 0; t < trials; t++) {
            List<String> words = randomWords(random, 500);
            long before = SimHash.of(String.join(" ", words));
            words.set(random.nextInt(words.size()), vocabulary.get(random.nextInt(VOCABULARY)) + "x");
            int distance = SimHash.distance(before, SimHash.of(String.join(" ", words)));
            distances += distance;
            if (distance <= SimHash.NEAR_BITS) {
                near++;
            }
        }
        // 2 of 499 shingles change: each bit's vote (sd ~22) moves by at most 4; measured with this seed:
        // 91.4 % within 3 bits, mean 1.66 bits (with 3-word shingles: 82.8 %, 2.17; single words: 97.8 %, 1.06)
        assertThat(near / (double) trials).as("share of one-word edits within 3 bits").isGreaterThan(0.88);
        assertThat(distances / (double) trials).as("mean distance of a one-word edit").isLessThan(2.0);
    }

    @Test
    void unrelatedTextsAreMoreThanThreeBitsApart() {
        SplittableRandom random = new SplittableRandom(1);
        int pairs = 10_000;
        long distances = 0;
        for (int p = 0; p < pairs; p++) {
            long a = SimHash.of(String.join(" ", randomWords(random, 500)));
            long b = SimHash.of(String.join(" ", randomWords(random, 500)));
            int distance = SimHash.distance(a, b);
            // P(distance <= 3) for independent fair bits: (1 + 64 + 2016 + 41664) / 2^64 ~ 2.4e-15 per pair
            assertThat(distance).as("distance of unrelated pair %d", p).isGreaterThan(SimHash.NEAR_BITS);
            distances += distance;
        }
        assertThat(distances / (double) pairs).as("mean distance of unrelated texts").isBetween(31.0, 33.0);
    }

    @Test
    void wordsAreLetterAndDigitRunsCompareWithoutCaseAndEndWithTheirRun() {
        assertThat(SimHash.of("The quick, brown fox -- jumps!")).isEqualTo(SimHash.of("the QUICK brown\nfox jumps"));
        assertThat(SimHash.of("Ünïcode wörds straße 2024")).isEqualTo(SimHash.of("ünïcode WÖRDS STRAßE 2024"));
        SimHash runs = new SimHash();
        runs.text("quick br", 0, 8);
        runs.endRun();
        runs.text("own fox", 0, 7);
        assertThat(runs.fingerprint()).isEqualTo(SimHash.of("quick br own fox"))
                .isNotEqualTo(SimHash.of("quick brown fox"));
    }

    @Test
    void asciiBytesHashLikeTheirCharacters() {
        String text = "Rust's <Vec<T>> type: 2 ways & 3 more... see std::vec::Vec";
        byte[] bytes = ("xx" + text + "yy").getBytes(StandardCharsets.US_ASCII);
        SimHash fromBytes = new SimHash();
        int end = bytes.length - 2;
        for (int i = 2; i < end; ) { // the caller's loop: ASCII hashed as bytes, an '&' fed as text
            i = fromBytes.asciiUntilDecoded(bytes, i, end);
            if (i < end) {
                fromBytes.text(String.valueOf((char) bytes[i]), 0, 1);
                i++;
            }
        }
        assertThat(fromBytes.fingerprint()).isEqualTo(SimHash.of(text));
    }

    @Test
    void feedingAsciiUpToTheFirstByteToDecodeGivesTheFingerprintOfTheWholeText() {
        SplittableRandom random = new SplittableRandom(404);
        String[] pieces = {"Vec", "vec", "2", " ", "\n", "::", "<T>", "caf\u00e9", "\u65e5\u672c", "&", "x", "Ab9", "-"};
        for (int trial = 0; trial < 2_000; trial++) {
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            SimHash fused = new SimHash();
            fused.text("lead in", 0, 7); // a word left open before, continued by the text
            int stop = fused.asciiUntilDecoded(bytes, 0, bytes.length);
            String rest = new String(bytes, stop, bytes.length - stop, StandardCharsets.UTF_8);
            assertThat(stop == bytes.length || bytes[stop] < 0 || bytes[stop] == '&').as(text.toString()).isTrue();
            fused.text(rest, 0, rest.length());
            SimHash whole = new SimHash();
            whole.text("lead in" + text, 0, 7 + text.length());
            assertThat(SimHash.hex(fused.fingerprint())).as(text.toString()).isEqualTo(SimHash.hex(whole.fingerprint()));
        }
    }

    @Test
    void aTextWithoutWordsHasNoFingerprintAndAShortOneHasOne() {
        SimHash none = new SimHash();
        none.text("  -- !! ", 0, 8);
        assertThat(none.fingerprint()).isZero();
        assertThat(none.words()).isZero();
        assertThat(SimHash.of("hello world")).isNotZero().isNotEqualTo(SimHash.of("world hello"));
    }

    @Test
    void fingerprintsStayThoseEarlierCrawlsWroteToPagesJsonl() {
        // written by the first version (64 int vote counters, before the bit-sliced ones)
        assertThat(SimHash.hex(SimHash.of("hello"))).isEqualTo("c08774ac4a7c82d0");
        assertThat(SimHash.hex(SimHash.of("hello world"))).isEqualTo("1e3f792ea922a92f");
        assertThat(SimHash.hex(SimHash.of("The quick brown fox jumps over the lazy dog")))
                .isEqualTo("222232c070c2e82a");
        assertThat(SimHash.hex(SimHash.of(
                "Django makes it easier to build better web apps more quickly and with less code. ".repeat(40))))
                .isEqualTo("5b3c51fc0e66cae5");
    }

    @Test
    void hexRoundTripsAndNamesWhatIsWrong() {
        assertThat(SimHash.hex(0x00ff00000000000aL)).isEqualTo("00ff00000000000a");
        assertThat(SimHash.parseHex("fedcba9876543210")).isEqualTo(0xfedcba9876543210L);
        assertThatThrownBy(() -> SimHash.parseHex("12g4567890abcdef"))
                .hasMessage("a SimHash is 16 hex digits, not \"12g4567890abcdef\"");
        assertThatThrownBy(() -> SimHash.parseHex("abc")).hasMessage("a SimHash is 16 hex digits, not \"abc\"");
    }

    private List<String> randomWords(SplittableRandom random, int n) {
        List<String> words = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            words.add(vocabulary.get(random.nextInt(VOCABULARY)));
        }
        return words;
    }

    private static List<String> vocabulary(SplittableRandom random) {
        List<String> words = new ArrayList<>(VOCABULARY);
        for (int i = 0; i < VOCABULARY; i++) {
            StringBuilder word = new StringBuilder();
            for (int len = 2 + random.nextInt(9); len > 0; len--) {
                word.append((char) ('a' + random.nextInt(26)));
            }
            words.add(word.toString());
        }
        return words;
    }
}
