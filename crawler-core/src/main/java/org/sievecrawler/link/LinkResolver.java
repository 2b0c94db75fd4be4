package org.sievecrawler.link;

import okhttp3.HttpUrl;
import org.sievecrawler.link.LinkDecision.Accept;

/**
 * Decides the links of crawled pages: {@link UrlNormalizer#resolve} then {@link LinkScope#decide}, in two ways
 * that give the same decisions as those two calls. Plain relative links on a normalized page (letters, digits,
 * {@code -_.~/}, leading {@code ../}) are joined to the page's directory or origin without parsing and checked
 * against the scope's rules for the page's origin, worked out once per page. Every other link goes through a
 * memo of the depth-free decision of each (href, base context), so that links repeated on every page cost a
 * lookup instead of a parse. The context is only as much of the base as the href depends on: nothing for
 * {@code http(s)://} links, the scheme for {@code //host} links, the origin for absolute paths, the directory
 * for plain relative paths, and the whole base otherwise.
 *
 * <p>Redirect targets ({@link #decideRedirect}) are decided the same way as links, by the two calls themselves
 * (one per redirect: no memo), telling a Location that gives no URL from a target the scope refuses.
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
        return new PageLinks(base, null);
    }

    /**
     * The links of a page fetched from {@code pageUrl}, a URL as the normalizer gives it (as every URL the crawl
     * fetches is), whose links resolve against {@code base}: when the base is the page's URL, as it is without
     * a {@code <base href>}, it is known to be normalized and is not normalized again.
     */
    public PageLinks forPage(HttpUrl base, String pageUrl) {
        return new PageLinks(base, pageUrl);
    }

    /**
     * Where a redirect from {@code from} (a URL as the normalizer gives it) to {@code location} (the raw Location
     * header, null when there is none) leads, {@code depth} from the seeds: resolved and normalized as a link on
     * {@code from} is, then scoped as a link at that depth, so a target gets the same Accept or Reject, for the same
     * reason, as the same link would.
     */
    public RedirectTarget decideRedirect(String from, String location, int depth) {
        if (location == null) {
            return new RedirectTarget.Unusable("no Location header");
        }
        LinkDecision resolved = normalizer.resolve(HttpUrl.get(from), location);
        if (resolved instanceof LinkDecision.Reject reject) {
            return new RedirectTarget.Unusable(reject.detail());
        }
        Accept accept = (Accept) resolved;
        return new RedirectTarget.Resolved(accept.url(), scoped(accept, scope.decide(accept.url(), depth)));
    }

    /** The scope's decision on a normalized URL, an Accept saying still whether the normalizer removed parameters. */
    private static LinkDecision scoped(Accept normalized, LinkDecision decision) {
        return normalized.paramsIgnored() && decision instanceof Accept accept && !accept.paramsIgnored()
                ? new Accept(accept.url(), true) : decision;
    }

    /** Decisions for the links of one page; meant for the thread handling that page. */
    public final class PageLinks {
        private final HttpUrl base;
        private final String scheme;
        private final String origin;
        private final String directory;
        private final String whole;
        private final Entry[] table;
        /** The scope's rules for the base's origin when the base is normalized, so plain hrefs skip the parse
         *  and the memo (see fastPath); else null. */
        private final LinkScope.OnOrigin sameOrigin;

        private PageLinks(HttpUrl base, String normalizedPageUrl) {
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
            boolean baseNormal = fragment < 0 && (url.equals(normalizedPageUrl)
                    || normalizer.normalize(url) instanceof Accept accept && accept.url().equals(url));
            this.sameOrigin = baseNormal ? scope.onOrigin(url) : null;
        }

        /**
         * The normalized URL of {@code href} on this page whatever the scope says (for the link graph's links out of
         * scope), or null when it gives no crawlable URL.
         */
        public String target(String href) {
            return normalizer.resolve(base, href) instanceof Accept accept ? accept.url() : null;
        }

        /** The decision for {@code href} found on this page, for a link {@code depth} from the seeds. */
        public LinkDecision decide(String href, int depth) {
            String fast = sameOrigin != null ? fastPath(href) : null;
            LinkDecision decision = fast != null ? sameOrigin.decide(fast) : memoized(href);
            return decision instanceof Accept accept ? scope.depthCheck(accept, depth) : decision;
        }

        /** The depth-free decision for an href the fast path does not take, from the memo or computed. */
        private LinkDecision memoized(String href) {
            String context = context(href);
            int hash = href.hashCode() * 31 + context.hashCode();
            int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
            Entry entry = table[slot];
            if (entry != null && entry.href.equals(href) && entry.context.equals(context)) {
                return entry.decision;
            }
            LinkDecision decision = normalizer.resolve(base, href);
            if (decision instanceof Accept accept) {
                decision = scoped(accept, scope.decide(accept.url(), 0));
            }
            table[slot] = new Entry(context, href, decision);
            return decision;
        }

        /**
         * The normalized URL of a simple href without parsing: an absolute URL on the page's origin written as
         * the normalized origin, an absolute path or a relative one (leading {@code ../} segments allowed), then
         * only unreserved characters and '/', an optional fragment, no query, no dot segment inside; or null for anything else, which takes the full parse. Valid only
         * against a normalized base: then origin or directory plus the href is already normal.
         */
        private String fastPath(String href) {
            int end = href.indexOf('#');
            if (end < 0) {
                end = href.length();
            }
            if (end == 0) {
                return whole; // "" or "#fragment": the page itself
            }
            String prefix;
            int start = 0;
            int check = 0; // where the plain-character check starts
            if (href.charAt(0) == 'h' && end > origin.length() && href.charAt(origin.length()) == '/'
                    && href.startsWith(origin)) {
                // an absolute link to this page's origin, written as the normalized origin is
                if (end > origin.length() + 1 && href.charAt(origin.length() + 1) == '/') {
                    return null;
                }
                prefix = "";
                check = origin.length();
            } else if (href.charAt(0) == '/') {
                if (end > 1 && href.charAt(1) == '/') {
                    return null;
                }
                prefix = origin;
            } else {
                String dir = directory;
                while (href.startsWith("../", start)) {
                    int parent = dir.lastIndexOf('/', dir.length() - 2);
                    if (parent < origin.length()) {
                        return null; // above the root: let the parser apply its rule
                    }
                    dir = dir.substring(0, parent + 1);
                    start += 3;
                }
                prefix = dir;
                check = start;
            }
            char previous = '/';
            for (int i = check; i < end; i++) {
                char c = href.charAt(i);
                boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                        || c == '-' || c == '_' || c == '~' || c == '/' || c == '.';
                if (!plain || (c == '.' && previous == '/' && (i + 1 == end || href.charAt(i + 1) == '/'
                        || href.charAt(i + 1) == '.'))) {
                    return null; // something to encode, or a "." or ".." segment
                }
                previous = c;
            }
            if (start == end && start > 0) {
                return prefix.length() > UrlNormalizer.MAX_LENGTH ? null : prefix;
            }
            int length = prefix.length() + (end - start);
            if (length > UrlNormalizer.MAX_LENGTH) {
                return null;
            }
            return prefix.isEmpty() && start == 0 && end == href.length() ? href
                    : prefix + href.substring(start, end);
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
