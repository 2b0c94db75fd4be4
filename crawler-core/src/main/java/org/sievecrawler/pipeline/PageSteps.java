package org.sievecrawler.pipeline;

import java.io.IOException;
import java.util.Optional;
import java.util.function.LongPredicate;
import org.sievecrawler.fetch.FetchResult;
import org.sievecrawler.fetch.HttpFetcher;
import org.sievecrawler.fetch.RetryPolicy;
import org.sievecrawler.frontier.PageLease;
import org.sievecrawler.history.EarlierCrawl;
import org.sievecrawler.learn.Learner;
import org.sievecrawler.link.LinkResolver;
import org.sievecrawler.parse.PageParser;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sink.PageRecord;
import org.sievecrawler.sink.PageRecords;
import org.sievecrawler.warc.Recapture;
import org.sievecrawler.warc.WarcLocation;

/**
 * The steps of one page lease, listed in order in {@link #take}, each a type with one job:
 *
 * <pre>
 *   checks ({@link PageChecks}: a learned rule's refusal or rewrite too) -> fetch ({@link FetchStep}, a sitemap in a slot, a recrawl's page conditional)
 *     -> failure: put back, retried, or given up ({@link FailureStep}) -> archive -> record
 *     -> the host released -> archive (a recrawl's: perhaps a revisit) -> redirect: target decided
 *                                                                          ({@link RedirectStep}) -> record
 *                                      -> a recrawl's 304: not-modified, the earlier record's content -> record
 *                                      -> a link out of scope checked ({@code scope.check-external}) -> record
 *                                      -> error page (a missing sitemap probe apart) or not HTML -> record
 *                                      -> sitemap: read ({@link SitemapStep}) -> record
 *                                      -> page: parse on a parse thread ({@link ParseStep}) -> learned from
 *                                         ({@link Learner#observe}) -> links ({@link LinkStep}, rules applied)
 *                                         -> record
 * </pre>
 *
 * Every end is one {@link Ending} that {@link RecordStep} closes the lease with: that is the one way a page's record
 * leaves, to the frontier, which writes it (pages.jsonl and the counters, through its
 * {@link org.sievecrawler.frontier.Frontier.Recorder}) before its journal entry. The steps put out nothing else but
 * exchanges and counts ({@link PageOutput}, which writes no record). A retry, a request the crawl cancelled and a
 * fetcher stopped while it waits for a sitemap slot close the lease without a record.
 *
 * <p>With WARC output on, every exchange the fetcher captured (pages, redirects, error pages, retried attempts) goes
 * to the archive from the thread that fetched it, after the host's slot is released (but a retried attempt's,
 * archived before it is retried); the page's record then carries where its response is. With
 * {@code output.warc-metadata}, the parse step adds a metadata record of the page's outlinks.
 *
 * <p>A new step (an audit of links, a conditional request, a fingerprint of the page) is one more type listed here,
 * or a change inside one step.
 *
 * <p>Thread-safe: one instance serves every fetcher and parse thread; all its steps are thread-safe.
 *
 * <p>Out of scope: taking leases and the end of the crawl ({@link FetchWorker}), a host's robots.txt
 * ({@link RobotsSteps}).
 */
public final class PageSteps {
    private final PageChecks checks;
    private final FetchStep fetch;
    private final FailureStep failures;
    private final RedirectStep redirects;
    private final SitemapStep sitemaps;
    private final ParseStep parse;
    private final LinkStep links;
    private final RecordStep records;
    /** Exchanges and counts; no records. */
    private final PageOutput output;
    private final long maxPageBytes;
    /** What the crawl learns from the pages it fetched, and the rules it applies. */
    private final Learner learner;

    /**
     * @param profile the crawl's profile, read here once: its traps and host budgets ({@link PageChecks}), retries,
     *     redirects, accepted types, sitemap and page sizes
     * @param fetcher the single attempts of the fetch step
     * @param parser the parser of HTML pages (its counts are the crawl's)
     * @param links the link decision of pages, sitemaps and redirects
     * @param output where exchanges and counts go
     * @param limitReached told the number of URLs decided after each lease closed with a record
     */
    public PageSteps(CrawlProfile profile, HttpFetcher fetcher, PageParser parser, LinkResolver links,
            PageOutput output, LongPredicate limitReached) {
        this(profile, fetcher, parser, links, output, limitReached, null);
    }

