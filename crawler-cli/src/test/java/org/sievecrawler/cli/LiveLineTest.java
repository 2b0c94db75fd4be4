package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.sievecrawler.progress.ProgressLine;

class LiveLineTest {
    private static final ProgressLine LINE = new ProgressLine(12034, 2510, 2400, 8123, 20155, 0.0002, 0.003, 3, 16,
            16, 12, 8, 4, 140L * 1024 * 1024, 65);

    @Test
    void aWideTerminalShowsEveryPartInOrder() {
        assertThat(LiveLine.render(LINE, 2510.4, 200)).isEqualTo("pages 12034 | 2510/s | queued 8123"
                + " | seen~20155 | fpr 0.020% | errors 12 | 140MB | 1:05 | avg 2400/s | active 16/16");
    }

    @Test
    void slowRatesShowDecimalsAndLongCrawlsHours() {
        ProgressLine slow = new ProgressLine(3, 0.5, 0.25, 0, 4, 0, 0, 1, 0, 2, 0, 0, 0, 512 * 1024, 3 * 3600 + 61);
        assertThat(LiveLine.render(slow, 0.5, 200)).isEqualTo("pages 3 | 0.50/s | queued 0 | seen~4 | fpr 0.00%"
                + " | errors 0 | 512KB | 3:01:01 | avg 0.25/s | active 0/2");
    }

    @Test
    void aNarrowTerminalDropsTheLeastUsefulPartsFirstAndLeavesTheLastColumnFree() {
        String at80 = LiveLine.render(LINE, 2510, 80);
        assertThat(at80).isEqualTo("pages 12034 | 2510/s | queued 8123 | seen~20155 | fpr 0.020% | errors 12 | 1:05");
        assertThat(at80.length()).isLessThanOrEqualTo(79);
        assertThat(LiveLine.render(LINE, 2510, 42)).isEqualTo("pages 12034 | 2510/s | queued 8123 | 1:05");
        assertThat(LiveLine.render(LINE, 2510, 41)).isEqualTo("pages 12034 | 2510/s | 1:05");
        assertThat(LiveLine.render(LINE, 2510, 27)).isEqualTo("pages 12034 | 2510/s");
    }

    @Test
    void whatStillDoesNotFitIsCut() {
        assertThat(LiveLine.render(LINE, 2510, 12)).isEqualTo("pages 12034");
        assertThat(LiveLine.render(LINE, 2510, 1)).isEqualTo("p");
    }

    @Test
    void theRateIsOverTheSamplesAndTheAverageWhileTheyAreUnderASecondApart() {
        LiveLine.Sample first = new LiveLine.Sample(1_000_000_000L, 100);
        assertThat(LiveLine.rate(first, new LiveLine.Sample(3_000_000_000L, 300), 7)).isEqualTo(100);
        assertThat(LiveLine.rate(first, new LiveLine.Sample(1_500_000_000L, 300), 7)).isEqualTo(7);
        assertThat(LiveLine.rate(first, first, 7)).isEqualTo(7);
    }
}
