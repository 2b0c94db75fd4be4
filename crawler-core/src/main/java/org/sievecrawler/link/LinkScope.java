package org.sievecrawler.link;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import okhttp3.HttpUrl;
import org.sievecrawler.address.IpLiteral;
import org.sievecrawler.address.SpecialRanges;
import org.sievecrawler.address.Verdict;
import org.sievecrawler.link.LinkDecision.Accept;
import org.sievecrawler.link.LinkDecision.Reject;
import org.sievecrawler.profile.ScopeConfig;

/**
 * Which normalized URLs the crawl follows: built from the profile's {@link ScopeConfig}, the seeds and whether
 * private addresses are allowed. {@link #decide(String, int)} checks, in this order (the first failure is the
 * reason, so each count in the summary says what a change of that one setting would let in):
 * <ol>
 *   <li>{@link RejectReason#MALFORMED}: not a normalized http(s) URL; {@link RejectReason#TOO_LONG}: over
 *       {@link UrlNormalizer#MAX_LENGTH};
 *   <li>{@link RejectReason#PRIVATE_ADDRESS}: the host is {@code localhost} or an IP literal, in any form, that
 *       the table of special-purpose ranges refuses ({@link SpecialRanges}: loopback, private-use, shared,
 *       link-local, documentation, multicast, ..., and IPv6 forms embedding such an IPv4 address), unless private
 *       addresses are allowed or the URL's host <em>and port</em> are those of a seed;
 *   <li>{@link RejectReason#OFF_HOST}: the host matches no host pattern;
 *   <li>{@link RejectReason#EXCLUDED}: an exclude pattern is found in the URL;
 *   <li>{@link RejectReason#NOT_INCLUDED}: there are include patterns and none is found in the URL;
 *   <li>{@link RejectReason#TOO_DEEP}: the depth is over max depth (seeds are depth 0; -1 means no limit).
 * </ol>
 *
 * <p>Hosts: {@code same-as-seeds} means exactly the seeds' host names, on any port and either scheme (so
 * {@code http://example.org/} may move to {@code https://example.org/}); {@code example.org} means exactly that
 * host; {@code *.example.org} means that domain and all its subdomains; {@code any} means every host (a broad
 * crawl: the address rule before it and the path rules after it still apply, so private addresses stay refused
 * unless allowed or a seed's). Matching is on the normalized (lower-case, punycode) host. {@code same-as-seeds} may
 * be listed next to patterns, adding the seeds' hosts to them.
 *
 * <p>Private seeds: a crawl of {@code http://127.0.0.1:8080/} stays on 127.0.0.1 by the host rule, and the
 * address rule narrows that to port 8080, so a page cannot steer the crawler to another local service
 * ({@code http://127.0.0.1:6379/}); other private hosts stay refused.
 *
 * <p>Thread-safe: immutable after construction. Built on seed hosts still being filled (a seed file read while the
 * crawl runs), a decision about a host not found among them waits until they are complete ({@link SeedHosts}).
 *
 * <p>Out of scope: DNS (a public name resolving to a private address is the fetcher's to refuse), robots.txt,
 * and whether a URL was seen before (the Sieve).
 */
public final class LinkScope {
    private static final String SUBDOMAINS_PREFIX = "*.";

    /** Whether scope.hosts lists {@code any}: every host is in scope. */
    private final boolean anyHost;
    private final Set<String> exactHosts;
    /** Domains whose subdomains match, each with a leading dot: ".example.org". */
    private final List<String> dottedDomains;
    private final List<Pattern> include;
    private final List<Pattern> exclude;
    private final int maxDepth;
    private final boolean allowPrivateAddresses;
    /** The seeds' hosts and origins: a private address is allowed on a seed's host and port. */
    private final SeedHosts seeds;
    /** Whether scope.hosts lists same-as-seeds: the seeds' hosts are in scope. */
    private final boolean seedHostsInScope;
    private final String hostsDescription;

    /**
     * @param config the profile's scope
     * @param seeds the crawl's seed URLs, absolute; they are normalized here
     * @param allowPrivateAddresses whether links to private addresses are allowed everywhere
     * @throws IllegalArgumentException naming the seed or host pattern that is not valid
     */
    public LinkScope(ScopeConfig config, List<String> seeds, boolean allowPrivateAddresses) {
        this(config, seedHosts(Objects.requireNonNull(seeds, "seeds")), allowPrivateAddresses);
    }

