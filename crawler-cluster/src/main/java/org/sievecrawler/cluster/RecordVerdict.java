package org.sievecrawler.cluster;

import java.util.Objects;

/**
 * What {@link RecordCheck} makes of one record read from a crawl's topics: {@link Good} with what it carries (a
 * pending URL, a done URL), or {@link Bad} with the kind of fault and a detail naming the offending value. Immutable.
 *
 * @param <T> what a good record carries
 */
sealed interface RecordVerdict<T> permits RecordVerdict.Good, RecordVerdict.Bad {

    /**
     * The record is taken.
     *
     * @param value what it carries, as the crawl takes it (a URL normalized)
     */
    record Good<T>(T value) implements RecordVerdict<T> {
        public Good {
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * The record is refused: skipped, counted, logged and copied to {@code <crawl>.rejected} ({@link RejectedRecords}).
     *
     * @param kind the stable label it is counted and logged by: a {@link RecordFault#label()}, or the
     *     {@link org.sievecrawler.link.RejectReason#label()} of the link rule its URL fails
     * @param detail what is wrong with which value, never the whole value: {@code scheme "file" is not http or https}
     */
    record Bad<T>(String kind, String detail) implements RecordVerdict<T> {
        public Bad {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(detail, "detail");
        }

        @Override
        public String toString() {
            return kind + ": " + detail;
        }
    }
}
