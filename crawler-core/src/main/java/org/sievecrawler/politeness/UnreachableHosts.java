package org.sievecrawler.politeness;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hosts a crawl found unreachable (they did not resolve or refused connections, after the crawl's retries), by
 * host key, with why: once there, a host stays for the rest of the crawl. Asked for every URL handed out, so a
 * question takes no lock: while no host is down it is one read.
 *
 * <p>Thread-safe: the {@link HostScheduler} adds under its lock, anyone reads. Out of scope: what becomes of an
 * unreachable host's URLs (the scheduler hands them out at once, the crawl records them).
 */
final class UnreachableHosts {
    private static final Logger LOG = LoggerFactory.getLogger(UnreachableHosts.class);

    private final Map<String, String> reasons = new ConcurrentHashMap<>();

    /**
     * Notes host {@code key} unreachable for {@code reason}, with its {@code pending} URLs; returns false if it was
     * already (the first reason stays).
     */
    boolean add(String key, String reason, int pending) {
        if (reasons.putIfAbsent(key, reason) != null) {
            return false;
        }
        LOG.warn("{}: unreachable ({}); its {} pending URLs are recorded as unreachable", key, reason, pending);
        return true;
    }

    /** Why the host of {@code url} is unreachable, or null while it is not known to be. */
    String reason(String url) {
        return reasons.isEmpty() ? null : reasons.get(HostKey.of(url));
    }

    /** The hosts found unreachable so far, by host key (sorted), with why. */
    Map<String, String> all() {
        return new TreeMap<>(reasons);
    }
}
