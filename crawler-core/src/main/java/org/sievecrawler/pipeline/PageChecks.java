package org.sievecrawler.pipeline;

import java.util.Optional;
import org.sievecrawler.link.UrlTraps;
import org.sievecrawler.politeness.HostBudget;
import org.sievecrawler.politeness.HostKey;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileKeys;
import org.sievecrawler.robots.RobotsRules;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;
import org.sievecrawler.sink.PageRecords;

/**
 * Whether the crawl may fetch a page, asked before its request: not a crawler trap ({@code scope.max-path-segments},
 * {@code scope.max-repeated-segments}), its host not found unreachable, robots.txt allows it, and, for a sitemap,
 * its host has not had {@code scope.max-sitemaps-per-host}; the first check that fails gives the page's record.
 * A host's pages are bounded before this, as they are admitted ({@code limits.max-pages-per-host}: the frontier's
 * {@code AdmissionBudget}).
 *
 * <p>Thread-safe: the sitemap budget is counted atomically, the rest is immutable.
 *
 * <p>Out of scope: which hosts are unreachable and the rules in force for a host (the frontier's; the caller passes
 * them in), and recording the refusal.
 */
final class PageChecks {
    private final UrlTraps traps;
    /** Sitemaps per host ({@code scope.max-sitemaps-per-host}): a sitemap takes this budget, not the pages'. */
    private final HostBudget sitemapBudget;

    PageChecks(CrawlProfile profile) {
        this.traps = UrlTraps.of(profile.scope());
        this.sitemapBudget = new HostBudget(profile.scope().maxSitemapsPerHost(),
                ProfileKeys.SCOPE_MAX_SITEMAPS_PER_HOST.name());
    }

    /**
     * The record of {@code task} if it may not be fetched, or empty if it may (a sitemap's host's sitemap budget is
     * then taken, unless it is a retry: a retry is no other request).
     *
     * @param unreachable why the task's host is unreachable, if it is known to be
     * @param rules the robots.txt rules in force for the task's host
     */
    Optional<PageRecord> refusal(PendingUrl task, Optional<String> unreachable, RobotsRules rules) {
        Optional<String> trap = traps.trap(task.url());
        if (trap.isPresent()) {
            return Optional.of(PageRecords.refused(task, Outcome.TRAP, trap.get()));
        }
        if (unreachable.isPresent()) {
            return Optional.of(PageRecords.refused(task, Outcome.UNREACHABLE,
                    HostKey.of(task.url()) + " unreachable (" + unreachable.get() + "); not tried"));
        }
        if (!rules.allows(task.url())) {
            return Optional.of(PageRecords.refused(task, Outcome.ROBOTS_DISALLOWED,
                    rules.kind() == RobotsRules.Kind.PARSED ? "disallowed by robots.txt" : rules.reason()));
        }
        // after robots.txt: a sitemap it refuses costs no request, so takes none of the budget
        Optional<String> hostFull = task.isSitemap() && task.attempt() == 0 ? sitemapBudget.take(task.url())
                : Optional.empty();
        return hostFull.map(why -> PageRecords.refused(task, Outcome.TRAP, why));
    }
}
