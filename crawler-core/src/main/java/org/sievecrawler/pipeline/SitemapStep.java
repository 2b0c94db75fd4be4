package org.sievecrawler.pipeline;

import java.util.List;
import org.sievecrawler.fetch.FetchResult;
import org.sievecrawler.sieve.PendingUrl;
import org.sievecrawler.sink.PageRecords;
import org.sievecrawler.sitemap.SitemapContent;
import org.sievecrawler.sitemap.SitemapException;
import org.sievecrawler.sitemap.SitemapReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read step of a sitemap (a 2xx or 3xx-without-Location answer), in the fetcher thread, not parsed as HTML: its
 * URLs (pages one level deeper, or an index's sitemaps at its own depth) go through the same link decision as links
 * ({@link LinkStep}), and it ends with outcome {@code sitemap} and the number of URLs it lists; one cut at
 * {@code scope.max-sitemap-bytes} or in no sitemap format ends as an error, none of its URLs followed.
 *
 * <p>A sitemap ({@link PendingUrl.Purpose#SITEMAP}: one robots.txt names, a seed host's {@code /sitemap.xml} with
 * {@code scope.sitemaps}, or one a sitemap index lists) is a page of a special kind: it has a page lease, so the
 * host's politeness delay and connection limit, robots.txt and traps apply as to any request, and it takes the host's
 * sitemap budget ({@code scope.max-sitemaps-per-host}) instead of its pages' ({@link PageChecks}); how many are read
 * at once: {@link FetchStep}.
 *
 * <p>Thread-safe: immutable.
 */
final class SitemapStep {
    private static final Logger LOG = LoggerFactory.getLogger(SitemapStep.class);

    private final SitemapReader sitemaps;
    private final LinkStep links;

    SitemapStep(long maxSitemapBytes, LinkStep links) {
        this.sitemaps = new SitemapReader(maxSitemapBytes);
        this.links = links;
    }

    /** How the lease of the sitemap {@code task} ends, {@code page} its answer. */
    Ending read(PendingUrl task, FetchResult.Page page) {
        SitemapContent content;
        try {
            content = sitemaps.read(task.url(), page.body(), page.length(), page.truncated());
        } catch (SitemapException e) {
            LOG.info("{}", e.getMessage());
            return Ending.of(PageRecords.unreadableSitemap(task, page, e.getMessage()));
        }
        if (content.cut()) {
            LOG.info("sitemap {} lists {} URLs, more than the {} a sitemap may list: the first {} are read", task.url(),
                    content.listed(), SitemapReader.MAX_URLS, content.found());
        }
        links.sitemapEdges(task.url(), content.pages(), task.depth() + 1);
        List<PendingUrl> found = links.listed(task.url(), content.pages(), task.depth() + 1,
                url -> PendingUrl.link(url, task));
        found.addAll(links.listed(task.url(), content.sitemaps(), task.depth(),
                url -> PendingUrl.sitemap(url, task.depth(), task.url())));
        return Ending.withLinks(PageRecords.sitemap(task, page, content.found(), content.listed()), found);
    }
}
