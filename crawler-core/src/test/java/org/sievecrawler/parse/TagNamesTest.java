package org.sievecrawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TagNamesTest {

    private static String name(String text) {
        byte[] b = ("<" + text + ">").getBytes(StandardCharsets.ISO_8859_1);
        return TagNames.lowerCase(b, 1, b.length - 1);
    }

    @Test
    void returnsTheSameConstantForAKnownElementInAnyCase() {
        assertThat(name("A")).isSameAs("a");
        assertThat(name("IFrame")).isSameAs("iframe");
        assertThat(name("h6")).isSameAs("h6");
        assertThat(name("NOSCRIPT")).isSameAs("noscript");
    }

    @Test
    void lowerCasesAnUnknownNameIntoANewString() {
        assertThat(name("My-Widget")).isEqualTo("my-widget");
        assertThat(name("ab")).isEqualTo("ab");
        assertThat(name("aa")).isEqualTo("aa");
    }
}
