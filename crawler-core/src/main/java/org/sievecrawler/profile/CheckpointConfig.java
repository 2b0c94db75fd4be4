package org.sievecrawler.profile;

import java.time.Duration;

/**
 * When the crawl writes a checkpoint (the state a {@code --resume} continues from) to its output folder.
 *
 * @param interval time between two checkpoints; 0 writes one only when the crawl stops
 */
public record CheckpointConfig(Duration interval) {
    public CheckpointConfig {
        if (interval == null || interval.isNegative()) {
            throw new IllegalArgumentException("checkpoint.interval must be >= 0, was " + interval);
        }
    }

    public static CheckpointConfig defaults() {
        return new CheckpointConfig(Duration.ofSeconds(60));
    }

    public CheckpointConfig withInterval(Duration value) {
        return new CheckpointConfig(value);
    }
}