    /**
     * As {@link #PageSteps(CrawlProfile, HttpFetcher, PageParser, LinkResolver, PageOutput, LongPredicate)}, for a
     * recrawl of {@code earlier} (null for none): its pages asked for with their validators, a 304 recorded
     * {@code not-modified}, archived as revisits of the earlier capture.
     */
    public PageSteps(CrawlProfile profile, HttpFetcher fetcher, PageParser parser, LinkResolver links,
            PageOutput output, LongPredicate limitReached, EarlierCrawl earlier) {
        this(profile, fetcher, parser, links, output, limitReached, earlier, Learner.off());
    }

    /**
     * As {@link #PageSteps(CrawlProfile, HttpFetcher, PageParser, LinkResolver, PageOutput, LongPredicate,
     * EarlierCrawl)}, with the rules {@code learner} learns from the pages fetched ({@code scope.learn-duplicates})
     * applied to their links and to every page before its request.
     */
    public PageSteps(CrawlProfile profile, HttpFetcher fetcher, PageParser parser, LinkResolver links,
            PageOutput output, LongPredicate limitReached, EarlierCrawl earlier, Learner learner) {
        this.checks = new PageChecks(profile, learner);
        this.fetch = new FetchStep(fetcher, profile.scope().maxSitemapBytes(), earlier);
        this.failures = new FailureStep(RetryPolicy.of(profile), output);
        this.links = new LinkStep(links, profile, output, learner);
        this.learner = learner;
        this.redirects = new RedirectStep(this.links, profile.fetch().maxRedirects());
        this.sitemaps = new SitemapStep(profile.scope().maxSitemapBytes(), this.links);
        this.parse = new ParseStep(parser, profile, output);
        this.records = new RecordStep(output, limitReached);
        this.output = output;
        this.maxPageBytes = profile.limits().maxPageBytes();
    }

    /** The steps of one page lease, in order; see the class comment. */
    void take(PageLease lease) throws IOException {
        PendingUrl task = lease.task();
        Optional<Ending> refused = checks.refusal(task, lease.hostDown(), lease.robots());
        if (refused.isPresent()) {
            records.refused(lease, refused.get());
            return;
        }
        try (FetchStep.Fetched fetched = fetch.take(task)) {
            if (fetched.result() instanceof FetchResult.Failure failure) {
                Optional<Ending> givenUp = failures.take(lease, failure);
                if (givenUp.isPresent()) {
                    records.close(lease, givenUp.get(), output.archive(failure.exchange()));
                }
                return;
            }
            lease.requestEnded(); // the host's delay starts now, and its slot is free for the next request
            Recapture recapture = fetch.recapture(fetched);
            Optional<WarcLocation> at = recapture == null ? output.archive(fetched.result().exchange())
                    : output.archive(fetched.result().exchange(), recapture);
            if (fetched.result() instanceof FetchResult.Redirect redirect) {
                records.close(lease, redirects.target(task, redirect), at);
                return;
            }
            FetchResult.Page page = (FetchResult.Page) fetched.result();
            if (fetched.notModified()) {
                records.close(lease, Ending.of(PageRecords.notModified(task, page, fetched.earlier())), at);
            } else if (task.isCheck()) {
                records.close(lease, Ending.of(PageRecords.checked(task, page)), at);
            } else if (task.isSitemapProbe() && page.status() >= 400 && page.status() < 500) {
                records.close(lease, Ending.of(PageRecords.noSitemap(task, page)), at);
            } else if (page.status() >= 400) {
                records.close(lease, Ending.of(PageRecords.httpError(task, page)), at);
            } else if (task.isSitemap()) {
                records.close(lease, sitemaps.read(task, page), at);
            } else if (!parse.accepts(page)) {
                records.close(lease, Ending.of(PageRecords.notHtml(task, page)), at);
            } else {
                parse.later(lease, page, at,
                        parsed -> {
                            if (page.status() < 300) {
                                learner.observe(task.url(), parsed.simhash());
                            }
                            records.close(lease, Ending.withLinks(PageRecords.fetched(task, page, parsed,
                                    maxPageBytes), links.ofPage(task, parsed)), at);
                        },
                        bug -> records.close(lease, Ending.of(PageRecords.parseBug(task, page, bug)), at));
            }
        }
    }

    /** Throws what a parse thread met that ends the crawl, if anything did (see {@link ParseStep#throwFailure()}). */
    void throwParseFailure() {
        parse.throwFailure();
    }

    /**
     * Waits for the pages handed to the parse threads, then stops them.
     *
     * @throws IOException if writing a parsed page's record failed
     */
    void finishParsing() throws IOException {
        parse.finish();
    }

    /**
     * Cancels the requests in flight and any made from now on; their leases are put back unrecorded
     * ({@link FailureStep}).
     */
    void cancelInFlight() {
        fetch.cancelInFlight();
    }
}
