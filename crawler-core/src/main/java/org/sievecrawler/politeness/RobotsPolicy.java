package org.sievecrawler.politeness;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Turns a robots.txt response into {@link RobotsRules} as RFC 9309 says: 2xx, its rules for the crawler's
 * agent name (parsed by crawler-commons' {@link SimpleRobotRulesParser}); 4xx, everything allowed; 5xx or no
 * response, unavailable (the host is not fetched until a retry succeeds). A Crawl-delay above
 * {@code maxCrawlDelay} skips the host. Thread-safe: the parser is created per call (it counts warnings).
 *
 * <p>Out of scope: fetching robots.txt (the fetch package) and when to retry (the {@link HostScheduler}).
 */
public final class RobotsPolicy {
    private final String agentName;
    private final Duration maxCrawlDelay;

    public RobotsPolicy(String agentName, Duration maxCrawlDelay) {
        this.agentName = agentName.toLowerCase(Locale.ROOT);
        this.maxCrawlDelay = maxCrawlDelay;
    }

    /**
     * The rules for a host whose robots.txt at {@code robotsUrl} answered {@code status} (0 when there was
     * no HTTP response; {@code error} then says why) with {@code body}.
     */
    public RobotsRules interpret(String robotsUrl, int status, byte[] body, String error) {
        return interpret(robotsUrl, status, body, error, false);
    }

    /**
     * {@link #interpret(String, int, byte[], String)}, where {@code unavailable} says that status 0 came of
     * redirects that led nowhere (more than five, no usable Location, or refused by the address guard): RFC 9309
     * section 2.3.1.2 lets the crawler treat robots.txt as unavailable then, which allows everything (section
     * 2.3.1.3).
     */
    public RobotsRules interpret(String robotsUrl, int status, byte[] body, String error, boolean unavailable) {
        if (status >= 200 && status < 300) {
            SimpleRobotRulesParser parser = new SimpleRobotRulesParser(Long.MAX_VALUE, 5);
            BaseRobotRules rules = parser.parseContent(robotsUrl, body, "text/plain", List.of(agentName));
            long delayMillis = rules.getCrawlDelay();
            Duration crawlDelay = delayMillis > 0 ? Duration.ofMillis(delayMillis) : Duration.ZERO;
            if (crawlDelay.compareTo(maxCrawlDelay) > 0) {
                return RobotsRules.hostSkipped(String.format(Locale.ROOT,
                        "robots.txt asks for a Crawl-delay of %s, more than politeness.max-crawl-delay %s",
                        human(crawlDelay), human(maxCrawlDelay)));
            }
            return RobotsRules.parsed(rules, crawlDelay);
        }
        if (status >= 400 && status < 500) {
            return RobotsRules.allowAll("robots.txt answered " + status + ": everything allowed");
        }
        if (status == 0 && unavailable) {
            return RobotsRules.allowAll(error + ": treated as unavailable (RFC 9309 2.3.1.2), everything allowed");
        }
        if (status == 0) {
            return RobotsRules.unavailable("robots.txt could not be fetched: " + error);
        }
        return RobotsRules.unavailable("robots.txt answered " + status + ": host disallowed until it answers");
    }

    static String human(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + "s" : ms + "ms";
    }
}
