package org.sievecrawler.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.LIMITS_MAX_PAGES_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SCOPE_MAX_SITEMAPS_PER_HOST;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.robots.RobotsRules;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

class PageChecksTest {
    private static final RobotsRules ALLOW = RobotsRules.allowAll("no robots.txt");
    private static final RobotsRules REFUSE = RobotsRules.hostSkipped("robots.txt of http://127.0.0.1:8080 skipped");
    private final CrawlProfile profile = CrawlProfile.defaults();

    private static PendingUrl page(String path) {
        return PendingUrl.seed("http://127.0.0.1:8080" + path);
    }

    private static Optional<String> error(Optional<Ending> refusal) {
        return refusal.map(e -> e.record().error());
    }

    @Test
    void letsAnOrdinaryPageBeFetched() {
        assertThat(new PageChecks(profile).refusal(page("/a"), Optional.empty(), ALLOW)).isEmpty();
    }

    @Test
    void refusesATrapBeforeAskingAnythingElse() {
        Optional<PageRecord> refusal = new PageChecks(profile).refusal(page("/a/a/a/a"), Optional.of("connection refused"), REFUSE)
                .map(Ending::record);

        assertThat(refusal.map(PageRecord::outcome)).contains(Outcome.TRAP);
        assertThat(refusal.map(PageRecord::error)).contains("path repeats segment \"a\" 4 times in a row, more than"
                + " scope.max-repeated-segments 3");
    }

    @Test
    void refusesAPageOfAnUnreachableHostThenOneRobotsTxtRefuses() {
        PageChecks checks = new PageChecks(profile);

        assertThat(error(checks.refusal(page("/a"), Optional.of("connection refused"), REFUSE)))
                .contains("http://127.0.0.1:8080 unreachable (connection refused); not tried");
        assertThat(checks.refusal(page("/a"), Optional.empty(), REFUSE).map(e -> e.record().outcome()))
                .contains(Outcome.ROBOTS_DISALLOWED);
    }

    private static PendingUrl sitemap(String path) {
        return PendingUrl.sitemap("http://127.0.0.1:8080" + path, 1, "http://127.0.0.1:8080/robots.txt");
    }

    @Test
    void spendsTheSitemapBudgetOnlyOnSitemapsItLetsThroughAndNotOnRetries() {
        PageChecks checks = new PageChecks(profile.with(SCOPE_MAX_SITEMAPS_PER_HOST, 1));

        assertThat(checks.refusal(sitemap("/refused.xml"), Optional.empty(), REFUSE)).isPresent(); // takes none
        assertThat(checks.refusal(sitemap("/a.xml"), Optional.empty(), ALLOW)).isEmpty();
        assertThat(checks.refusal(sitemap("/a.xml").nextAttempt(), Optional.empty(), ALLOW)).isEmpty();
        assertThat(error(checks.refusal(sitemap("/b.xml"), Optional.empty(), ALLOW)))
                .contains("host http://127.0.0.1:8080 reached scope.max-sitemaps-per-host 1");
    }

    /** Issue 27: a host's pages are bounded as they are admitted (the frontier's AdmissionBudget), not here. */
    @Test
    void letsEveryPageOfAHostThroughWhateverItsPageBudget() {
        PageChecks checks = new PageChecks(profile.with(LIMITS_MAX_PAGES_PER_HOST, 1L));

        assertThat(checks.refusal(page("/a"), Optional.empty(), ALLOW)).isEmpty();
        assertThat(checks.refusal(page("/b"), Optional.empty(), ALLOW)).isEmpty();
    }
}
