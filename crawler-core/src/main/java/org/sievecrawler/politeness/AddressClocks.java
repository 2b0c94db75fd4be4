package org.sievecrawler.politeness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.sievecrawler.profile.PolitenessConfig;
import org.sievecrawler.profile.PolitenessUnit;

/**
 * Politeness per IP address ({@code politeness.per: ip}): hosts whose names resolve to the same address share one
 * clock, so a server of many virtual hosts gets {@code politeness.delay} between the end of one request and the start
 * of the next, and {@code max-connections-per-host} requests at most, across all its names, as Heritrix's and
 * BUbiNG's per-IP politeness. Each host keeps its own clock as well ({@link HostScheduler}); this is the second
 * condition, consulted when the scheduler decides a host is ready and told when a request starts and ends. With
 * {@code politeness.per: host} ({@link #perHost()}) every method answers at once and nothing is kept.
 *
 * <p>A host's address is its name's first address, as the crawl's DNS cache gives it ({@link Resolver}), resolved
 * before its first request ({@link #resolve}, called by the scheduler without its lock: a lookup blocks); a name
 * that does not resolve, or an IP literal, is its own unit. Its address is kept while the scheduler holds the host and
 * forgotten when the host is parked ({@link #forget}); a host that comes back is resolved again (through the DNS
 * cache) and finds its address's clock if that still runs, so politeness by address holds across parking.
 *
 * <p>Memory, bounded by the hosts held and the addresses busy, not by the hosts a crawl knows: one entry per held
 * host (~90 bytes: a map node, and the address as text; the host key is the scheduler's own string), plus one clock
 * per address with a request in flight or its delay running (~150 bytes with its map entry). A clock whose request
 * and delay are over is dropped when next looked at, and all such clocks are swept whenever the clocks have doubled
 * since the last sweep (at least {@value #MIN_SWEEP} of them), so at most twice the busy addresses are kept.
 *
 * <p>Threads: guarded by the scheduler's lock, but for {@link #resolve} and {@link #unresolved}, which take none.
 * Out of scope: resolving names (the resolver), each host's own clock and robots.txt Crawl-delay (the scheduler's;
 * a host's Crawl-delay is passed in as its delay when its request ends).
 */
public final class AddressClocks {
    /** What a host name's requests go to: its address, written as text, or null when it does not resolve. */
    @FunctionalInterface
    public interface Resolver {
        /** The address of {@code hostName} (as in a URL: an IPv6 literal in brackets), or null. May block. */
        String address(String hostName);
    }

    private static final AddressClocks PER_HOST = new AddressClocks(null, 1);
    /** Clocks kept before the first sweep of those whose request and delay are over. */
    static final int MIN_SWEEP = 1_024;

    /** Null with {@code politeness.per: host}. */
    private final Resolver resolver;
    private final int maxConnections;
    /** Each resolved host's unit, by host key: its address, or its own name when it did not resolve. */
    private final Map<String, String> units = new ConcurrentHashMap<>();
    private final Map<String, Clock> clocks = new HashMap<>();
    /** The clock count at which idle clocks are swept next. */
    private int sweepAt = MIN_SWEEP;

    private AddressClocks(Resolver resolver, int maxConnections) {
        this.resolver = resolver;
        this.maxConnections = maxConnections;
    }

    /** The clocks of {@code politeness.per: host}: none, every host on its own. */
    public static AddressClocks perHost() {
        return PER_HOST;
    }

    /** The clocks {@code config} asks for, hosts' addresses from {@code resolver} when it says {@code per: ip}. */
    public static AddressClocks of(PolitenessConfig config, Resolver resolver) {
        return config.per() == PolitenessUnit.IP ? new AddressClocks(resolver, config.maxConnectionsPerHost())
                : PER_HOST;
    }

    /** One address's clock: requests in flight, and no request before {@code nextAllowed} (epoch ms). */
    private static final class Clock {
        int inFlight;
        long nextAllowed;
        /** Hosts refused while the address had its connections in flight: scheduled again when one ends. */
        final Set<String> waiting = new LinkedHashSet<>();
    }

