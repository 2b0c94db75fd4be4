package org.sievecrawler.learn;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UrlEditTest {
    @Test
    void dropsEveryOccurrenceOfAQueryParameterAndTheQuestionMarkWhenNoneIsLeft() {
        assertThat(UrlEdit.withoutParam("http://h/a?sid=1&b=2&sid=3#f", "sid")).isEqualTo("http://h/a?b=2#f");
        assertThat(UrlEdit.withoutParam("http://h/a?sid=1", "sid")).isEqualTo("http://h/a");
        assertThat(UrlEdit.withoutParam("http://h/a?sid", "sid")).isEqualTo("http://h/a");
        assertThat(UrlEdit.withoutParam("http://h/a?sidx=1", "sid")).isNull();
        assertThat(UrlEdit.withoutParam("http://h/a", "sid")).isNull();
        assertThat(UrlEdit.withoutParam("http://h/a?b=2&sid=1", "sid")).isEqualTo("http://h/a?b=2");
        assertThat(UrlEdit.withoutParam("http://h/a#sid=1", "sid")).isNull();
    }

    @Test
    void dropsAPathParameterFromAnySegment() {
        assertThat(UrlEdit.withoutParam("http://h/s/home;jsessionid=AB12?x=1", ";jsessionid"))
                .isEqualTo("http://h/s/home?x=1");
        assertThat(UrlEdit.withoutParam("http://h/a;jsessionid=1/b;k=2;jsessionid=3", ";jsessionid"))
                .isEqualTo("http://h/a/b;k=2");
        assertThat(UrlEdit.withoutParam("http://h/a;jsessionidx=1", ";jsessionid")).isNull();
        assertThat(UrlEdit.withoutParam("http://h/a?q=;jsessionid=1", ";jsessionid")).isNull();
    }

    @Test
    void dropsAPathSegment() {
        assertThat(UrlEdit.withoutSegment("http://h/print/a/1?x=1", 0)).isEqualTo("http://h/a/1?x=1");
        assertThat(UrlEdit.withoutSegment("http://h/print/", 0)).isEqualTo("http://h/");
        assertThat(UrlEdit.withoutSegment("http://h/a/print/b", 1)).isEqualTo("http://h/a/b");
        assertThat(UrlEdit.withoutSegment("http://h/a/b", 5)).isNull();
        assertThat(UrlEdit.segment("http://h/a/b?c/d", 1)).isEqualTo("b");
        assertThat(UrlEdit.segment("http://h/a/b?c/d", 2)).isNull();
        assertThat(UrlEdit.segment("http://h/print/", 1)).isEmpty();
        assertThat(UrlEdit.segment("http://h?x=/a", 0)).isNull();
    }
}
