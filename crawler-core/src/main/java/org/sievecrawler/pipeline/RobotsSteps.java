package org.sievecrawler.pipeline;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.sievecrawler.fetch.HttpExchange;
import org.sievecrawler.fetch.HttpFetcher;
import org.sievecrawler.frontier.RobotsLease;
import org.sievecrawler.link.LinkResolver;
import org.sievecrawler.link.RejectReason;
import org.sievecrawler.politeness.HostKey;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.robots.RobotsRules;
import org.sievecrawler.robots.RobotsStep;
import org.sievecrawler.sieve.PendingUrl;

/**
 * The steps of one robots.txt lease, listed in order in {@link #take}: fetched and read ({@link RobotsStep}: put
 * back, retried, its host unreachable, or read into rules), the failed attempts and retries counted, the lease
 * closed by the outcome (with the sitemaps the rules name, decided as links: {@link LinkStep}), and the exchanges
 * archived. A robots.txt lease ends with no record.
 *
 * <p>Thread-safe: one instance serves every fetcher thread; all its steps are thread-safe.
 */
public final class RobotsSteps {
    private final RobotsStep robots;
    private final LinkStep links;
    /** Exchanges and counts. */
    private final PageOutput output;

    /**
     * @param profile the crawl's profile: its robots.txt agent and retries ({@link RobotsStep}), and its
     *     {@code parse.follow-nofollow}
     * @param fetcher the single attempts robots.txt is fetched with
     * @param links the link decision of the sitemaps robots.txt names
     * @param output where exchanges and counts go
     */
    public RobotsSteps(CrawlProfile profile, HttpFetcher fetcher, LinkResolver links, PageOutput output) {
        this.robots = new RobotsStep(profile, fetcher);
        this.links = new LinkStep(links, profile, output);
        this.output = output;
    }

    /** The steps of one robots.txt lease, in order; see the class comment. */
    void take(RobotsLease lease) throws IOException {
        RobotsStep.Outcome outcome = robots.take(lease.url(), lease.attempt());
        if (outcome instanceof RobotsStep.PutBack) { // the crawl is ending; a resume fetches robots.txt anew
            lease.putBack();
            return;
        }
        if (outcome.response().failedAttempt()) {
            output.failedAttempt();
        }
        if (outcome instanceof RobotsStep.Retry retry) {
            output.retried();
            lease.retry(retry.backoff());
        } else if (outcome instanceof RobotsStep.HostUnreachable down) {
            lease.hostUnreachable(down.reason());
        } else {
            RobotsRules rules = ((RobotsStep.Read) outcome).rules();
            lease.rules(rules, namedSitemaps(lease.url(), rules.sitemaps()));
        }
        for (HttpExchange exchange : outcome.response().exchanges()) {
            output.archive(exchange);
        }
    }

    /**
     * The sitemaps a host's robots.txt (at {@code robotsUrl}) names, as sitemap tasks at depth 0 with robots.txt as
     * their referrer: those the scope accepts and that are on the host itself (a robots.txt naming another host's
     * sitemaps is not followed there: that host's own robots.txt speaks for it); the others are counted as
     * rejected links.
     */
    private List<PendingUrl> namedSitemaps(String robotsUrl, List<String> named) {
        if (named.isEmpty()) {
            return List.of();
        }
        String host = HostKey.of(robotsUrl);
        List<PendingUrl> tasks = new ArrayList<>(named.size());
        for (PendingUrl sitemap : links.listed(robotsUrl, named, 0, url -> PendingUrl.sitemap(url, 0, robotsUrl))) {
            if (HostKey.of(sitemap.url()).equals(host)) {
                tasks.add(sitemap);
            } else {
                output.linkRejected(RejectReason.SITEMAP_OF_OTHER_HOST.label());
            }
        }
        return tasks;
    }
}
