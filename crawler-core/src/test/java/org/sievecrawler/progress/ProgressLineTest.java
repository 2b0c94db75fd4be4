package org.sievecrawler.progress;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProgressLineTest {

    @ParameterizedTest
    @CsvSource({"0, 0", "0.004, 0.00", "0.25, 0.25", "0.994, 0.99", "0.996, 1.0", "3.42, 3.4", "9.94, 9.9",
        "9.96, 10", "12.4, 12", "2510.4, 2510"})
    void showsRatesBelowTenWithDecimals(double perSecond, String shown) {
        assertThat(ProgressLine.rate(perSecond)).isEqualTo(shown);
    }

    @ParameterizedTest
    @CsvSource({"0.25, 0.25, rate=0.25/s avg=0.25/s", "3.4, 2.96, rate=3.4/s avg=3.0/s",
        "2510, 2400, rate=2510/s avg=2400/s"})
    void writesBothRatesOfThePoliteAndTheFastInTheLine(double rate, double average, String fields) {
        ProgressLine line = new ProgressLine(120, rate, average, 8, 200, 0.0002, 0.003, 1, 1, 1, 0, 0, 0, 512_000, 480);

        assertThat(line.toString()).startsWith("fetched=120 " + fields + " queued=8 ");
    }

    @Test
    void aClusterProcessLineCountsItsBadRecordsAndASingleNodeLineHasNone() {
        ProgressLine single = new ProgressLine(120, 3, 3, 8, 200, 0, 0, 1, 1, 1, 0, 0, 4, 512_000, 480);
        ProgressLine cluster = new ProgressLine(120, 3, 3, 8, 200, 0, 0, 1, 1, 1, 0, 0, 4, 512_000, 480,
                OptionalLong.of(9));

        assertThat(single.toString()).contains(" robots-refused=4 bytes=500KB ").doesNotContain("bad-records");
        assertThat(cluster.toString()).contains(" robots-refused=4 bad-records=9 bytes=500KB ");
    }

    @Test
    void showsUrlsOverTheirHostsBudgetOnlyWhenThereAreAny() {
        ProgressLine none = new ProgressLine(120, 3, 3, 8, 200, 0, 0, 1, 1, 1, 0, 0, 4, 512_000, 480,
                OptionalLong.empty(), 0);
        ProgressLine some = new ProgressLine(120, 3, 3, 8, 200, 0, 0, 1, 1, 1, 0, 0, 4, 512_000, 480,
                OptionalLong.empty(), 67_657);
        ProgressLine cluster = new ProgressLine(120, 3, 3, 8, 200, 0, 0, 1, 1, 1, 0, 0, 4, 512_000, 480,
                OptionalLong.of(9), 5);

        assertThat(none.toString()).contains(" robots-refused=4 bytes=500KB ").doesNotContain("over-host-budget");
        assertThat(some.toString()).contains(" robots-refused=4 over-host-budget=67657 bytes=500KB ");
        assertThat(cluster.toString()).contains(" robots-refused=4 over-host-budget=5 bad-records=9 bytes=500KB ");
    }
}
