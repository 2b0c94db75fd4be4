package org.sievecrawler.pipeline;

import java.util.List;
import java.util.Optional;
import org.sievecrawler.learn.Learner;
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
 * {@code scope.max-repeated-segments}), its host not found unreachable, robots.txt allows it, no rule the crawl
 * learned refuses it (a trap, naming the rule) or rewrites it (a trap, and its rewrite followed instead; a sample
 * of them is fetched: {@link Learner}), and, for a sitemap,
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
    /** The rules learned from the pages fetched ({@code scope.learn-duplicates}). */
    private final Learner learner;

    PageChecks(CrawlProfile profile) {
        this(profile, Learner.off());
    }

    /** Checks that also apply the rules {@code learner} learned to a page before its request. */
    PageChecks(CrawlProfile profile, Learner learner) {
        this.learner = learner;
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
    Optional<Ending> refusal(PendingUrl task, Optional<String> unreachable, RobotsRules rules) {
        Optional<String> trap = traps.trap(task.url());
        if (trap.isPresent()) {
            return refused(task, Outcome.TRAP, trap.get());
        }
        if (unreachable.isPresent()) {
            return refused(task, Outcome.UNREACHABLE,
                    HostKey.of(task.url()) + " unreachable (" + unreachable.get() + "); not tried");
        }
        if (!rules.allows(task.url())) {
            return refused(task, Outcome.ROBOTS_DISALLOWED,
                    rules.kind() == RobotsRules.Kind.PARSED ? "disallowed by robots.txt" : rules.reason());
        }
        if (task.purpose() == PendingUrl.Purpose.PAGE) {
            Learner.Verdict verdict = learner.atLease(task.url());
            if (verdict instanceof Learner.Verdict.Refuse refuse) {
                return refused(task, Outcome.TRAP, refuse.rule().trapError());
            }
            if (verdict instanceof Learner.Verdict.Rewrite rewrite) {
                return Optional.of(Ending.withLinks(PageRecords.refused(task, Outcome.TRAP,
                        rewrite.rule().trapError(rewrite.url())), List.of(task.instead(rewrite.url()))));
            }
        }
        // after robots.txt: a sitemap it refuses costs no request, so takes none of the budget
        Optional<String> hostFull = task.isSitemap() && task.attempt() == 0 ? sitemapBudget.take(task.url())
                : Optional.empty();
        return hostFull.flatMap(why -> refused(task, Outcome.TRAP, why));
    }

    private static Optional<Ending> refused(PendingUrl task, Outcome outcome, String error) {
        return Optional.of(Ending.of(PageRecords.refused(task, outcome, error)));
    }
}
