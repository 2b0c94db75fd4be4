package org.sievecrawler.link;

import okhttp3.HttpUrl;
import org.sievecrawler.link.LinkDecision.Accept;

/**
 * Decides the links of crawled pages: {@link UrlNormalizer#resolve} then {@link LinkScope#decide}, remembering
 * the depth-free decision of each (href, base context) so that the navigation links repeated on every page
 * cost a map lookup instead of a parse. The context is only as much of the base as the href depends on:
 * nothing for {@code http(s)://} links, the scheme for {@code //host} links, the origin for absolute paths,
 * the directory for plain relative paths, and the whole base otherwise.
 *
 * <p>Thread-safe. The memo is one direct-mapped table of {@value #SLOTS} decisions shared by all threads, in
 * which a newer link simply replaces an older one on the same slot: no lock, no key allocation, and the links
 * that recur on every page stay while one-off links pass through. Entries are immutable records, published
 * safely through their final fields, so the unsynchronized slots can only lose a decision (which is then
 * computed again), never show half of one. One table, not one per thread: with 16 fetcher threads on 2
 * cores, 16 tables no longer fit in the caches and each lookup missed.
 */
public final class LinkResolver {
    static final int SLOTS = 8192;

    private final UrlNormalizer normalizer;
    private final LinkScope scope;
    private final Entry[] memo = new Entry[SLOTS];

    public LinkResolver(UrlNormalizer normalizer, LinkScope scope) {
        this.normalizer = normalizer;
        this.scope = scope;
    }

    /** The links of the page whose links resolve against {@code base}. */
    public PageLinks forPage(HttpUrl base) {
        return new PageLinks(base);
    }

    /** Decisions for the links of one page; meant for the thread handling that page. */
    public final class PageLinks {
        private final HttpUrl base;
        private final String scheme;
        private final String origin;
        private final String directory;
        private final String whole;
        private final Entry[] table;

        private PageLinks(HttpUrl base) {
            this.base = base;
            this.table = memo;
            this.scheme = base.scheme();
            String url = base.toString();
            int fragment = url.indexOf('#');
            this.whole = fragment < 0 ? url : url.substring(0, fragment);
            int pathStart = url.indexOf('/', scheme.length() + 3);
            this.origin = pathStart < 0 ? url : url.substring(0, pathStart);
            String path = base.encodedPath();
            this.directory = origin + path.substring(0, path.lastIndexOf('/') + 1);
        }

        /** The decision for {@code href} found on this page, for a link {@code depth} from the seeds. */
        public LinkDecision decide(String href, int depth) {
            String context = context(href);
            int hash = href.hashCode() * 31 + context.hashCode();
            int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
            Entry entry = table[slot];
            LinkDecision decision;
            if (entry != null && entry.href.equals(href) && entry.context.equals(context)) {
                decision = entry.decision;
            } else {
                decision = normalizer.resolve(base, href);
                if (decision instanceof Accept accept) {
                    decision = scope.decide(accept.url(), 0);
                }
                table[slot] = new Entry(context, href, decision);
            }
            return decision instanceof Accept accept ? scope.depthCheck(accept, depth) : decision;
        }

        private String context(String href) {
            if (href.isEmpty()) {
                return whole;
            }
            char first = href.charAt(0);
            if (first == 'h' && (href.startsWith("https://") || href.startsWith("http://"))) {
                return "";
            }
            if (first == '/') {
                if (href.length() > 1 && (href.charAt(1) == '/' || href.charAt(1) == '\\')) {
                    return scheme;
                }
                return origin;
            }
            if (first == '?' || first == '#' || first == '.' || first <= ' ' || first == '\\') {
                return whole;
            }
            return directory;
        }
    }

    private record Entry(String context, String href, LinkDecision decision) {
    }
}
