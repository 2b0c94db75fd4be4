package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

class DurationConverterTest {

    @ParameterizedTest(name = "{0} is {1} ms")
    @CsvFileSource(resources = "/cli/durations.csv", numLinesToSkip = 1)
    void readsAWholeNumberAndAUnit(String text, long millis) {
        assertThat(DurationConverter.parse(text)).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "10", "1.5s", "-1s", "10 sec", "s", "2d", "PT10S"})
    void refusesAnythingElseNamingTheValue(String text) {
        assertThatThrownBy(() -> DurationConverter.parse(text))
                .isInstanceOf(TypeConversionException.class)
                .hasMessageContaining("\"" + text + "\" is not a duration")
                .hasMessageContaining("500ms, 10s, 2m or 1h");
    }
}
