package org.sievecrawler.profile;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * Writes a {@link CrawlProfile} as YAML with every key filled in, in the order and units of
 * {@code config/default.yaml}: what {@code crawler profile check FILE} prints, and what {@link ProfileLoader}
 * reads back to an equal profile. Stateless and thread-safe. Comments are out of scope (see
 * {@code config/default.yaml} for the meaning of each key).
 */
public final class ProfileYaml {
    private ProfileYaml() {
    }

    /** The profile as YAML text, ending with a newline. Strings are double-quoted, JSON style. */
    public static String write(CrawlProfile profile) {
        StringBuilder out = new StringBuilder();
        line(out, 0, "name", quote(profile.name()));
        list(out, 0, "seeds", profile.seeds(), ProfileYaml::quote);

        ScopeConfig scope = profile.scope();
        out.append("scope:\n");
        list(out, 1, "hosts", scope.hosts(), ProfileYaml::quote);
        list(out, 1, "include", scope.include(), p -> quote(p.pattern()));
        list(out, 1, "exclude", scope.exclude(), p -> quote(p.pattern()));
        line(out, 1, "max-depth", scope.maxDepth());

        LimitsConfig limits = profile.limits();
        out.append("limits:\n");
        line(out, 1, "max-pages", limits.maxPages());
        line(out, 1, "max-duration", duration(limits.maxDuration()));
        line(out, 1, "max-page-bytes", ProfileUnits.formatSize(limits.maxPageBytes()));

        FetchConfig fetch = profile.fetch();
        out.append("fetch:\n");
        line(out, 1, "threads", fetch.threads());
        line(out, 1, "user-agent", quote(fetch.userAgent()));
        line(out, 1, "connect-timeout", duration(fetch.connectTimeout()));
        line(out, 1, "read-timeout", duration(fetch.readTimeout()));
        line(out, 1, "call-timeout", duration(fetch.callTimeout()));
        line(out, 1, "max-redirects", fetch.maxRedirects());
        line(out, 1, "retries", fetch.retries());
        list(out, 1, "accept", fetch.accept(), ProfileYaml::quote);
        line(out, 1, "allow-private-addresses", fetch.allowPrivateAddresses());

        PolitenessConfig politeness = profile.politeness();
        out.append("politeness:\n");
        line(out, 1, "delay", duration(politeness.delay()));
        line(out, 1, "max-connections-per-host", politeness.maxConnectionsPerHost());
        line(out, 1, "respect-robots", politeness.respectRobots());
        line(out, 1, "max-crawl-delay", duration(politeness.maxCrawlDelay()));
        line(out, 1, "robots-retry", duration(politeness.robotsRetry()));

        out.append("parse:\n");
        line(out, 1, "follow-nofollow", profile.parse().followNofollow());

        SieveConfig sieve = profile.sieve();
        out.append("sieve:\n");
        line(out, 1, "expected-urls", sieve.expectedUrls());
        line(out, 1, "false-positive-rate",
                BigDecimal.valueOf(sieve.falsePositiveRate()).stripTrailingZeros().toPlainString());
        line(out, 1, "on-overflow", sieve.onOverflow());
        line(out, 1, "max-in-memory-urls", sieve.maxInMemoryUrls());

        out.append("output:\n");
        line(out, 1, "dir", quote(profile.output().dir().toString()));
        line(out, 1, "warc", profile.output().warc());
        line(out, 1, "warc-prefix", quote(profile.output().warcPrefix()));
        line(out, 1, "warc-max-size", ProfileUnits.formatSize(profile.output().warcMaxSize()));
        line(out, 1, "warc-metadata", profile.output().warcMetadata());

        out.append("progress:\n");
        line(out, 1, "interval", duration(profile.progress().interval()));

        out.append("checkpoint:\n");
        line(out, 1, "interval", duration(profile.checkpoint().interval()));
        return out.toString();
    }

    private static void line(StringBuilder out, int depth, String key, Object value) {
        out.append("  ".repeat(depth)).append(key).append(": ").append(value).append('\n');
    }

    private static <T> void list(StringBuilder out, int depth, String key, List<T> values,
            Function<T, String> format) {
        String indent = "  ".repeat(depth);
        if (values.isEmpty()) {
            out.append(indent).append(key).append(": []\n");
            return;
        }
        out.append(indent).append(key).append(":\n");
        for (T value : values) {
            out.append(indent).append("  - ").append(format.apply(value)).append('\n');
        }
    }

    private static String duration(Duration duration) {
        return ProfileUnits.formatDuration(duration);
    }

    /** A YAML double-quoted scalar; its escapes are JSON's, which YAML shares. */
    static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
