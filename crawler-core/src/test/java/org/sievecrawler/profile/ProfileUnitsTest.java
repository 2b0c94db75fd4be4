package org.sievecrawler.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;

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

    @ParameterizedTest(name = "{0} bytes are shown as {1}")
    @CsvSource({"0, 0KB", "1023, 0KB", "524288, 512KB", "1048575, 1023KB", "1048576, 1MB", "1000000, 976KB",
            "146800640, 140MB", "10737418240, 10240MB"})
    void showsBytesReadInTheMegabytesOfProfiles(long bytes, String shown) {
        assertThat(ProfileUnits.roundedSize(bytes)).isEqualTo(shown);
    }
}