    /**
     * @param config the profile's scope
     * @param seeds the seeds' hosts and origins; while they are being filled (a seed file read), a host not found
     *     among them waits for the rest ({@link SeedHosts})
     * @param allowPrivateAddresses whether links to private addresses are allowed everywhere
     * @throws IllegalArgumentException naming the host pattern that is not valid, or same-as-seeds without seeds
     */
    public LinkScope(ScopeConfig config, SeedHosts seeds, boolean allowPrivateAddresses) {
        Objects.requireNonNull(config, "config");
        this.seeds = Objects.requireNonNull(seeds, "seeds");
        Set<String> exact = new HashSet<>();
        List<String> domains = new ArrayList<>();
        boolean any = false;
        boolean sameAsSeeds = false;
        for (String pattern : config.hosts()) {
            if (pattern.equals(ScopeConfig.ANY)) {
                any = true;
            } else if (pattern.equals(ScopeConfig.SAME_AS_SEEDS)) {
                if (seeds.isComplete() && seeds.hostCount() == 0) {
                    throw new IllegalArgumentException("scope.hosts: \"" + ScopeConfig.SAME_AS_SEEDS
                            + "\" needs at least one seed, got none");
                }
                sameAsSeeds = true;
            } else if (pattern.startsWith(SUBDOMAINS_PREFIX)) {
                String domain = canonicalHost(pattern, pattern.substring(SUBDOMAINS_PREFIX.length()));
                exact.add(domain);
                domains.add("." + domain);
            } else {
                exact.add(canonicalHost(pattern, pattern));
            }
        }
        this.seedHostsInScope = sameAsSeeds;
        this.anyHost = any;
        this.exactHosts = Set.copyOf(exact);
        this.dottedDomains = List.copyOf(domains);
        this.include = config.include();
        this.exclude = config.exclude();
        this.maxDepth = config.maxDepth();
        this.allowPrivateAddresses = allowPrivateAddresses;
        this.hostsDescription = String.join(", ", config.hosts());
    }

    /**
     * Whether the crawl follows {@code normalizedUrl}, found {@code depth} links away from a seed.
     *
     * @param normalizedUrl a URL as {@link UrlNormalizer} accepts it
     * @param depth 0 for a seed, 1 for a link on a seed's page, and so on
     * @return {@link Accept} with the URL itself, or {@link Reject} with the first failed rule
     * @throws IllegalArgumentException if depth is negative
     */
    public LinkDecision decide(String normalizedUrl, int depth) {
        Objects.requireNonNull(normalizedUrl, "normalizedUrl");
        if (depth < 0) {
            throw new IllegalArgumentException("depth must be >= 0 (seeds are 0), was " + depth);
        }
        Reject refused = hostRules(normalizedUrl);
        return refused != null ? refused : pathRules(normalizedUrl, depth);
    }

    /**
     * The rules of {@link #decide} that depend only on a URL's origin, worked out once for the links of a page
     * that stay on the page's origin (its plain relative links): those then cost the length check and the
     * include/exclude patterns alone.
     *
     * @param normalizedUrl any normalized URL on the origin, e.g. the page's own
     */
    OnOrigin onOrigin(String normalizedUrl) {
        return new OnOrigin(hostRules(Objects.requireNonNull(normalizedUrl, "normalizedUrl")));
    }

    /** {@link #decide} for URLs on one origin; see {@link #onOrigin}. Immutable. */
    final class OnOrigin {
        private final Reject refusal;

        private OnOrigin(Reject refusal) {
            this.refusal = refusal;
        }

        /**
         * Exactly {@code decide(url, 0)} for a normalized URL on this origin (the caller's promise: same scheme,
         * host and port as the URL the origin was made from).
         */
        LinkDecision decide(String sameOriginUrl) {
            if (refusal != null && refusal.reason() == RejectReason.MALFORMED) {
                return refusal;
            }
            if (sameOriginUrl.length() > UrlNormalizer.MAX_LENGTH) {
                return tooLong(sameOriginUrl);
            }
            return refusal != null ? refusal : pathRules(sameOriginUrl, 0);
        }
    }

    /** The rules on the URL's form, length and origin, in decide's order; null when it passes them. */
    private Reject hostRules(String normalizedUrl) {
        int schemeEnd = normalizedUrl.startsWith("https://") ? 8 : normalizedUrl.startsWith("http://") ? 7 : -1;
        if (schemeEnd < 0) {
            return new Reject(RejectReason.MALFORMED, "URL " + UrlNormalizer.quote(normalizedUrl)
                    + " does not start with http:// or https://; normalize it first");
        }
        int authorityEnd = authorityEnd(normalizedUrl, schemeEnd);
        int hostEnd = hostEnd(normalizedUrl, schemeEnd, authorityEnd);
        if (hostEnd <= schemeEnd || normalizedUrl.lastIndexOf('@', authorityEnd) >= schemeEnd) {
            return new Reject(RejectReason.MALFORMED, "URL " + UrlNormalizer.quote(normalizedUrl)
                    + " has no host or has user info; normalize it first");
        }
        if (normalizedUrl.length() > UrlNormalizer.MAX_LENGTH) {
            return tooLong(normalizedUrl);
        }
        String host = normalizedUrl.charAt(schemeEnd) == '['
                ? normalizedUrl.substring(schemeEnd + 1, hostEnd - 1)
                : normalizedUrl.substring(schemeEnd, hostEnd).toLowerCase(Locale.ROOT);

        if (!allowPrivateAddresses) {
            Verdict verdict = SpecialRanges.checkHost(host);
            if (verdict.refused()) {
                int port = port(normalizedUrl, hostEnd, authorityEnd, schemeEnd == 8);
                String origin = origin(host, port);
                if (!seeds.hasOrigin(host, port)) {
                    return new Reject(RejectReason.PRIVATE_ADDRESS, "host \"" + host + "\" is in " + verdict.range()
                            + " and " + (host.indexOf(':') >= 0 ? "[" + host + "]" : host)
                            + origin.substring(host.length()) + " is not a seed's host and port");
                }
            }
        }
        if (!hostInScope(host)) {
            return new Reject(RejectReason.OFF_HOST, "host \"" + host + "\" matches none of scope.hosts ["
                    + hostsDescription + "]");
        }
        return null;
    }

