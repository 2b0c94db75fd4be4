package org.sievecrawler.politeness;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.sievecrawler.profile.ProfileKeys;

/**
 * The pages each host may still be asked for ({@code limits.max-pages-per-host}): the bound on a trap its URLs
 * do not show, such as a calendar whose every day links to the next. A page is counted when the crawl is about to
 * request it, whatever the answer (a page, a redirect, an error); a retry of the same URL is not another page,
 * and robots.txt and URLs refused before a request (robots.txt, traps, unreachable hosts) are not counted. Once a
 * host has had its pages, each of its URLs taken from the Sieve, those queued and those found later, is refused
 * and recorded as a trap, without a request and without the politeness delay.
 *
 * <p>Counts are per run: they are not in the checkpoint, so a resumed crawl counts every host from 0 again.
 *
 * <p>Thread-safe and lock-free: one counter per host key (about 100 bytes a host), taken by compare-and-set, so
 * fetchers of one host never take more than the limit between them. Out of scope: the crawl's own page limit
 * ({@code limits.max-pages}) and anything to do with time; the scheduler paces hosts.
 *
 * <p>The same count bounds the sitemaps fetched from a host ({@code scope.max-sitemaps-per-host}), in a budget of
 * their own: a sitemap takes none of the pages' budget.
 */
public final class HostBudget {
    private final long maxPerHost;
    private final String key;
    private final ConcurrentHashMap<String, AtomicLong> taken = new ConcurrentHashMap<>();

    /** @param maxPagesPerHost pages requested from one host at most; 0 for no limit */
    public HostBudget(long maxPagesPerHost) {
        this(maxPagesPerHost, ProfileKeys.LIMITS_MAX_PAGES_PER_HOST.name());
    }

    /**
     * @param maxPerHost requests of one host at most; 0 for no limit
     * @param key the profile key the limit comes from, named when a host has had its share
     */
    public HostBudget(long maxPerHost, String key) {
        if (maxPerHost < 0) {
            throw new IllegalArgumentException(key + " must be >= 0 (0 = no limit), was " + maxPerHost);
        }
        this.maxPerHost = maxPerHost;
        this.key = key;
    }

    /**
     * Takes one page of {@code url}'s host: empty if it was taken (the request may be made), else why not, e.g.
     * {@code host http://127.0.0.1:8080 reached limits.max-pages-per-host 10000}.
     *
     * @param url an absolute, normalized URL
     */
    public Optional<String> take(String url) {
        if (maxPerHost == 0) {
            return Optional.empty();
        }
        String host = HostKey.of(url);
        AtomicLong count = taken.computeIfAbsent(host, h -> new AtomicLong());
        long now;
        do {
            now = count.get();
            if (now >= maxPerHost) {
                return Optional.of("host " + host + " reached " + key + " " + maxPerHost);
            }
        } while (!count.compareAndSet(now, now + 1));
        return Optional.empty();
    }

    /** Pages taken of {@code hostKey} so far. */
    public long taken(String hostKey) {
        AtomicLong count = taken.get(hostKey);
        return count == null ? 0 : count.get();
    }
}
