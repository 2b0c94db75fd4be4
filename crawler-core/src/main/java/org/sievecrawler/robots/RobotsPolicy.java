package org.sievecrawler.robots;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.sievecrawler.profile.FetchConfig;

/**
 * Turns a robots.txt response into {@link RobotsRules} as RFC 9309 says: 2xx, its rules for the crawler's
 * agent name (parsed by crawler-commons' {@link SimpleRobotRulesParser}); 4xx, everything allowed; 5xx or no
 * response, unavailable (the host is not fetched until a retry succeeds). A Crawl-delay above
 * {@code maxCrawlDelay} skips the host. Thread-safe: the parser is created per call (it counts warnings).
 *
 * <p>Matching follows RFC 9309 as crawler-commons does it: the agent name is one product token ({@code [a-zA-Z_-]+},
 * section 2.2.1; anything else is refused here, and by the profile before), rule paths and URLs are compared after
 * percent-encoding non-ASCII characters and decoding unreserved ones (section 2.2.2). One pre-step before
 * crawler-commons, as Google's parser does: a partial UTF-8 byte order mark ({@code EF BB} or {@code EF}) at the
 * start of the body is skipped like a whole one, rather than spoiling the first line. How this differs from
 * Google's own parser is tested by {@code GoogleRobotsSuiteTest} and listed in the README.
 *
 * <p>Out of scope: fetching robots.txt ({@link RobotsFetcher}) and when to fetch it again ({@link HostRobots}).
 */
public final class RobotsPolicy {
    private static final byte[] UTF8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    private final String agentName;
    private final Duration maxCrawlDelay;

    /**
     * @param agentName the product token looked up in robots.txt user-agent lines, any case
     * @throws IllegalArgumentException if {@code agentName} is not an RFC 9309 product token
     */
    public RobotsPolicy(String agentName, Duration maxCrawlDelay) {
        String problem = FetchConfig.robotsAgentNameProblem(agentName);
        if (problem != null) {
            throw new IllegalArgumentException("robots.txt agent name \"" + agentName + "\": " + problem);
        }
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
            BaseRobotRules rules = parser.parseContent(robotsUrl, withoutPartialBom(body), "text/plain",
                    List.of(agentName));
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
            return RobotsRules.unreachable("robots.txt could not be fetched: " + error);
        }
        return RobotsRules.unreachable("robots.txt answered " + status + ": host disallowed until it answers");
    }

    /**
     * {@code body} without a partial UTF-8 byte order mark ({@code EF BB} or {@code EF} not followed by a UTF-8
     * continuation byte, so not the start of a character); a whole one is left to crawler-commons. Copies the body
     * only when there is something to skip.
     */
    static byte[] withoutPartialBom(byte[] body) {
        int matched = 0;
        while (matched < 2 && matched < body.length && body[matched] == UTF8_BOM[matched]) {
            matched++;
        }
        if (matched == 0 || (matched < body.length && (body[matched] & 0xC0) == 0x80)) {
            return body;
        }
        return Arrays.copyOfRange(body, matched, body.length);
    }

    static String human(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + "s" : ms + "ms";
    }
}
