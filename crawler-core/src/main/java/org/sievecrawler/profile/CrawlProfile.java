package org.sievecrawler.profile;

import java.util.List;

/**
 * Everything a crawl is told: its seeds and one record per concern. Immutable; each part validates itself
 * when built, naming the key and the value that is wrong.
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

    public CrawlProfile withSeeds(List<String> value) {
        return new CrawlProfile(name, value, scope, limits, fetch, politeness, parse, sieve, output, progress, checkpoint);
    }

    public CrawlProfile withScope(ScopeConfig value) {
        return new CrawlProfile(name, seeds, value, limits, fetch, politeness, parse, sieve, output, progress, checkpoint);
    }

    public CrawlProfile withLimits(LimitsConfig value) {
        return new CrawlProfile(name, seeds, scope, value, fetch, politeness, parse, sieve, output, progress, checkpoint);
    }

    public CrawlProfile withFetch(FetchConfig value) {
        return new CrawlProfile(name, seeds, scope, limits, value, politeness, parse, sieve, output, progress, checkpoint);
    }

    public CrawlProfile withPoliteness(PolitenessConfig value) {
        return new CrawlProfile(name, seeds, scope, limits, fetch, value, parse, sieve, output, progress, checkpoint);
    }

    public CrawlProfile withParse(ParseConfig value) {
        return new CrawlProfile(name, seeds, scope, limits, fetch, politeness, value, sieve, output, progress, checkpoint);
    }

    public CrawlProfile withSieve(SieveConfig value) {
        return new CrawlProfile(name, seeds, scope, limits, fetch, politeness, parse, value, output, progress, checkpoint);
    }

    public CrawlProfile withOutput(OutputConfig value) {
        return new CrawlProfile(name, seeds, scope, limits, fetch, politeness, parse, sieve, value, progress, checkpoint);
    }

    public CrawlProfile withProgress(ProgressConfig value) {
        return new CrawlProfile(name, seeds, scope, limits, fetch, politeness, parse, sieve, output, value, checkpoint);
    }

    public CrawlProfile withCheckpoint(CheckpointConfig value) {
        return new CrawlProfile(name, seeds, scope, limits, fetch, politeness, parse, sieve, output, progress, value);
    }
}
