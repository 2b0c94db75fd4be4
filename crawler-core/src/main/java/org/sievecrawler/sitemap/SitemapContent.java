package org.sievecrawler.sitemap;

import java.util.List;

/**
 * What one sitemap lists, as written in it (absolute URLs, not yet normalized or scoped): pages for a sitemap, or
 * further sitemaps for a sitemap index.
 *
 * @param pages the page URLs of a sitemap (empty for an index)
 * @param sitemaps the sitemap URLs of a sitemap index (empty for a sitemap)
 */
public record SitemapContent(List<String> pages, List<String> sitemaps) {
    public SitemapContent {
        pages = List.copyOf(pages);
        sitemaps = List.copyOf(sitemaps);
    }

    /** URLs found in it: its pages, or its sitemaps for an index. */
    public int found() {
        return pages.size() + sitemaps.size();
    }
}
