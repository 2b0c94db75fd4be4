package org.sievecrawler.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class ProfileUnitsTest {

    @ParameterizedTest(name = "\"{0}\" -> {1} -> {2}")
    @CsvFileSource(resources = "/profile/durations.tsv", delimiter = '\t', ignoreLeadingAndTrailingWhitespace = false,
            emptyValue = "")
    void readsAndWritesDurations(String text, String millis, String written) {
        Duration parsed = ProfileUnits.parseDuration(text);

        if (millis.equals("refused")) {
            assertThat(parsed).isNull();
        } else {
            assertThat(parsed).isEqualTo(Duration.ofMillis(Long.parseLong(millis)));
            assertThat(ProfileUnits.formatDuration(parsed)).isEqualTo(written);
        }
    }

    @ParameterizedTest(name = "\"{0}\" -> {1} -> {2}")
    @CsvFileSource(resources = "/profile/sizes.tsv", delimiter = '\t', ignoreLeadingAndTrailingWhitespace = false)
    void readsAndWritesSizes(String text, String bytes, String written) {
        Long parsed = ProfileUnits.parseSize(text);

        if (bytes.equals("refused")) {
            assertThat(parsed).isNull();
        } else {
            assertThat(parsed).isEqualTo(Long.parseLong(bytes));
            assertThat(ProfileUnits.formatSize(parsed)).isEqualTo(written);
        }
    }
}
