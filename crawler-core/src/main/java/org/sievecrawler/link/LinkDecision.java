package org.sievecrawler.link;

import java.util.Objects;

/**
 * The outcome of resolving, normalizing or scoping a link: {@link Accept} with the normalized absolute URL,
 * or {@link Reject} with a reason and a detail naming the offending value.
 */
public sealed interface LinkDecision permits LinkDecision.Accept, LinkDecision.Reject {

    /** Whether this is an {@link Accept}. */
    default boolean accepted() {
        return this instanceof Accept;
    }

    /**
     * The link is kept.
     *
     * @param url the normalized absolute http(s) URL
     * @param paramsIgnored whether the normalizer removed query parameters {@code scope.ignore-params} names
     *     to make {@code url} (the link is then crawled under that canonical form, counted, not refused)
     */
    record Accept(String url, boolean paramsIgnored) implements LinkDecision {
        public Accept {
            Objects.requireNonNull(url, "url");
        }

        /** A URL kept as normalized, no parameter removed. */
        public Accept(String url) {
            this(url, false);
        }
    }

    /**
     * The link is refused.
     *
     * @param reason why, counted by its {@link RejectReason#label()}
     * @param detail what was wrong with which value, e.g. {@code scheme "javascript" is not http or https}
     */
    record Reject(RejectReason reason, String detail) implements LinkDecision {
        public Reject {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(detail, "detail");
        }

        @Override
        public String toString() {
            return reason.label() + ": " + detail;
        }
    }
}
