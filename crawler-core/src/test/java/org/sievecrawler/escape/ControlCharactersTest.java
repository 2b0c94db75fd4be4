package org.sievecrawler.escape;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.fixtures.HostileText;

class ControlCharactersTest {
    @ParameterizedTest
    @MethodSource("org.sievecrawler.fixtures.HostileText#controlCharacters")
    void escapesTheControlCharactersOfTheTableAndNothingElse(HostileText.Controls row) {
        String escaped = ControlCharacters.escape(row.text());

        assertThat(escaped).isEqualTo(row.escaped());
        assertThat(escaped.chars()).noneMatch(ControlCharacters::isControl);
    }

    @Test
    void theControlsAreC0ButTabThenDelAndC1() {
        for (int ch = 0; ch <= 0xFFFF; ch++) {
            boolean control = ch < 0x20 && ch != '\t' || ch >= 0x7F && ch <= 0x9F;
            assertThat(ControlCharacters.isControl(ch)).as("U+%04X", ch).isEqualTo(control);
        }
    }

    @Test
    void aTabIsLeftAsItIs() {
        assertThat(ControlCharacters.escape("\t Unknown line")).isEqualTo("\t Unknown line");
    }

    @Test
    void textWithoutControlsIsReturnedAsItIs() {
        String text = "crawl finished: decided=6";

        assertThat(ControlCharacters.escape(text)).isSameAs(text);
        assertThat(ControlCharacters.escape(null)).isNull();
    }
}
