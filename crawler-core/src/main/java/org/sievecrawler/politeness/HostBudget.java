package org.sievecrawler.politeness;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.sievecrawler.profile.ProfileKeys;

/**
 * A count per host (scheme, host name and port) with a ceiling: each {@link #take} spends one of the host's share
 * until it is gone. The frontier spends {@code limits.max-pages-per-host} as it admits a host's URLs (a URL past
 * the host's share is counted and not queued: the bound on a trap its URLs do not show, such as a calendar whose
 * every day links to the next); the page checks spend {@code scope.max-sitemaps-per-host} as a sitemap is about
 * to be requested, in a budget of their own.
 *
 * <p>Counts may be carried over a resume: {@link #counts()} copies them for a checkpoint and {@link #restore} puts
 * them back.
 *
 * <p>Thread-safe and lock-free: one counter per host key (about 100 bytes a host), taken by compare-and-set, so
 * threads spending one host's share never take more than the limit between them. Out of scope: the crawl's own
 * page limit ({@code limits.max-pages}) and anything to do with time; the scheduler paces hosts.
 */
public final class HostBudget {
    private final long maxPerHost;
    private final String key;
    private final ConcurrentHashMap<String, AtomicLong> taken = new ConcurrentHashMap<>();

    /** @param maxPagesPerHost URLs of one host admitted at most ({@code limits.max-pages-per-host}); 0 for no limit */
    public HostBudget(long maxPagesPerHost) {
        this(maxPagesPerHost, ProfileKeys.LIMITS_MAX_PAGES_PER_HOST.name());
    }

    /**
     * @param maxPerHost takes of one host at most; 0 for no limit
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
     * Takes one of {@code url}'s host's share: empty if it was taken, else why not, e.g.
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

    /** Taken of {@code hostKey} so far. */
    public long taken(String hostKey) {
        AtomicLong count = taken.get(hostKey);
        return count == null ? 0 : count.get();
    }

    /** A copy of the counts, by host key (sorted): for a checkpoint, taken while no one takes. */
    public Map<String, Long> counts() {
        Map<String, Long> copy = new TreeMap<>();
        taken.forEach((host, count) -> copy.put(host, count.get()));
        return copy;
    }

    /** Adds {@code counts} (a checkpoint's {@link #counts()}) to this budget's: for a resume, before any take. */
    public void restore(Map<String, Long> counts) {
        counts.forEach((host, count) -> taken.computeIfAbsent(host, h -> new AtomicLong()).addAndGet(count));
    }
}
