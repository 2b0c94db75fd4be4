package org.sievecrawler.sink;

import org.sievecrawler.fetch.FailureKind;
import org.sievecrawler.fetch.FetchResult;
import org.sievecrawler.parse.ParsedPage;
import org.sievecrawler.parse.SimHash;
import org.sievecrawler.sieve.PendingUrl;

/**
 * The {@link PageRecord} of each way a URL the crawl took can end, one factory per outcome: the task gives the URL,
 * depth and referrer, the fetch result the status, sizes and time, and each factory the outcome and the error
 * message (the wording pages.jsonl readers and the tests rely on).
 *
 * <p>Stateless. Out of scope: where the record goes (it closes its page's lease, and the frontier writes it) and
 * its place in the WARC files ({@link PageRecord#withWarc}).
 */
public final class PageRecords {

    private PageRecords() {
    }

    /** A page decided without a request (robots.txt, a trap, an unreachable host): no status, no bytes. */
    public static PageRecord refused(PendingUrl task, Outcome outcome, String error) {
        return PageRecord.refused(task.url(), outcome, task.depth(), task.referrer(), error);
    }

    /**
     * A parsed page: {@link Outcome#FETCHED}, or {@link Outcome#TRUNCATED} with an error naming the cap when its body
     * was cut at {@code limits.max-page-bytes} ({@code maxPageBytes}); with its body's digest and its text's SimHash.
     */
    public static PageRecord fetched(PendingUrl task, FetchResult.Page page, ParsedPage parsed, long maxPageBytes) {
        return new PageRecord(task.url(), page.status(), page.truncated() ? Outcome.TRUNCATED : Outcome.FETCHED,
                page.contentType(), task.depth(), page.length(), page.fetchMillis(), parsed.followable(),
                parsed.title(), null, task.referrer(),
                page.truncated() ? "body cut at limits.max-page-bytes " + maxPageBytes : null, parsed.noindex())
                .withFingerprints(digest(page), parsed.simhash() == 0 ? null : SimHash.hex(parsed.simhash()))
                .withTtfb(page.ttfbMillis()).withValidators(etag(page), lastModified(page));
    }

    /**
     * A sitemap read: {@link Outcome#SITEMAP}, with the URLs read from it ({@code found}) as its outlinks; one that
     * lists more ({@code listed}, past the protocol's limit) says so in its error field.
     */
    public static PageRecord sitemap(PendingUrl task, FetchResult.Page page, int found, int listed) {
        return new PageRecord(task.url(), page.status(), Outcome.SITEMAP, page.contentType(), task.depth(),
                page.length(), page.fetchMillis(), found, null, null, task.referrer(),
                listed > found ? "lists " + listed + " URLs, more than the " + found + " a sitemap may list: the first "
                        + found + " were read" : null, false).withTtfb(page.ttfbMillis())
                .withValidators(etag(page), lastModified(page));
    }

    /** A sitemap that could not be read ({@code problem} says why): an error, none of its URLs followed. */
    public static PageRecord unreadableSitemap(PendingUrl task, FetchResult.Page page, String problem) {
        return unparsed(task, page, Outcome.ERROR, problem);
    }

    /** A final 4xx or 5xx answer: "HTTP 404". */
    public static PageRecord httpError(PendingUrl task, FetchResult.Page page) {
        return unparsed(task, page, Outcome.HTTP_ERROR, "HTTP " + page.status());
    }

    /** The probe of a seed host's {@code /sitemap.xml} answered 4xx: "no sitemap (HTTP 404)". */
    public static PageRecord noSitemap(PendingUrl task, FetchResult.Page page) {
        return unparsed(task, page, Outcome.NO_SITEMAP, "no sitemap (HTTP " + page.status() + ")");
    }

    /** A link target out of scope, checked: its answer's status, never parsed. */
    public static PageRecord checked(PendingUrl task, FetchResult.Page page) {
        return unparsed(task, page, Outcome.CHECKED, null);
    }

    /**
     * A recrawl's page answered 304 Not Modified: {@link Outcome#NOT_MODIFIED}, the content fields (type, title,
     * outlinks, noindex, digest, SimHash) those of the {@code earlier} record, the validators the 304 sent, each
     * else the earlier one (RFC 9110 lets a 304 update them), no body bytes.
     */
    public static PageRecord notModified(PendingUrl task, FetchResult.Page page, PageRecord earlier) {
        String etag = etag(page);
        String lastModified = lastModified(page);
        return new PageRecord(task.url(), page.status(), Outcome.NOT_MODIFIED, earlier.contentType(), task.depth(),
                0, page.fetchMillis(), earlier.outlinks(), earlier.title(), null, task.referrer(), null,
                earlier.noindex()).withFingerprints(earlier.digest(), earlier.simhash()).withTtfb(page.ttfbMillis())
                .withValidators(etag != null ? etag : earlier.etag(),
                        lastModified != null ? lastModified : earlier.lastModified());
    }

