package org.sievecrawler.parse;

/**
 * The text of one link as it is read, piece by piece: runs of HTML whitespace become one space, leading whitespace
 * goes, and reading stops once more than {@link Outlink#MAX_TEXT_CHARS} chars are kept, so a hostile page's
 * megabyte of anchor text costs nothing. The result does not depend on how the text was cut into pieces, so the
 * scanner (text between tags) and jsoup (text nodes) agree.
 *
 * <p>Not thread-safe: one per link being read.
 */
final class LinkText {
    private final StringBuilder kept = new StringBuilder();
    private boolean pendingSpace;

    /** The recorded text of {@code text} read in one piece (an {@code alt} attribute). */
    static String of(String text) {
        LinkText t = new LinkText();
        t.append(text);
        return t.text();
    }

    /** Whether enough is kept: more text cannot change {@link #text()}. */
    boolean full() {
        return kept.length() > Outlink.MAX_TEXT_CHARS;
    }

    void append(CharSequence text) {
        for (int i = 0; i < text.length() && !full(); i++) {
            char c = text.charAt(i);
            if (PageRules.isHtmlSpace(c)) {
                pendingSpace = kept.length() > 0;
            } else {
                if (pendingSpace) {
                    kept.append(' ');
                    pendingSpace = false;
                }
                kept.append(c);
            }
        }
    }

    /** The text: collapsed, trimmed, cut at {@link Outlink#MAX_TEXT_CHARS} at a code-point boundary. */
    String text() {
        int max = Outlink.MAX_TEXT_CHARS;
        if (kept.length() <= max) {
            return kept.toString();
        }
        int end = Character.isLowSurrogate(kept.charAt(max)) ? max - 1 : max;
        while (end > 0 && kept.charAt(end - 1) == ' ') {
            end--;
        }
        return kept.substring(0, end);
    }
}
