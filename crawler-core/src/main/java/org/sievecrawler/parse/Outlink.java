package org.sievecrawler.parse;

import java.util.Objects;

/**
 * One link found in a page, as written: the attribute value entity-decoded but neither resolved nor normalized
 * (that belongs to the link package).
 *
 * @param href the raw {@code href} (or {@code src} for frames) attribute value, entity-decoded
 * @param kind the element the link came from
 * @param nofollow whether the element's {@code rel} holds the token {@code nofollow} (ASCII case-insensitive)
 */
public record Outlink(String href, Kind kind, boolean nofollow) {

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
        LINK
    }

    public Outlink {
        Objects.requireNonNull(href, "href");
        Objects.requireNonNull(kind, "kind");
    }
}
