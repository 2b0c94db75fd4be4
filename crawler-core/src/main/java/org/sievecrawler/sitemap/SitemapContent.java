package org.sievecrawler.sitemap;

import java.util.List;

/**
 * What one sitemap lists, as written in it (absolute URLs, not yet normalized or scoped): pages for a sitemap, or
 * further sitemaps for a sitemap index; at most {@link SitemapReader#MAX_URLS} of them.
 *
 * @param pages the page URLs of a sitemap (empty for an index)
 * @param sitemaps the sitemap URLs of a sitemap index (empty for a sitemap)
 * @param listed the URLs the sitemap lists in all, those past {@link SitemapReader#MAX_URLS} too
 */
public record SitemapContent(List<String> pages, List<String> sitemaps, int listed) {
    public SitemapContent {
        pages = List.copyOf(pages);
        sitemaps = List.copyOf(sitemaps);
    }

    /** URLs found in it and kept: its pages, or its sitemaps for an index. */
    public int found() {
        return pages.size() + sitemaps.size();
    }

    /** Whether it lists more URLs than were kept (more than {@link SitemapReader#MAX_URLS}). */
    public boolean cut() {
        return listed > found();
    }
}
