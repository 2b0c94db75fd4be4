package org.sievecrawler.profile;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Which URLs the crawl may follow.
 *
 * @param hosts {@link #SAME_AS_SEEDS} (the hosts of the seeds), {@link #ANY} (every host: a broad crawl), or host
 *     patterns such as {@code example.org} or {@code *.example.org} (the domain and all its subdomains)
 * @param include if not empty, a URL must match one of these (find, not whole-match)
 * @param exclude a URL matching any of these is refused
 * @param maxDepth links followed from the seeds (depth 0) at most; -1 for no limit
 * @param maxPathSegments path segments a URL may have at most; a longer one is a trap; 0 for no limit
 * @param maxRepeatedSegments times in a row a segment or a run of segments may repeat; more is a trap; 0 for no
 *     limit
 * @param sitemaps whether each seed host's {@code /sitemap.xml} is fetched (robots.txt's sitemaps are, either way)
 * @param maxSitemapsPerHost sitemaps fetched from one host at most, indexes included
 * @param maxSitemapBytes bytes a sitemap may have, after decompression
 * @param checkExternal whether each link target out of scope (another host) is checked once: HEAD, GET where HEAD
 *     is refused, not parsed, recorded with outcome {@code checked}
 * @param ignoreParams query parameters removed from every URL before the Sieve sees it: exact names ({@code sid})
 *     or prefixes ending in {@code *} ({@code utm_*}), case-sensitive
 * @param learnDuplicates whether the crawl learns rules from the pages it fetched (a parameter that does not change
 *     a page, a URL template that yields only near-duplicates, an alias) and applies them before the Sieve
 */
public record ScopeConfig(List<String> hosts, List<Pattern> include, List<Pattern> exclude, int maxDepth,
        int maxPathSegments, int maxRepeatedSegments, boolean sitemaps, int maxSitemapsPerHost,
        long maxSitemapBytes, boolean checkExternal, List<String> ignoreParams, boolean learnDuplicates) {
    public static final String SAME_AS_SEEDS = "same-as-seeds";
    /**
     * The host pattern that matches every host (a broad crawl); the address guard and the other rules still apply.
     * A single-label host literally named {@code any} cannot be named as a pattern; {@code any.} (trailing dot) can.
     */
    public static final String ANY = "any";

    public ScopeConfig {
        hosts = List.copyOf(ProfileKeys.SCOPE_HOSTS.require(hosts));
        include = List.copyOf(ProfileKeys.SCOPE_INCLUDE.require(include));
        exclude = List.copyOf(ProfileKeys.SCOPE_EXCLUDE.require(exclude));
        ProfileKeys.SCOPE_MAX_DEPTH.require(maxDepth);
        ProfileKeys.SCOPE_MAX_PATH_SEGMENTS.require(maxPathSegments);
        ProfileKeys.SCOPE_MAX_REPEATED_SEGMENTS.require(maxRepeatedSegments);
        ProfileKeys.SCOPE_MAX_SITEMAPS_PER_HOST.require(maxSitemapsPerHost);
        ProfileKeys.SCOPE_MAX_SITEMAP_BYTES.require(maxSitemapBytes);
        ignoreParams = List.copyOf(ProfileKeys.SCOPE_IGNORE_PARAMS.require(ignoreParams));
    }

    /** A scope that learns duplicate rules ({@code scope.learn-duplicates}' default). */
    public ScopeConfig(List<String> hosts, List<Pattern> include, List<Pattern> exclude, int maxDepth,
            int maxPathSegments, int maxRepeatedSegments, boolean sitemaps, int maxSitemapsPerHost,
            long maxSitemapBytes, boolean checkExternal, List<String> ignoreParams) {
        this(hosts, include, exclude, maxDepth, maxPathSegments, maxRepeatedSegments, sitemaps, maxSitemapsPerHost,
                maxSitemapBytes, checkExternal, ignoreParams, true);
    }

    /** A scope that removes no query parameter. */
    public ScopeConfig(List<String> hosts, List<Pattern> include, List<Pattern> exclude, int maxDepth,
            int maxPathSegments, int maxRepeatedSegments, boolean sitemaps, int maxSitemapsPerHost,
            long maxSitemapBytes, boolean checkExternal) {
        this(hosts, include, exclude, maxDepth, maxPathSegments, maxRepeatedSegments, sitemaps, maxSitemapsPerHost,
                maxSitemapBytes, checkExternal, List.of());
    }

    /** A scope that checks no link out of it. */
    public ScopeConfig(List<String> hosts, List<Pattern> include, List<Pattern> exclude, int maxDepth,
            int maxPathSegments, int maxRepeatedSegments, boolean sitemaps, int maxSitemapsPerHost,
            long maxSitemapBytes) {
        this(hosts, include, exclude, maxDepth, maxPathSegments, maxRepeatedSegments, sitemaps, maxSitemapsPerHost,
                maxSitemapBytes, false);
    }

    public static ScopeConfig defaults() {
        return CrawlProfile.defaults().scope();
    }

    public boolean sameAsSeeds() {
        return hosts.size() == 1 && hosts.get(0).equals(SAME_AS_SEEDS);
    }
}
