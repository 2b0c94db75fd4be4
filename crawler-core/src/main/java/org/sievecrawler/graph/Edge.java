package org.sievecrawler.graph;

import java.util.Locale;
import java.util.Objects;
import org.sievecrawler.parse.Outlink;

/**
 * One edge of the link graph: page {@code from} links to {@code to}.
 *
 * @param from the normalized URL of the page (or the redirect, or the sitemap) the link is on
 * @param to the link's normalized target
 * @param kind where the link was
 * @param nofollow whether the link says {@code rel=nofollow}
 * @param inScope whether the crawl's link decision accepted the target (scope, depth, traps); a link out of scope
 *     is recorded but not crawled
 * @param text the link's text ({@link Outlink#text()}), empty for none
 */
public record Edge(String from, String to, Kind kind, boolean nofollow, boolean inScope, String text) {

    /** Where a link was: the element it came from, or a redirect or a sitemap entry. */
    public enum Kind {
        A, AREA, FRAME, IFRAME, CANONICAL, LINK, IMG, SCRIPT, STYLESHEET, ICON,
        /** A redirect's Location: from the redirecting URL to its target. */
        REDIRECT,
        /** A URL a sitemap lists: from the sitemap to the URL. */
        SITEMAP;

        private static final Kind[] ALL = values();
        private final String label = name().toLowerCase(Locale.ROOT);

        /** The label in links.tsv.zst and audit.json: the element's name, {@code redirect} or {@code sitemap}. */
        public String label() {
            return label;
        }

        /** The kind of a link read from a page. */
        public static Kind of(Outlink.Kind kind) {
            return valueOf(kind.name());
        }

        /**
         * The kind labelled {@code label}.
         *
         * @throws IllegalArgumentException naming the label when no kind has it
         */
        public static Kind fromLabel(String label) {
            Kind kind = fromLabel(label, 0, label.length());
            if (kind == null) {
                throw new IllegalArgumentException("unknown link kind \"" + label + "\"");
            }
            return kind;
        }

        /** The kind whose label is the ASCII bytes {@code b[start, end)}, or null when no kind has that label. */
        static Kind fromLabel(byte[] b, int start, int end) {
            for (Kind kind : ALL) {
                String label = kind.label;
                if (label.length() == end - start) {
                    int i = 0;
                    while (i < label.length() && b[start + i] == label.charAt(i)) {
                        i++;
                    }
                    if (i == label.length()) {
                        return kind;
                    }
                }
            }
            return null;
        }

        /** The kind labelled {@code text[start, end)}, or null when no kind has that label (no copy made). */
        static Kind fromLabel(String text, int start, int end) {
            for (Kind kind : ALL) {
                if (kind.label.length() == end - start && text.startsWith(kind.label, start)) {
                    return kind;
                }
            }
            return null;
        }
    }

    public Edge {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
    }
}
