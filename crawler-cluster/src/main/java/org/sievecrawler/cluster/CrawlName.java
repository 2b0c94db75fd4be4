package org.sievecrawler.cluster;

import java.util.Objects;

/**
 * The name of a cluster crawl, {@code --crawl NAME}: the prefix of its topics ({@code NAME.frontier},
 * {@code NAME.fetched}, {@code NAME.sieve-state}, {@code NAME.rejected}). Valid when every topic named after it is a
 * legal Kafka topic name: ASCII letters, digits, '.', '_' and '-' only, and at most {@value #MAX_LENGTH} characters,
 * so that the longest topic ({@code NAME.sieve-state}) stays within Kafka's 249. "." and ".." are refused (they read
 * as paths).
 *
 * <p>Kafka also refuses, when creating a topic, a name that differs from an existing one only by '.' against
 * '_' (their metric names collide); that check needs the cluster and is left to it.
 *
 * <p>Immutable and thread-safe.
 *
 * @param value the name as given
 */
public record CrawlName(String value) {
    /** Kafka's limit on a topic name (org.apache.kafka.common.internals.Topic), less the longest suffix. */
    public static final int MAX_LENGTH = 249 - ClusterTopics.LONGEST_SUFFIX;

    /** Refuses a name that cannot prefix the crawl's topics, naming the rule and the value. */
    public CrawlName {
        Objects.requireNonNull(value, "value");
        if (value.isEmpty()) {
            throw new IllegalArgumentException("crawl name must not be empty");
        }
        if (value.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("crawl name must be at most " + MAX_LENGTH
                    + " characters (Kafka topic names are at most 249, and \"" + ClusterTopics.SIEVE_STATE
                    + "\" is appended); it has " + value.length() + ": \"" + value + "\"");
        }
        if (value.equals(".") || value.equals("..")) {
            throw new IllegalArgumentException("crawl name must not be \".\" or \"..\": \"" + value + "\"");
        }
        int position = 0;
        for (int c : value.codePoints().toArray()) {
            position++;
            if (!legal(c)) {
                throw new IllegalArgumentException("crawl name may hold only ASCII letters, digits, '.', '_' and '-'"
                        + " (Kafka's topic name rule); \"" + value + "\" has " + describe(c) + " at position "
                        + position);
            }
        }
    }

    /** The topic {@code value + suffix}. */
    String topic(String suffix) {
        return value + suffix;
    }

    private static boolean legal(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_'
                || c == '-';
    }

    private static String describe(int c) {
        if (c == ' ') {
            return "a space";
        }
        if (Character.isISOControl(c) || Character.isWhitespace(c)) {
            return String.format(java.util.Locale.ROOT, "the character U+%04X", c);
        }
        return "'" + Character.toString(c) + "'";
    }

    @Override
    public String toString() {
        return value;
    }
}
