package org.sievecrawler.profile;

import java.time.Duration;

/** @param interval time between two progress lines in the log */
public record ProgressConfig(Duration interval) {
    public ProgressConfig {
        ProfileKeys.PROGRESS_INTERVAL.require(interval);
    }

    public static ProgressConfig defaults() {
        return CrawlProfile.defaults().progress();
    }
}
