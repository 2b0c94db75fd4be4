package org.sievecrawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class RetryAfterTest {
    private static final Clock NOW = Clock.fixed(Instant.parse("1994-11-06T08:47:37Z"), ZoneOffset.UTC);

    @ParameterizedTest(name = "\"{0}\" -> {1}")
    @CsvFileSource(resources = "/fetch/retry-after.tsv", delimiter = '\t')
    void readsSecondsAndHttpDatesAndIgnoresInvalidValues(String value, String expected) {
        Duration delay = RetryAfter.parse(value, NOW);

        if (expected.equals("invalid")) {
            assertThat(delay).as("Retry-After \"%s\"", value).isNull();
        } else {
            assertThat(delay).as("Retry-After \"%s\"", value).isEqualTo(Duration.ofSeconds(Long.parseLong(expected)));
        }
    }

    @Test
    void ignoresAMissingOrBlankHeader() {
        assertThat(RetryAfter.parse(null, NOW)).isNull();
        assertThat(RetryAfter.parse("  ", NOW)).isNull();
    }
}