    private static Reject tooLong(String url) {
        return new Reject(RejectReason.TOO_LONG, "URL is " + url.length() + " characters, more than "
                + UrlNormalizer.MAX_LENGTH);
    }

    /** The include and exclude patterns, then the depth. */
    private LinkDecision pathRules(String normalizedUrl, int depth) {
        for (Pattern pattern : exclude) {
            if (pattern.matcher(normalizedUrl).find()) {
                return new Reject(RejectReason.EXCLUDED, "URL matches scope.exclude pattern \"" + pattern + "\"");
            }
        }
        if (!include.isEmpty() && !anyFound(include, normalizedUrl)) {
            return new Reject(RejectReason.NOT_INCLUDED, "URL matches none of the " + include.size()
                    + " scope.include patterns");
        }
        return depthCheck(new Accept(normalizedUrl), depth);
    }

    /**
     * {@code accepted} as it stands at {@code depth}: unchanged, or refused as TOO_DEEP past scope.max-depth.
     * The depth is the only part of a decision that depends on where a link was found, so callers may keep
     * {@code decide(url, 0)} and apply this per link.
     */
    LinkDecision depthCheck(Accept accepted, int depth) {
        if (maxDepth >= 0 && depth > maxDepth) {
            return new Reject(RejectReason.TOO_DEEP, "depth " + depth + " is more than scope.max-depth " + maxDepth);
        }
        return accepted;
    }

    private boolean hostInScope(String host) {
        if (anyHost || exactHosts.contains(host)) {
            return true;
        }
        for (String dotted : dottedDomains) {
            if (host.endsWith(dotted)) {
                return true;
            }
        }
        return seedHostsInScope && seeds.hasHost(host);
    }

    /** The hosts and origins of {@code seeds}, normalized; an exception names a seed that is not crawlable. */
    private static SeedHosts seedHosts(List<String> seeds) {
        UrlNormalizer normalizer = new UrlNormalizer();
        List<String> urls = new ArrayList<>();
        for (String seed : seeds) {
            LinkDecision decision = normalizer.normalize(seed);
            if (decision instanceof Reject reject) {
                throw new IllegalArgumentException("seed \"" + seed + "\" is not a crawlable URL: " + reject);
            }
            urls.add(((Accept) decision).url());
        }
        return SeedHosts.of(urls);
    }

    private static boolean anyFound(List<Pattern> patterns, String url) {
        for (Pattern pattern : patterns) {
            if (pattern.matcher(url).find()) {
                return true;
            }
        }
        return false;
    }

    private static int authorityEnd(String url, int from) {
        for (int i = from; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c == '/' || c == '?' || c == '#') {
                return i;
            }
        }
        return url.length();
    }

    /** End of the host (after the ']' of an IPv6 literal), or -1. */
    private static int hostEnd(String url, int from, int authorityEnd) {
        if (from < authorityEnd && url.charAt(from) == '[') {
            int close = url.indexOf(']', from);
            return close < 0 || close >= authorityEnd ? -1 : close + 1;
        }
        int colon = url.indexOf(':', from);
        return colon < 0 || colon > authorityEnd ? authorityEnd : colon;
    }

    private static int port(String url, int hostEnd, int authorityEnd, boolean https) {
        if (hostEnd < authorityEnd && url.charAt(hostEnd) == ':') {
            try {
                return Integer.parseInt(url, hostEnd + 1, authorityEnd, 10);
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return https ? 443 : 80;
    }

    private static String origin(String host, int port) {
        return host + ":" + port;
    }

    /** The normalized form of a host pattern, or an exception naming it. */
    private static String canonicalHost(String pattern, String host) {
        HttpUrl url = host.isEmpty() || host.indexOf('/') >= 0 || host.indexOf('@') >= 0 || host.indexOf('?') >= 0
                || host.indexOf('#') >= 0 || host.indexOf('*') >= 0 || host.indexOf('\\') >= 0
                || (host.indexOf(':') >= 0 && !host.startsWith("["))
                ? null
                : HttpUrl.parse("http://" + host + "/");
        if (url == null) {
            throw new IllegalArgumentException("scope.hosts: \"" + pattern + "\" is not a host name or IP address;"
                    + " use example.org, *.example.org, " + ScopeConfig.SAME_AS_SEEDS + " or " + ScopeConfig.ANY
                    + " (no scheme, port or path)");
        }
        String canonical = url.host();
        if (canonical.endsWith(".")) {
            canonical = canonical.substring(0, canonical.length() - 1);
        }
        long v4 = IpLiteral.parseIpv4(canonical);
        return v4 >= 0 ? IpLiteral.formatIpv4(v4) : canonical;
    }
}
