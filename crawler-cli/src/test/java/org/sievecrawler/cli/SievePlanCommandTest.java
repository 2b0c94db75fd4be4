package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SievePlanCommandTest {

    @Test
    void aBillionUrlsAtOneInTenThousandTakeAbout2point4GigabytesAndThirteenHashes() {
        CommandRun run = CommandRun.execute("sieve-plan", "--expected", "1e9", "--fpp", "1e-4");

        assertThat(run.exit()).isZero();
        assertThat(run.out())
                .contains("n = 1,000,000,000 URLs at p = 0.0001")
                .contains("19,170,116,755 (19.17 bits per URL)")
                .containsPattern("hashes \\(k\\) +13\\R")
                .contains("2.40 GB (2.23 GiB, 2,396,264,600 bytes)")
                .containsPattern("x = n +1,000,000,000: 0\\.0100%")
                .containsPattern("x = 2n +2,000,000,000: \\d")
                .containsPattern("x = 4n +4,000,000,000: \\d");
    }

    @Test
    void theBlockedLayoutNeedsMoreBitsForTheSameRateAndSaysHowManyMore() {
        CommandRun run = CommandRun.execute("sieve-plan", "--expected", "1e7", "--fpp", "1e-4", "--layout", "blocked");

        assertThat(run.exit()).isZero();
        assertThat(run.out())
                .contains("n = 10,000,000 URLs at p = 0.0001, blocked layout")
                .contains("220,302,336 (22.03 bits per URL)")
                .contains("430,278 of 512 bits (+14.9% bits against the classic layout's 191,701,168)")
                .containsPattern("hashes \\(k\\) +12\\R")
                .containsPattern("x = n +10,000,000: 0\\.0100%");
    }

    @Test
    void refusesAnUnknownLayoutNamingTheChoices() {
        CommandRun run = CommandRun.execute("sieve-plan", "--expected", "1000", "--fpp", "0.01", "--layout", "cuckoo");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("\"cuckoo\" is not a layout: write classic or blocked")
                .doesNotContain("Exception");
    }

    @Test
    void readsCountsWithUnderscores() {
        CommandRun run = CommandRun.execute("sieve-plan", "--expected", "10_000_000", "--fpp", "0.01");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("n = 10,000,000 URLs at p = 0.01").containsPattern("hashes \\(k\\) +7\\R");
    }

    @Test
    void printsMemoryInDecimalUnits() {
        assertThat(org.sievecrawler.sieve.SievePlan.decimalBytes(999)).isEqualTo("999 B");
        assertThat(org.sievecrawler.sieve.SievePlan.decimalBytes(18_000_000)).isEqualTo("18.0 MB");
        assertThat(org.sievecrawler.sieve.SievePlan.decimalBytes(2_396_264_600L)).isEqualTo("2.40 GB");
    }

    @Test
    void refusesARateOutsideZeroToOneWithExitCodeTwo() {
        CommandRun run = CommandRun.execute("sieve-plan", "--expected", "1000", "--fpp", "1.5");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--fpp must be in (0, 1)", "1.5").doesNotContain("Exception");
    }

    @Test
    void refusesAFractionalCountWithExitCodeTwo() {
        CommandRun run = CommandRun.execute("sieve-plan", "--expected", "1.5", "--fpp", "0.01");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("\"1.5\" is not a whole number");
    }

    @Test
    void needsBothOptions() {
        CommandRun run = CommandRun.execute("sieve-plan", "--expected", "1000");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("sieve-plan: missing required option: '--fpp=P'");
    }
}
