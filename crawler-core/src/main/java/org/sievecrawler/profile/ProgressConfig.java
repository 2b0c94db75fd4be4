package org.sievecrawler.profile;

import java.time.Duration;

/** @param interval time between two progress lines in the log */
public record ProgressConfig(Duration interval) {
    public ProgressConfig {
        if (interval == null || interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("progress.interval must be > 0, was " + interval);
        }
    }

    public static ProgressConfig defaults() {
        return new ProgressConfig(Duration.ofSeconds(10));
    }
}
