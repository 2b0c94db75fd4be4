package org.sievecrawler.parse;

import java.util.Objects;

/**
 * One link found in a page, as written: the attribute value entity-decoded but neither resolved nor normalized
 * (that belongs to the link package). The crawl follows the kinds that lead to pages ({@link Kind#followed()});
 * the others (images, scripts, stylesheets, icons) are recorded in the link graph only.
 *
 * @param href the raw {@code href} (or {@code src} for frames, images and scripts) attribute value, entity-decoded
 * @param kind the element the link came from
 * @param nofollow whether the element's {@code rel} holds the token {@code nofollow} (ASCII case-insensitive)
 * @param text what the link says, whitespace-collapsed and cut at {@link #MAX_TEXT_CHARS} chars: the text of an
 *     {@code <a>} (its HTML text nodes, outside raw-text elements, noscript, select and SVG/MathML), the
 *     {@code alt} of an {@code <img>} or {@code <area>}; empty for the other kinds
 */
public record Outlink(String href, Kind kind, boolean nofollow, String text) {
    /** Longest link text kept, in chars; a longer one is cut at a code-point boundary. */
    public static final int MAX_TEXT_CHARS = 80;

    /** The element a link came from. */
    public enum Kind {
        /** {@code <a href>} */
        A,
        /** {@code <area href>} */
        AREA,
        /** {@code <frame src>} */
        FRAME,
        /** {@code <iframe src>} */
        IFRAME,
        /** {@code <link rel=canonical href>} */
        CANONICAL,
        /**
         * {@code <link href>} whose {@code rel} names another page ({@code next}, {@code prev}, {@code alternate},
         * {@code search}, {@code index}, ...; see {@link PageRules#linkKind})
         */
        LINK,
        /** {@code <img src>}: recorded, not followed */
        IMG,
        /** {@code <script src>}: recorded, not followed */
        SCRIPT,
        /** {@code <link rel=stylesheet href>}: recorded, not followed */
        STYLESHEET,
        /** {@code <link rel=icon href>} (and {@code shortcut icon}, {@code apple-touch-icon}): recorded, not followed */
        ICON;

        /** Whether the crawl follows links of this kind (those that lead to pages); the others are only recorded. */
        public boolean followed() {
            return ordinal() <= LINK.ordinal();
        }
    }

    public Outlink {
        Objects.requireNonNull(href, "href");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
    }

    /** A link without text. */
    public Outlink(String href, Kind kind, boolean nofollow) {
        this(href, kind, nofollow, "");
    }
}
