package org.sievecrawler.sieve;

/**
 * A URL waiting in the frontier, with what the crawl needs to decide about it.
 *
 * @param url the normalized absolute URL
 * @param depth links followed from a seed (seeds are 0)
 * @param referrer the page it was found on, or null for a seed
 * @param attempt fetch attempts already made (0 for a new URL; raised by each retry)
 * @param redirects redirects followed to reach it (0 unless it is a redirect target)
 * @param purpose whether it is a page of the crawl, a host's robots.txt (fetched first) or a sitemap
 */
public record PendingUrl(String url, int depth, String referrer, int attempt, int redirects, Purpose purpose) {

    /** Why a URL is in the frontier. */
    public enum Purpose {
        /** A page of the crawl: fetched, recorded, parsed for links. */
        PAGE,
        /** A host's robots.txt, handed out by the politeness scheduler before the host's first page. */
        ROBOTS,
        /**
         * A sitemap (XML, an index, text, gzipped or not): fetched through the frontier like a page (the host's
         * politeness, robots.txt and budget apply), recorded with outcome {@code sitemap}, and its URLs offered to
         * the Sieve instead of links.
         */
        SITEMAP,
        /**
         * A link target out of scope, checked once ({@code scope.check-external}): fetched with HEAD (GET where HEAD
         * is refused) through the frontier like a page (the host's politeness and robots.txt apply), recorded with
         * outcome {@code checked}, never parsed.
         */
        CHECK
    }

    public PendingUrl {
        if (url == null || url.isEmpty()) {
            throw new IllegalArgumentException("url must not be empty");
        }
        if (depth < 0 || attempt < 0 || redirects < 0) {
            throw new IllegalArgumentException("depth, attempt and redirects must be >= 0, were "
                    + depth + ", " + attempt + ", " + redirects + " for " + url);
        }
    }

    /** A seed: depth 0, no referrer. */
    public static PendingUrl seed(String url) {
        return new PendingUrl(url, 0, null, 0, 0, Purpose.PAGE);
    }

    /** A link found on {@code referrer}, one level deeper. */
    public static PendingUrl link(String url, PendingUrl referrer) {
        return new PendingUrl(url, referrer.depth + 1, referrer.url, 0, 0, Purpose.PAGE);
    }

    /** The target of a redirect from {@code from}: same depth and purpose (a sitemap's target is one), one more redirect. */
    public static PendingUrl redirect(String url, PendingUrl from) {
        return new PendingUrl(url, from.depth, from.url, 0, from.redirects + 1, from.purpose);
    }

    /**
     * A sitemap at {@code url}, {@code depth} from the seeds (0 for one a host names in robots.txt or a seed host's
     * {@code /sitemap.xml}; an index's sitemaps have the index's depth), found on {@code referrer} (null for none).
     */
    public static PendingUrl sitemap(String url, int depth, String referrer) {
        return new PendingUrl(url, depth, referrer, 0, 0, Purpose.SITEMAP);
    }

    /** An out-of-scope link target found on {@code referrer}, to be checked, one level deeper. */
    public static PendingUrl check(String url, PendingUrl referrer) {
        return new PendingUrl(url, referrer.depth + 1, referrer.url, 0, 0, Purpose.CHECK);
    }

    /** {@code url} as a page of the crawl, found where this was: a checked link that redirects into the scope. */
    public PendingUrl asPage() {
        return new PendingUrl(url, depth, referrer, attempt, redirects, Purpose.PAGE);
    }

    /**
     * {@code url} in this task's place, found where it was (same depth, referrer, redirects and purpose), not yet
     * attempted: a learned rule's rewrite of it.
     */
    public PendingUrl instead(String url) {
        return new PendingUrl(url, depth, referrer, 0, redirects, purpose);
    }

    /** This URL again, for another attempt. */
    public PendingUrl nextAttempt() {
        return new PendingUrl(url, depth, referrer, attempt + 1, redirects, purpose);
    }

    public boolean isRobots() {
        return purpose == Purpose.ROBOTS;
    }

    public boolean isCheck() {
        return purpose == Purpose.CHECK;
    }

    public boolean isSitemap() {
        return purpose == Purpose.SITEMAP;
    }

    /**
     * Whether this is the crawl's guess at a seed host's {@code /sitemap.xml} ({@code scope.sitemaps}): a sitemap
     * found on no page, robots.txt or index (no referrer), which a site may well not have.
     */
    public boolean isSitemapProbe() {
        return purpose == Purpose.SITEMAP && referrer == null;
    }
}
