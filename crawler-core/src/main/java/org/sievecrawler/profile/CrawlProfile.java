package org.sievecrawler.profile;

import java.util.List;

/**
 * Everything a crawl is told: its seeds and one record per concern. Immutable; each part validates itself
 * when built, naming the key and the value that is wrong. Another profile is made from this one a key at a time,
 * {@code profile.with(ProfileKeys.POLITENESS_DELAY, Duration.ZERO)}, on the path {@code --set} takes.
 */
public record CrawlProfile(String name, List<String> seeds, ScopeConfig scope, LimitsConfig limits, FetchConfig fetch,
        PolitenessConfig politeness, ParseConfig parse, SieveConfig sieve, OutputConfig output,
        ProgressConfig progress, CheckpointConfig checkpoint) {

    public CrawlProfile {
        seeds = List.copyOf(seeds);
    }

    /** The built-in defaults (the values of config/default.yaml, {@link ProfileKeys}), with no seeds. */
    public static CrawlProfile defaults() {
        return ProfileKeys.defaults();
    }

    /**
     * This profile with {@code key} set to {@code value} and every other key as it is, built as {@code --set
     * KEY=VALUE} builds it ({@link ProfileOverrides}): the value kept to the key's rule in {@link ProfileKeys}, then
     * each group's record built from its keys.
     *
     * @throws IllegalArgumentException naming the key, the rule and the value ({@code fetch.threads must be in [1,
     *     1024], was 0}); or, when a record refuses a rule spanning keys, its group and why, as {@code --set} says it
     *     ({@code sieve: ...})
     */
    public <T> CrawlProfile with(ProfileKey<T> key, T value) {
        ProfileKeys.Values values = ProfileKeys.Values.of(this);
        values.set(key, value);
        return ProfileKeys.assemble(values, (group, e) -> {
            throw new IllegalArgumentException(group + ": " + e.getMessage(), e);
        });
    }
}
