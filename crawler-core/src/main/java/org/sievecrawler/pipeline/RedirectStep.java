package org.sievecrawler.pipeline;

import java.util.List;
import org.sievecrawler.fetch.FetchResult;
import org.sievecrawler.graph.Edge;
import org.sievecrawler.link.LinkDecision;
import org.sievecrawler.link.RejectReason;
import org.sievecrawler.link.RedirectTarget;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sink.PageRecord;
import org.sievecrawler.sink.PageRecords;

/**
 * The redirect step of a page lease: its target goes through the same decision as links ({@link LinkStep}) and the
 * lease ends as a redirect followed (the target admitted as a link of its own), a target out of scope recorded
 * before the redirect, or an error (a Location that gives no crawlable URL, a chain longer than
 * {@code fetch.max-redirects}).
 *
 * <p>Thread-safe: immutable.
 */
final class RedirectStep {
    private final LinkStep links;
    private final int maxRedirects;

    RedirectStep(LinkStep links, int maxRedirects) {
        this.links = links;
        this.maxRedirects = maxRedirects;
    }

    /** How the lease of {@code task} ends after {@code redirect}. */
    Ending target(PendingUrl task, FetchResult.Redirect redirect) {
        RedirectTarget target = links.redirect(task, redirect.location());
        if (target instanceof RedirectTarget.Unusable unusable) {
            return Ending.of(PageRecords.unusableRedirect(task, redirect, unusable.detail()));
        }
        RedirectTarget.Resolved resolved = (RedirectTarget.Resolved) target;
        String to = resolved.url();
        if (task.redirects() + 1 > maxRedirects) {
            return Ending.of(PageRecords.redirectChainTooLong(task, redirect, to, maxRedirects));
        }
        PageRecord record = PageRecords.redirect(task, redirect, to);
        links.link(List.of(new Edge(task.url(), to, Edge.Kind.REDIRECT, false,
                !(resolved.scope() instanceof LinkDecision.Reject), "")));
        if (task.isCheck()) { // checked where it leads: another host's URL checked too, one of the crawl's crawled
            PendingUrl next = PendingUrl.redirect(to, task);
            if (!(resolved.scope() instanceof LinkDecision.Reject)) {
                return Ending.withLinks(record, List.of(next.asPage()));
            }
            if (((LinkDecision.Reject) resolved.scope()).reason() == RejectReason.OFF_HOST) {
                return Ending.withLinks(record, List.of(next));
            }
        }
        if (resolved.scope() instanceof LinkDecision.Reject reject) {
            return Ending.withTarget(record, PageRecords.outOfScopeTarget(to, task, reject.detail()));
        }
        return Ending.withLinks(record, List.of(PendingUrl.redirect(to, task)));
    }
}
