package org.sievecrawler.profile;

import java.time.Duration;

/**
 * When the crawl writes a checkpoint (the state a {@code --resume} continues from) to its output folder.
 *
 * @param interval time between two checkpoints; 0 writes one only when the crawl stops
 */
public record CheckpointConfig(Duration interval) {
    public CheckpointConfig {
        ProfileKeys.CHECKPOINT_INTERVAL.require(interval);
    }

    public static CheckpointConfig defaults() {
        return CrawlProfile.defaults().checkpoint();
    }
}
