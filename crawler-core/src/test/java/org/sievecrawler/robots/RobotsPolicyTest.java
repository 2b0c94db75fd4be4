package org.sievecrawler.robots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RobotsPolicyTest {
    private final RobotsPolicy policy = new RobotsPolicy("SieveCrawler", Duration.ofSeconds(30));
    private static final String ROBOTS_URL = "https://example.org/robots.txt";

    private RobotsRules rules(String robotsTxt) {
        return policy.interpret(ROBOTS_URL, 200, robotsTxt.getBytes(StandardCharsets.UTF_8), null);
    }

    @Test
    void appliesDisallowAllowAndWildcardsForItsAgent() {
        RobotsRules rules = rules("User-agent: otherbot\nDisallow: /\n\n"
                + "User-agent: sievecrawler\nDisallow: /private/\nAllow: /private/open\nDisallow: /*.pdf$\n");
        assertThat(rules.kind()).isEqualTo(RobotsRules.Kind.PARSED);
        assertThat(rules.allows("https://example.org/")).isTrue();
        assertThat(rules.allows("https://example.org/private/secret")).isFalse();
        assertThat(rules.allows("https://example.org/private/open")).isTrue();
        assertThat(rules.allows("https://example.org/doc.pdf")).isFalse();
        assertThat(rules.allows("https://example.org/doc.pdf.html")).isTrue();
    }

    @Test
    void readsTheCrawlDelay() {
        assertThat(rules("User-agent: *\nCrawl-delay: 2.5\n").crawlDelay()).isEqualTo(Duration.ofMillis(2500));
        assertThat(rules("User-agent: *\nDisallow:\n").crawlDelay()).isEqualTo(Duration.ZERO);
    }

    @Test
    void skipsAHostAskingForMoreThanTheMaximumCrawlDelay() {
        RobotsRules rules = rules("User-agent: *\nCrawl-delay: 120\n");
        assertThat(rules.kind()).isEqualTo(RobotsRules.Kind.HOST_SKIPPED);
        assertThat(rules.allows("https://example.org/")).isFalse();
        assertThat(rules.reason())
                .isEqualTo("robots.txt asks for a Crawl-delay of 120s, more than politeness.max-crawl-delay 30s");
    }

    @Test
    void allowsEverythingWhenRobotsTxtIsMissing() {
        RobotsRules rules = policy.interpret(ROBOTS_URL, 404, new byte[0], null);
        assertThat(rules.kind()).isEqualTo(RobotsRules.Kind.ALLOW_ALL);
        assertThat(rules.allows("https://example.org/anything")).isTrue();
    }

    @Test
    void treatsServerErrorsAndTimeoutsAsUnavailable() {
        assertThat(policy.interpret(ROBOTS_URL, 503, new byte[0], null).kind())
                .isEqualTo(RobotsRules.Kind.UNREACHABLE);
        RobotsRules timeout = policy.interpret(ROBOTS_URL, 0, new byte[0], "read timed out after 2000 ms");
        assertThat(timeout.allows("https://example.org/")).isFalse();
        assertThat(timeout.reason()).isEqualTo("robots.txt could not be fetched: read timed out after 2000 ms");
    }

    @Test
    void allowsEverythingWhenTheRedirectsLedNowhere() {
        RobotsRules rules = policy.interpret(ROBOTS_URL, 0, new byte[0],
                "robots.txt https://example.org/robots.txt redirected more than 5 times", true);

        assertThat(rules.kind()).isEqualTo(RobotsRules.Kind.ALLOW_ALL);
        assertThat(rules.allows("https://example.org/anything")).isTrue();
        assertThat(rules.reason()).isEqualTo("robots.txt https://example.org/robots.txt redirected more than 5 times:"
                + " treated as unavailable (RFC 9309 2.3.1.2), everything allowed");
        assertThat(policy.interpret(ROBOTS_URL, 0, new byte[0], "read timed out", false).kind())
                .isEqualTo(RobotsRules.Kind.UNREACHABLE);
    }

    @Test
    void refusesAnAgentNameThatIsNotAProductToken() {
        for (String name : new String[] {"Foo Bar", "", "Foobot/2.1", "Foobot*", "Bot2", "\u30c4"}) {
            assertThatIllegalArgumentException().isThrownBy(() -> new RobotsPolicy(name, Duration.ofSeconds(30)))
                    .withMessage("robots.txt agent name \"%s\": must be letters, - and _ only (RFC 9309 2.2.1)", name);
        }
        assertThat(new RobotsPolicy("Foo_Bar-baz", Duration.ofSeconds(30))).isNotNull();
    }

    @Test
    void skipsAWholeOrPartialByteOrderMark() {
        String robotsTxt = "User-agent: sievecrawler\nDisallow: /private/\n";
        byte[] text = robotsTxt.getBytes(StandardCharsets.UTF_8);
        for (byte[] bom : new byte[][] {{(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, {(byte) 0xEF, (byte) 0xBB},
                {(byte) 0xEF}}) {
            byte[] body = new byte[bom.length + text.length];
            System.arraycopy(bom, 0, body, 0, bom.length);
            System.arraycopy(text, 0, body, bom.length, text.length);

            RobotsRules rules = policy.interpret(ROBOTS_URL, 200, body, null);

            assertThat(rules.allows("https://example.org/private/x")).as("BOM of %d bytes", bom.length).isFalse();
            assertThat(rules.allows("https://example.org/public")).isTrue();
        }
    }

    @Test
    void leavesACharacterThatOnlyStartsLikeAByteOrderMark() {
        byte[] startsWithUfec0 = {(byte) 0xEF, (byte) 0xBB, (byte) 0x80, 'x'};
        byte[] startsWithUf000 = {(byte) 0xEF, (byte) 0x80, (byte) 0x80, 'x'};

        assertThat(RobotsPolicy.withoutPartialBom(startsWithUfec0)).isSameAs(startsWithUfec0);
        assertThat(RobotsPolicy.withoutPartialBom(startsWithUf000)).isSameAs(startsWithUf000);
        assertThat(RobotsPolicy.withoutPartialBom(new byte[] {(byte) 0xEF, 'U'})).containsExactly('U');
        assertThat(RobotsPolicy.withoutPartialBom(new byte[] {(byte) 0xEF, (byte) 0xBB})).isEmpty();
    }
}
