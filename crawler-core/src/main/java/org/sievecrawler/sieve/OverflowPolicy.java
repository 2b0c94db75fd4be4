package org.sievecrawler.sieve;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What the {@link Sieve} does when it holds more distinct URLs than it was sized for. */
public enum OverflowPolicy {
    /** Keep the one filter and log a warning at the crossing and at each doubling; the rate climbs. */
    WARN,
    /**
     * Add a filter layer of twice the capacity and half the false-positive rate each time the newest layer
     * is full (a scalable Bloom filter), so the total rate stays under 2p while memory grows with the crawl.
     */
    GROW;

    /** The policy named {@code name} ("warn" or "grow", any case). */
    static OverflowPolicy parse(String name) {
        for (OverflowPolicy policy : values()) {
            if (policy.name().equalsIgnoreCase(name.trim())) {
                return policy;
            }
        }
        throw new IllegalArgumentException("on-overflow must be one of " + Arrays.stream(values())
                .map(OverflowPolicy::toString).collect(Collectors.joining(", ")) + ", was \"" + name + "\"");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
