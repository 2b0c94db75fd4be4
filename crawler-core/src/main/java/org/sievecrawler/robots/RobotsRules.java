package org.sievecrawler.robots;

import crawlercommons.robots.BaseRobotRules;
import java.time.Duration;
import java.util.List;

/**
 * What a host's robots.txt allows, as the crawl applies it: its parsed rules, or allow-all (robots.txt
 * missing, or not respected by the profile), or "unreachable" (RFC 9309 2.3.1.4: a 5xx or no answer, so nothing
 * is fetched from the host), or "host skipped" (it asks for a longer Crawl-delay than the profile accepts).
 * Immutable and thread-safe.
 */
public final class RobotsRules {

    /** The four ways a host's robots.txt can end up. */
    public enum Kind {
        ALLOW_ALL, PARSED, UNREACHABLE, HOST_SKIPPED
    }

    private final Kind kind;
    private final BaseRobotRules rules;
    private final Duration crawlDelay;
    private final String reason;

    private RobotsRules(Kind kind, BaseRobotRules rules, Duration crawlDelay, String reason) {
        this.kind = kind;
        this.rules = rules;
        this.crawlDelay = crawlDelay;
        this.reason = reason;
    }

    public static RobotsRules allowAll(String reason) {
        return new RobotsRules(Kind.ALLOW_ALL, null, Duration.ZERO, reason);
    }

    public static RobotsRules parsed(BaseRobotRules rules, Duration crawlDelay) {
        return new RobotsRules(Kind.PARSED, rules, crawlDelay, "robots.txt rules");
    }

    public static RobotsRules unreachable(String reason) {
        return new RobotsRules(Kind.UNREACHABLE, null, Duration.ZERO, reason);
    }

    public static RobotsRules hostSkipped(String reason) {
        return new RobotsRules(Kind.HOST_SKIPPED, null, Duration.ZERO, reason);
    }

    public Kind kind() {
        return kind;
    }

    /** The Crawl-delay the host asked for (zero if none). */
    public Duration crawlDelay() {
        return crawlDelay;
    }

    /** Why the rules are what they are, e.g. "robots.txt answered 404: everything allowed". */
    public String reason() {
        return reason;
    }

    /**
     * The sitemaps robots.txt names ({@code Sitemap:} lines, absolute URLs as crawler-commons resolved them), in
     * their order; empty unless robots.txt was parsed.
     */
    public List<String> sitemaps() {
        return kind == Kind.PARSED ? List.copyOf(rules.getSitemaps()) : List.of();
    }

    /** Whether {@code url} (on this host) may be fetched. */
    public boolean allows(String url) {
        switch (kind) {
            case ALLOW_ALL:
                return true;
            case PARSED:
                return rules.isAllowed(url);
            default:
                return false;
        }
    }

    @Override
    public String toString() {
        return kind + ": " + reason;
    }
}
