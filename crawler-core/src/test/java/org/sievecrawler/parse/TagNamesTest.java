package org.sievecrawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TagNamesTest {
    private final TagNames names = new TagNames(name -> name.length());

    private TagNames.Tag tag(String text) {
        byte[] b = ("<" + text + ">").getBytes(StandardCharsets.ISO_8859_1);
        return names.tag(b, 1, b.length - 1);
    }

    @Test
    void returnsTheSameTagForAKnownElementInAnyCase() {
        assertThat(tag("A")).isSameAs(tag("a"));
        assertThat(tag("IFrame")).isSameAs(tag("iframe")).extracting(TagNames.Tag::name).isEqualTo("iframe");
        assertThat(tag("h6").name()).isSameAs(tag("H6").name());
        assertThat(tag("NOSCRIPT").name()).isEqualTo("noscript");
    }

    @Test
    void lowerCasesAnUnknownNameIntoANewTag() {
        assertThat(tag("My-Widget").name()).isEqualTo("my-widget");
        assertThat(tag("ab").name()).isEqualTo("ab");
        assertThat(tag("aa")).isNotSameAs(tag("aa"));
    }

    @Test
    void givesEveryTagTheKindsItsNameHas() {
        assertThat(tag("BLOCKQUOTE").kinds()).isEqualTo(10);
        assertThat(tag("my-widget").kinds()).isEqualTo(9);
        assertThat(tag("a").is(1)).isTrue();
        assertThat(tag("a").is(2)).isFalse();
    }
}
