package org.sievecrawler.sieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SievePlanTest {

    @Test
    void aBillionUrlsAtOneInTenThousandTakeTwoPointFourGigabytes() {
        SievePlan plan = SievePlan.of(1_000_000_000L, 1e-4);
        assertThat(plan.bits()).isEqualTo(19_170_116_755L);
        assertThat(plan.hashCount()).isEqualTo(13);
        assertThat(plan.bytes()).isCloseTo(2_396_264_600L, within(100L));
        assertThat(plan.bitsPerUrl()).isCloseTo(19.17, within(0.01));
        assertThat(SievePlan.humanBytes(plan.bytes())).isEqualTo("2.23 GiB");
    }

    @Test
    void theRateIsPAtNAndClimbsFastAfter() {
        SievePlan plan = SievePlan.of(1_000_000, 0.01);
        assertThat(plan.rateAt(1_000_000)).isCloseTo(0.01, within(0.0005));
        assertThat(plan.rateAt(2_000_000)).isCloseTo(0.16, within(0.01));
        assertThat(plan.rateAt(4_000_000)).isCloseTo(0.68, within(0.01));
        assertThat(plan.toString()).contains("m=9585059 bits", "k=7", "rate at n=0.0100");
    }
}