    /** A page whose content type is not in {@code fetch.accept}: not parsed. */
    public static PageRecord notHtml(PendingUrl task, FetchResult.Page page) {
        return unparsed(task, page, Outcome.NOT_HTML, null).withFingerprints(digest(page), null);
    }

    /** The {@link PayloadDigest} of a page answered with a 2xx status, else null (an error page's is no content's). */
    private static String digest(FetchResult.Page page) {
        return page.status() >= 200 && page.status() < 300 ? PayloadDigest.of(page.body(), page.length()) : null;
    }

    /** A page the parser failed on (a bug met on it): an error, its links not followed. */
    public static PageRecord parseBug(PendingUrl task, FetchResult.Page page, RuntimeException bug) {
        return unparsed(task, page, Outcome.ERROR, "parsing failed: " + bug);
    }

    private static PageRecord unparsed(PendingUrl task, FetchResult.Page page, Outcome outcome, String error) {
        return new PageRecord(task.url(), page.status(), outcome, page.contentType(), task.depth(), page.length(),
                page.fetchMillis(), 0, null, null, task.referrer(), error, false).withTtfb(page.ttfbMillis())
                .withValidators(etag(page), lastModified(page));
    }

    /** {@code page}'s ETag header as sent, or null: a validator a later crawl may send back (If-None-Match). */
    private static String etag(FetchResult.Page page) {
        return page.headers() == null ? null : page.headers().get("ETag");
    }

    /** {@code page}'s Last-Modified header as sent, or null: for a later crawl's If-Modified-Since. */
    private static String lastModified(FetchResult.Page page) {
        return page.headers() == null ? null : page.headers().get("Last-Modified");
    }

    /** A redirect followed (or its target recorded out of scope) to {@code to}, the normalized target. */
    public static PageRecord redirect(PendingUrl task, FetchResult.Redirect redirect, String to) {
        return redirectRecord(task, redirect, Outcome.REDIRECT, to, null);
    }

    /** A redirect whose Location gives no crawlable URL; {@code detail} says what is wrong with it. */
    public static PageRecord unusableRedirect(PendingUrl task, FetchResult.Redirect redirect, String detail) {
        return redirectRecord(task, redirect, Outcome.ERROR, null, "unusable redirect target: " + detail);
    }

    /** A redirect to {@code to}, not followed: the task already followed {@code fetch.max-redirects} ({@code max}). */
    public static PageRecord redirectChainTooLong(PendingUrl task, FetchResult.Redirect redirect, String to, int max) {
        return redirectRecord(task, redirect, Outcome.ERROR, to,
                "redirect chain longer than fetch.max-redirects " + max);
    }

    private static PageRecord redirectRecord(PendingUrl task, FetchResult.Redirect redirect, Outcome outcome,
            String to, String error) {
        return new PageRecord(task.url(), redirect.status(), outcome, null, task.depth(), 0, redirect.fetchMillis(), 0,
                null, to, task.referrer(), error, false);
    }

    /**
     * The target {@code to} of a redirect from {@code from}, outside the crawl's scope ({@code detail} says why): a
     * record without a task of its own, at the redirect's depth, with the redirect as its referrer.
     */
    public static PageRecord outOfScopeTarget(String to, PendingUrl from, String detail) {
        return PageRecord.refused(to, Outcome.OUT_OF_SCOPE, from.depth(), from.url(), detail);
    }

    /**
     * A fetch that failed for good: {@link Outcome#HTTP_ERROR} for a status (a 503 retried too often),
     * {@link Outcome#UNREACHABLE} for a host that could not be reached, {@link Outcome#OUT_OF_SCOPE} for a host the
     * address guard refused (the link check's rule, met at DNS time), else {@link Outcome#ERROR}; the error is the
     * failure's detail followed by {@code giveUp} (the attempts made and why no more, or "").
     */
    public static PageRecord failure(PendingUrl task, FetchResult.Failure failure, String giveUp) {
        Outcome outcome = failure.status() >= 400 ? Outcome.HTTP_ERROR
                : failure.kind().unreachable() ? Outcome.UNREACHABLE
                : failure.kind() == FailureKind.PRIVATE_ADDRESS ? Outcome.OUT_OF_SCOPE : Outcome.ERROR;
        return new PageRecord(task.url(), failure.status(), outcome, null, task.depth(), 0, failure.fetchMillis(), 0,
                null, null, task.referrer(), failure.detail() + giveUp, false);
    }
}
