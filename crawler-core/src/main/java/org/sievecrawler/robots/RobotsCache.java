package org.sievecrawler.robots;

import java.util.LinkedHashMap;
import java.util.Map;
import org.sievecrawler.profile.PolitenessConfig;

/**
 * The robots.txt state ({@link HostRobots}) of the hosts a scheduler has parked, those with nothing queued and nothing
 * in flight: at most {@link #capacity} of them, the least recently parked dropped first, each for at most 24 hours
 * after its robots.txt was fetched (RFC 9309 2.4), so a host that comes back within the day is not asked for its
 * robots.txt again. Hosts being crawled hold their own state, which expires alike ({@link HostRobots#due}). The cache
 * counts what a user reads in summary.json: robots.txt requests started, hosts that came back and found their rules
 * (hits), rules dropped for room (evictions) and rules expired, parked or not.
 *
 * <p>Memory: an entry is its host key, its {@link HostRobots} and its rules (crawler-commons keeps a robots.txt's
 * rules for this crawler's agent only: a few hundred bytes for most hosts), plus a map entry: ~600 bytes measured
 * ({@code crawler-bench}'s {@code HostFootprint}), so the default capacity ({@code politeness.robots-cache-hosts},
 * 100,000 entries) is ~60 MB when full.
 *
 * <p>Not thread-safe: the scheduler that holds it guards it with its lock. Out of scope: fetching robots.txt and when
 * a host may be asked (the scheduler's).
 */
public final class RobotsCache {
    private final PolitenessConfig config;
    private final int capacity;
    private final LinkedHashMap<String, HostRobots> parked;
    private long fetches;
    private long hits;
    private long evictions;
    private long expiries;

    /** A cache of at most {@code capacity} parked hosts' robots.txt, for hosts treated as {@code config} says. */
    public RobotsCache(PolitenessConfig config, int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("robots cache capacity must be >= 0, was " + capacity);
        }
        this.config = config;
        this.capacity = capacity;
        this.parked = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, HostRobots> eldest) {
                if (size() > RobotsCache.this.capacity) {
                    evictions++;
                    return true;
                }
                return false;
            }
        };
    }

    /**
     * The robots.txt state of host {@code hostKey} coming back at {@code now} (epoch ms), taken out of the cache: its
     * parked state if it is there and not expired (a hit), else a new one, not fetched yet.
     */
    public HostRobots take(String hostKey, long now) {
        HostRobots robots = parked.remove(hostKey);
        if (robots != null) {
            if (!robots.expiredAt(now)) {
                hits++;
                return robots;
            }
            expiries++;
        }
        return new HostRobots(hostKey, config, this);
    }

    /** Keeps the robots.txt state of a host being parked, {@code robots}, the most recent entry. */
    public void park(String hostKey, HostRobots robots) {
        if (capacity > 0) {
            parked.put(hostKey, robots);
        }
    }

    /** What the cache has counted, and how many parked hosts' robots.txt it holds now. */
    public Counts counts() {
        return new Counts(fetches, hits, evictions, expiries, parked.size());
    }

    void fetchStarted() {
        fetches++;
    }

    void expired() {
        expiries++;
    }

    /**
     * What a crawl's robots.txt cache counted.
     *
     * @param fetches robots.txt requests started (a retry counts again)
     * @param hits hosts that came back from parking and found their robots.txt rules still held
     * @param evictions parked hosts' rules dropped for room (the host's robots.txt is fetched again if it comes back)
     * @param expiries rules dropped 24 hours after their robots.txt was fetched, parked or not
     * @param cached parked hosts' robots.txt held now
     */
    public record Counts(long fetches, long hits, long evictions, long expiries, long cached) {
        /** Nothing counted. */
        public static final Counts NONE = new Counts(0, 0, 0, 0, 0);

        /** These counts and {@code other}'s summed: of two caches that hold different hosts. */
        public Counts plus(Counts other) {
            return new Counts(fetches + other.fetches, hits + other.hits, evictions + other.evictions,
                    expiries + other.expiries, cached + other.cached);
        }
    }
}
