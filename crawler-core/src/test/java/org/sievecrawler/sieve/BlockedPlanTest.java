package org.sievecrawler.sieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The blocked filter's sizing; its false-positive formula is measured in {@link BlockedBloomFilterTest}. */
class BlockedPlanTest {
    private static final int N = 1_000_000;

    @Test
    void isSizedWithTheFewestBlocksThatReachTheTargetRate() {
        BlockedPlan plan = BlockedPlan.of(N, 0.01);
        assertThat(plan.rateAt(N)).isLessThanOrEqualTo(0.01);
        assertThat(BlockedPlan.rate(N, plan.blocks() - 1, plan.hashCount())).isGreaterThan(0.01);
        // The occupancy-exact rate is above the mean-share rate (1 - q^i)^k, by Jensen's inequality.
        assertThat(plan.rateAt(N)).isGreaterThan(BlockedPlan.rate(N, plan.blocks(), plan.hashCount(), false));
        // More bits than the classic filter for the same rate: 9.92 bits a URL against 9.59, k = 6 against 7.
        assertThat(plan.bits()).isEqualTo(19_372L * 512).isGreaterThan(SievePlan.of(N, 0.01).bits());
        assertThat(plan.hashCount()).isEqualTo(6);
        assertThat(BlockedPlan.of(N, 1e-4).hashCount()).isEqualTo(12);
        assertThat(BlockedBloomFilter.create(N, 0.01).byteSize()).isEqualTo(19_372L * 64);
    }

    @Test
    void refusesBadSizingArgumentsNamingThem() {
        assertThatThrownBy(() -> BlockedPlan.of(0, 0.01))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expectedInsertions must be >= 1, was 0");
        assertThatThrownBy(() -> BlockedPlan.of(1000, 1.0))
                .hasMessage("falsePositiveRate must be in (0, 1), exclusive, was 1.0");
        assertThatThrownBy(() -> BlockedPlan.of(Long.MAX_VALUE / 2, 1e-9))
                .hasMessageContaining("more than the maximum of 2^40 bits");
    }

    @Test
    void refusesAPlanOfNoBlocksOrTooManyHashesNamingTheValue() {
        assertThatThrownBy(() -> new BlockedPlan(N, 0.01, 0, 6)).hasMessage("blocks must be in [1, 2^31], was 0");
        assertThatThrownBy(() -> new BlockedPlan(N, 0.01, 100, 49)).hasMessage("hashCount must be in [1, 48], was 49");
    }

    @Test
    void needsMoreBitsThanTheClassicLayoutTheSmallerTheRate() {
        for (double p : new double[] {1e-2, 1e-3, 1e-4, 1e-6}) {
            BlockedPlan blocked = BlockedPlan.of(10_000_000, p);
            SievePlan classic = SievePlan.of(10_000_000, p);
            assertThat(blocked.bits()).as("p = %s", p).isGreaterThan(classic.bits());
            assertThat(blocked.rateAt(10_000_000)).as("p = %s", p).isLessThanOrEqualTo(p);
        }
        assertThat(BlockedPlan.of(10_000_000, 1e-4).bitsPerUrl()).isCloseTo(22.03, within(0.01));
    }
}
