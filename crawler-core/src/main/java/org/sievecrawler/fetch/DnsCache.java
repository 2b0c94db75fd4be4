package org.sievecrawler.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import okhttp3.Dns;
import org.sievecrawler.address.IpLiteral;

/**
 * The crawl's DNS cache: a {@link Dns} that keeps each host name's answer for {@code fetch.dns-ttl} and each name
 * that did not resolve for {@code fetch.dns-negative-ttl}, at most {@link #MAX_ENTRIES} names, the least recently
 * used dropped first; and counts what it did ({@link #counts()}: summary.json's {@code dns}).
 *
 * <p>It sits below the {@link AddressGuard}: the guard checks every answer, cached or not, so a cached name is
 * refused or allowed exactly as a fresh one. OkHttp asks its {@code Dns} only when it opens a connection, so a host
 * whose connection is pooled costs no lookup at all; a crawl of many hosts opens one per host now and then (see
 * {@link SocketBudget}), and asks the system resolver once per TTL instead of each time. The JVM keeps its own cache
 * below this one (30 s, failures 10 s, by {@code networkaddress.cache.ttl}); this one is bounded, counted and set by
 * the profile.
 *
 * <p>A lookup that fails while the process is out of file descriptors is not an answer: the JDK reports such a
 * failure as an ordinary {@link UnknownHostException} ("Name or service not known", measured on Linux with
 * {@code ulimit -n 64}), so when a lookup fails, the cache asks whether the descriptors are spent and, if so,
 * caches nothing and throws an exception that says "Too many open files", which the fetcher treats as
 * back-pressure ({@link DescriptorPressure}: wait, close idle connections, send again), never as an unknown host.
 *
 * <p>Thread-safe: one lock guards the table for a get or a put, never during a lookup; two threads missing the same
 * name at once both ask the resolver (the later answer stays). Time comes from the injected clock. Out of scope:
 * which addresses may be reached (the guard), the TTLs the DNS records carry (the system resolver does not give
 * them to Java).
 */
public final class DnsCache implements Dns {
    /**
     * Names kept at most: about 200 bytes each (the name, an address or two, the entry), so 65,536 names take about
     * 13 MB. A broad crawl touches more hosts than that; each is asked again when it comes back after falling out.
     */
    public static final int MAX_ENTRIES = 65_536;

    private final Dns resolver;
    private final Duration ttl;
    private final Duration negativeTtl;
    private final int maxEntries;
    private final Clock clock;
    private final BooleanSupplier outOfDescriptors;
    private final Map<String, Entry> entries;
    private final LongAdder lookups = new LongAdder();
    private final LongAdder hits = new LongAdder();
    private final LongAdder negativeHits = new LongAdder();
    private final LongAdder failures = new LongAdder();

    /**
     * What a cache did since it was made.
     *
     * @param lookups names asked of it
     * @param hits names answered from the cache with addresses
     * @param negativeHits names answered from the cache as unknown
     * @param failures lookups the resolver failed (unknown host, or no answer), not counting those that failed for
     *     want of file descriptors
     */
    public record Counts(long lookups, long hits, long negativeHits, long failures) {
    }

    /** A name's answer: its addresses, or the failure's message when it did not resolve; until {@code expires}. */
    private record Entry(List<InetAddress> addresses, String unknown, long expires) {
    }

    /**
     * @param resolver the DNS asked on a miss (the system's in a crawl)
     * @param ttl how long an answer is kept; zero: none is
     * @param negativeTtl how long a name that did not resolve is kept as unknown; zero: none is
     * @param maxEntries names kept at most, >= 1
     * @param clock the time entries expire by
     * @param outOfDescriptors whether the process is out of file descriptors now, asked when a lookup fails
     */
    public DnsCache(Dns resolver, Duration ttl, Duration negativeTtl, int maxEntries, Clock clock,
            BooleanSupplier outOfDescriptors) {
        if (maxEntries < 1 || ttl.isNegative() || negativeTtl.isNegative()) {
            throw new IllegalArgumentException("a DNS cache needs maxEntries >= 1 (was " + maxEntries
                    + ") and TTLs >= 0 (were " + ttl + " and " + negativeTtl + ")");
        }
        this.resolver = resolver;
        this.ttl = ttl;
        this.negativeTtl = negativeTtl;
        this.maxEntries = maxEntries;
        this.clock = clock;
        this.outOfDescriptors = outOfDescriptors;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > DnsCache.this.maxEntries;
            }
        };
    }

    /** The cache of the system's resolver for a crawl: {@link #MAX_ENTRIES}, the system clock, this process's descriptors. */
    public static DnsCache ofSystem(Duration ttl, Duration negativeTtl) {
        return new DnsCache(Dns.SYSTEM, ttl, negativeTtl, MAX_ENTRIES, Clock.systemUTC(),
                FileDescriptors::exhausted);
    }

    @Override
    public List<InetAddress> lookup(String hostname) throws UnknownHostException {
        lookups.increment();
        String name = hostname.toLowerCase(Locale.ROOT);
        long now = clock.millis();
        Entry cached;
        synchronized (entries) {
            cached = entries.get(name);
            if (cached != null && cached.expires <= now) {
                entries.remove(name);
                cached = null;
            }
        }
        if (cached != null) {
            if (cached.unknown == null) {
                hits.increment();
                return cached.addresses;
            }
            negativeHits.increment();
            throw new UnknownHostException(cached.unknown + " (a cached answer, kept for "
                    + negativeTtl.toSeconds() + " s: fetch.dns-negative-ttl)");
        }
        List<InetAddress> addresses;
        try {
            addresses = List.copyOf(resolver.lookup(hostname));
        } catch (UnknownHostException e) {
            if (NetworkErrors.outOfDescriptors(e) || outOfDescriptors.getAsBoolean()) {
                UnknownHostException pressure = new UnknownHostException(hostname + ": Too many open files (the"
                        + " process is out of file descriptors; the resolver said: " + e.getMessage() + ")");
                pressure.initCause(e);
                throw pressure;
            }
            failures.increment();
            put(name, new Entry(null, String.valueOf(e.getMessage()), now + negativeTtl.toMillis()), negativeTtl);
            throw e;
        }
        if (addresses.isEmpty()) { // OkHttp's contract: a Dns throws rather than answering nothing
            failures.increment();
            throw new UnknownHostException(hostname + ": the resolver answered no address");
        }
        put(name, new Entry(addresses, null, now + ttl.toMillis()), ttl);
        return addresses;
    }

    /**
     * The address requests to {@code hostName} go to first, as text ({@code 192.0.2.1}), for politeness per address:
     * an IP literal is its own (an IPv6 one in brackets as in a URL, or without), a name is looked up here; null when
     * it does not resolve, or cannot now for want of file descriptors. Blocks on a miss.
     */
    public String address(String hostName) {
        String name = hostName.startsWith("[") && hostName.endsWith("]")
                ? hostName.substring(1, hostName.length() - 1) : hostName;
        byte[] literal = IpLiteral.bytes(name);
        try {
            return (literal != null ? InetAddress.getByAddress(literal) : lookup(name).get(0)).getHostAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private void put(String name, Entry entry, Duration keep) {
        if (keep.isZero()) {
            return;
        }
        synchronized (entries) {
            entries.put(name, entry);
        }
    }

    /** Names held now, expired ones among them until they are asked for again. */
    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }

    /** What this cache did so far. */
    public Counts counts() {
        return new Counts(lookups.sum(), hits.sum(), negativeHits.sum(), failures.sum());
    }
}