    /** Whether {@code hostKey}'s address is yet to be resolved before it may be asked. No lock needed. */
    boolean unresolved(String hostKey) {
        return resolver != null && !units.containsKey(hostKey);
    }

    /** Resolves {@code hostKey}'s name, blocking; call it without the scheduler's lock. */
    void resolve(String hostKey) {
        String name = HostKey.host(hostKey);
        String address = resolver.address(name);
        units.putIfAbsent(hostKey, address == null ? "name:" + name : address);
    }

    /**
     * Forgets {@code hostKey}'s address: the scheduler parked the host (nothing queued, nothing in flight, its delay
     * over). Its address's clock stays while it runs; a host that comes back is resolved again. Scheduler's lock.
     */
    void forget(String hostKey) {
        if (resolver != null) {
            units.remove(hostKey);
        }
    }

    /** The address of {@code hostKey}, or null while it is not resolved (or per host). */
    String address(String hostKey) {
        return units.get(hostKey);
    }

    /**
     * When {@code hostKey}, whose own clock says {@code hostReadyAt}, may be asked ({@code now} is now) by its address's
     * clock too: the later
     * of the two, or -1 when its address has its connections in flight (the host is then scheduled again when one
     * ends: {@link #ended} names it).
     */
    long readyAt(String hostKey, long hostReadyAt, long now) {
        Clock clock = clockOf(hostKey, now);
        if (clock == null) {
            return hostReadyAt;
        }
        if (clock.inFlight >= maxConnections) {
            clock.waiting.add(hostKey);
            return -1;
        }
        return Math.max(hostReadyAt, clock.nextAllowed);
    }

    /** Whether {@code hostKey}'s address allows a request to start {@code now}. */
    boolean mayStart(String hostKey, long now) {
        if (resolver == null) {
            return true;
        }
        if (!units.containsKey(hostKey)) {
            return false; // resolved first (the scheduler's poll)
        }
        Clock clock = clockOf(hostKey, now);
        return clock == null || (clock.inFlight < maxConnections && clock.nextAllowed <= now);
    }

    /** A task of {@code hostKey} was handed out now. */
    void started(String hostKey) {
        String unit = resolver == null ? null : units.get(hostKey);
        if (unit != null) {
            clocks.computeIfAbsent(unit, u -> new Clock()).inFlight++;
        }
    }

    /**
     * A task of {@code hostKey} handed out ({@link #started}) ended at {@code now}; the address waits {@code delayMillis}
     * (0 when no request was made).
     *
     * @return the hosts that waited for the address's connections, to be scheduled again
     */
    List<String> ended(String hostKey, long now, long delayMillis) {
        String unit = resolver == null ? null : units.get(hostKey);
        Clock clock = unit == null ? null : clocks.get(unit);
        if (clock == null) {
            return List.of();
        }
        clock.inFlight--;
        clock.nextAllowed = Math.max(clock.nextAllowed, now + delayMillis);
        List<String> waiting = new ArrayList<>(clock.waiting);
        clock.waiting.clear();
        if (clocks.size() >= sweepAt) {
            sweep(now);
        }
        return waiting;
    }

    /** Drops the clocks whose requests and delay are over by {@code now}; the next sweep at twice those left. */
    private void sweep(long now) {
        clocks.values().removeIf(clock -> idle(clock, now));
        sweepAt = Math.max(MIN_SWEEP, 2 * clocks.size());
    }

    private static boolean idle(Clock clock, long now) {
        return clock.inFlight == 0 && clock.waiting.isEmpty() && clock.nextAllowed <= now;
    }

    /** Addresses with a clock now (a request in flight or a delay running, or over but not swept yet). */
    int clockCount() {
        return clocks.size();
    }

    /** Hosts whose address is kept now (those resolved and not forgotten). */
    int addressCount() {
        return units.size();
    }

    /** The clock of {@code hostKey}'s address, or null; one whose requests and delay are over by {@code now} is dropped. */
    private Clock clockOf(String hostKey, long now) {
        String unit = resolver == null ? null : units.get(hostKey);
        Clock clock = unit == null ? null : clocks.get(unit);
        if (clock != null && idle(clock, now)) {
            clocks.remove(unit);
            return null;
        }
        return clock;
    }
}
