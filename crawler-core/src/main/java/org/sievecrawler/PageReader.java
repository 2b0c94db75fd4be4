package org.sievecrawler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import okhttp3.HttpUrl;
import org.sievecrawler.fetch.FetchResult;
import org.sievecrawler.link.LinkDecision;
import org.sievecrawler.link.LinkResolver;
import org.sievecrawler.link.RedirectTarget;
import org.sievecrawler.parse.Outlink;
import org.sievecrawler.parse.PageParser;
import org.sievecrawler.parse.ParsedPage;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.sieve.PendingUrl;

/**
 * The parse and link steps of a fetched HTML page: it parses the page ({@link PageParser}) and decides the links
 * the crawl may follow from it ({@link LinkResolver}), honouring {@code rel=nofollow} and {@code <meta robots
 * nofollow>} unless {@code parse.follow-nofollow} is on.
 *
 * <p>Thread-safe, as the parser and the resolver are; called from the parse threads.
 *
 * <p>Out of scope: offering the links to the Sieve and counting the refused ones (the crawl's), and recording the page.
 */
final class PageReader {
    private final PageParser parser;
    private final LinkResolver links;
    private final boolean followNofollow;

    PageReader(PageParser parser, LinkResolver links, CrawlProfile profile) {
        this.parser = parser;
        this.links = links;
        this.followNofollow = profile.parse().followNofollow();
    }

    /** Parses {@code page}. */
    ParsedPage parse(FetchResult.Page page) {
        return parser.parse(page.body(), page.length(), page.contentType(), page.url());
    }

    /**
     * The decisions about the links of {@code task}'s page that may be followed, in document order: none when the
     * page says nofollow, and not those marked nofollow (unless {@code parse.follow-nofollow}).
     */
    List<LinkDecision> links(PendingUrl task, ParsedPage parsed) {
        if (!followNofollow && parsed.nofollow()) {
            return List.of();
        }
        LinkResolver.PageLinks pageLinks = links.forPage(parsed.base(), task.url());
        List<LinkDecision> decisions = new ArrayList<>(parsed.links().size());
        for (Outlink link : parsed.links()) {
            if (followNofollow || !link.nofollow()) {
                decisions.add(pageLinks.decide(link.href(), task.depth() + 1));
            }
        }
        return decisions;
    }

    /**
     * The decisions about {@code urls} listed in the sitemap (or named in the robots.txt) at {@code at}, as links
     * found there {@code depth} from the seeds: resolved against it, normalized and scoped like a page's links.
     */
    List<LinkDecision> listed(String at, List<String> urls, int depth) {
        LinkResolver.PageLinks pageLinks = links.forPage(HttpUrl.get(at), at);
        List<LinkDecision> decisions = new ArrayList<>(urls.size());
        for (String url : urls) {
            decisions.add(pageLinks.decide(url, depth));
        }
        return decisions;
    }

    /** Where a redirect from {@code task} to {@code location} leads (see {@link LinkResolver#decideRedirect}). */
    RedirectTarget redirect(PendingUrl task, String location) {
        return links.decideRedirect(task.url(), location, task.depth());
    }

    /**
     * The metadata fields of a page's outlinks, in document order, as Heritrix writes them:
     * {@code outlink: URL HOP CONTEXT}, the URL resolved against the page's base (links that resolve to no
     * http(s) URL are left out), HOP {@code L} for a link and {@code E} for an embedded frame, CONTEXT the element
     * and attribute.
     */
    static List<Map.Entry<String, String>> outlinks(ParsedPage parsed) {
        List<Map.Entry<String, String>> fields = new ArrayList<>(parsed.links().size());
        for (Outlink link : parsed.links()) {
            HttpUrl url = parsed.base().resolve(link.href());
            if (url != null) {
                String via = switch (link.kind()) {
                    case A -> "L a/@href";
                    case AREA -> "L area/@href";
                    case CANONICAL, LINK -> "L link/@href";
                    case FRAME -> "E frame/@src";
                    case IFRAME -> "E iframe/@src";
                };
                fields.add(Map.entry("outlink", url + " " + via));
            }
        }
        return fields;
    }
}
