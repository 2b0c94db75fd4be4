package org.sievecrawler.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A title longer than {@link PageRules#MAX_TITLE_CHARS} is cut, at a code-point boundary. */
class PageTitleCapTest {

    @Test
    void shortTitleIsOnlyCollapsed() {
        assertEquals("a b", PageRules.title("  a \n b "));
    }

    @Test
    void longTitleIsCutToTheCap() {
        assertEquals(PageRules.MAX_TITLE_CHARS, PageRules.title("x".repeat(1_000_000)).length());
    }

    @Test
    void cutDoesNotSplitASurrogatePair() {
        String t = PageRules.title("x".repeat(PageRules.MAX_TITLE_CHARS - 1) + "\uD83D\uDE00".repeat(10));
        assertEquals(PageRules.MAX_TITLE_CHARS - 1, t.length());
    }
}
