package org.sievecrawler.link;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.Collection;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import okhttp3.HttpUrl;
import org.sievecrawler.address.IpLiteral;

/**
 * The seeds' host names and origins ({@code host:port}), held compactly for seed lists of millions: what
 * {@code scope.hosts: same-as-seeds} and the private-address rules (a seed's host and port may be a private
 * address) ask of the seeds. A set that is filled, then {@link #complete()}: a seed file's hosts are added while
 * the file is read, and a question whose answer is "no" so far waits until the whole file was read (a host found
 * further down the file is a seed's host too); a "yes" is answered at once.
 *
 * <p>Entries: an IPv4 literal host is held exactly (its 32 bits; with its 16-bit port for an origin); any other host
 * as a 64-bit hash keyed by a random number drawn when the set is made (so a page cannot choose a host whose hash
 * equals a seed host's). Two hosts share a hash with probability 2^-63 per pair: for n seed hosts, a host not a
 * seed's is taken for one with probability at most n * 2^-63 (1e-13 at n = 10^6), and then it is followed as if it
 * were a seed's host, nothing worse. Memory: two open-addressing tables of {@code long}s, kept at most half full, so
 * 16 to 32 bytes per distinct host and as many per distinct origin: 32 to 64 bytes per seed host (against ~250
 * bytes for the strings and hash-set entries of an exact set). Bare hosts given without a port (an origin of "any
 * port", a form only tests and older profiles use) are held exactly as strings.
 *
 * <p>Thread-safe: one thread adds, any number ask; once complete, asking takes no lock. A thread waiting for the
 * set to be complete that is interrupted answers "no" with its interrupt flag set. Out of scope: normalizing the
 * seeds (the caller gives normalized URLs or {@link HttpUrl}s).
 */
public final class SeedHosts {
    private static final long EXACT = 1L << 63;
    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;

    /** The format {@link #writeTo} writes. */
    private static final int FORMAT = 1;

    private final long key;
    private final LongSet hosts = new LongSet();
    private final LongSet origins = new LongSet();
    private final Set<String> anyPortHosts;
    private final CountDownLatch completed = new CountDownLatch(1);
    private volatile boolean complete;

    private SeedHosts(Set<String> anyPortHosts) {
        this(new SecureRandom().nextLong(), anyPortHosts);
    }

    private SeedHosts(long key, Set<String> anyPortHosts) {
        this.key = key;
        this.anyPortHosts = Set.copyOf(anyPortHosts);
    }

    /** A set to be filled by {@link #add} and then {@link #complete()}d. */
    public static SeedHosts filling() {
        return new SeedHosts(Set.of());
    }

    /** The complete set of the hosts and origins of {@code normalizedSeeds} (normalized absolute URLs). */
    public static SeedHosts of(Collection<String> normalizedSeeds) {
        SeedHosts seeds = filling();
        for (String seed : normalizedSeeds) {
            seeds.add(HttpUrl.get(seed));
        }
        seeds.complete();
        return seeds;
    }

    /**
     * The complete set of {@code origins}, each {@code host:port} ({@code [::1]:8080} for IPv6), or a bare host
     * standing for every port of it.
     */
    public static SeedHosts ofOrigins(Collection<String> origins) {
        Set<String> anyPort = new HashSet<>();
        for (String origin : origins) {
            String[] hostPort = hostAndPort(origin);
            if (hostPort[1] == null) {
                anyPort.add(hostPort[0]);
            }
        }
        SeedHosts seeds = new SeedHosts(anyPort);
        for (String origin : origins) {
            String[] hostPort = hostAndPort(origin);
            if (hostPort[1] != null) {
                seeds.add(hostPort[0], Integer.parseInt(hostPort[1]));
            } else {
                seeds.addHost(hostPort[0]);
            }
        }
        seeds.complete();
        return seeds;
    }

    /**
     * Writes the set's key and tables (not the hosts given without a port), for {@link #readFrom}: a crawl keeps a
     * seed file's hosts beside its copy, so a resume need not read the file again.
     */
    public synchronized void writeTo(DataOutputStream out) throws IOException {
        out.writeInt(FORMAT);
        out.writeLong(key);
        hosts.writeTo(out);
        origins.writeTo(out);
    }

    /**
     * The set {@link #writeTo} wrote, still filling (more may be added, then {@link #complete()}).
     *
     * @throws IOException when {@code in} ends early or does not hold such a set (another format, a table whose
     *     length is not a power of two or is over {@code maxBytes})
     */
    public static SeedHosts readFrom(DataInputStream in, long maxBytes) throws IOException {
        int format = in.readInt();
        if (format != FORMAT) {
            throw new IOException("not a table of seed hosts of format " + FORMAT + " (format " + format + ")");
        }
        SeedHosts seeds = new SeedHosts(in.readLong(), Set.of());
        seeds.hosts.readFrom(in, maxBytes);
        seeds.origins.readFrom(in, maxBytes);
        return seeds;
    }

    /** Adds a seed's host and origin. */
    public void add(HttpUrl seed) {
        add(seed.host(), seed.port());
    }

    /**
     * Adds the host and origin of {@code normalizedUrl}, a URL as {@link UrlNormalizer} gives it
     * ({@code http://host:port/...}, the host in lower case, an IPv6 one in brackets), without parsing it again.
     */
    public void addNormalized(String normalizedUrl) {
        boolean https = normalizedUrl.startsWith("https://");
        int hostStart = https ? 8 : 7;
        int authorityEnd = normalizedUrl.length();
        for (int i = hostStart; i < normalizedUrl.length(); i++) {
            char c = normalizedUrl.charAt(i);
            if (c == '/' || c == '?' || c == '#') {
                authorityEnd = i;
                break;
            }
        }
        int hostEnd = normalizedUrl.charAt(hostStart) == '['
                ? normalizedUrl.indexOf(']', hostStart) + 1 : normalizedUrl.indexOf(':', hostStart);
        if (hostEnd <= hostStart || hostEnd > authorityEnd) {
            hostEnd = authorityEnd;
        }
        String host = normalizedUrl.charAt(hostStart) == '['
                ? normalizedUrl.substring(hostStart + 1, hostEnd - 1) : normalizedUrl.substring(hostStart, hostEnd);
        int port = hostEnd < authorityEnd && normalizedUrl.charAt(hostEnd) == ':'
                ? Integer.parseInt(normalizedUrl, hostEnd + 1, authorityEnd, 10) : https ? 443 : 80;
        add(host, port);
    }

    /**
     * Adds a seed's host (as {@link HttpUrl#host()} writes it) and its origin with {@code port}. Once the set is
     * complete, adding a seed it holds does nothing (the crawl adds a seed file's hosts as it offers them, and the
     * thread that reads the whole file may have completed the set before), and adding another is refused.
     *
     * @throws IllegalStateException when the set is complete and does not hold the seed
     */
    public synchronized void add(String host, int port) {
        long hostEntry = hostEntry(host);
        long originEntry = originEntry(host, port);
        if (complete) {
            if (!hosts.contains(hostEntry) || !origins.contains(originEntry)) {
                throw new IllegalStateException("the seed hosts are complete; " + host + ":" + port
                        + " comes too late");
            }
            return;
        }
        hosts.add(hostEntry);
        origins.add(originEntry);
    }

    private synchronized void addHost(String host) {
        hosts.add(hostEntry(host));
    }

    /** Says every seed was added: questions no longer wait. */
    public void complete() {
        complete = true;
        completed.countDown();
    }

    /** Whether every seed was added. */
    public boolean isComplete() {
        return complete;
    }

    /**
     * Whether {@code host} (as {@link HttpUrl#host()} writes it: lower case, IPv6 without brackets) is a seed's,
     * waiting for the set to be complete when it is not found before.
     */
    public boolean hasHost(String host) {
        long entry = hostEntry(host);
        if (anyPortHosts.contains(host) || has(hosts, entry)) {
            return true;
        }
        return awaitComplete() && hosts.contains(entry);
    }

    /** Whether {@code host:port} is a seed's origin (or the host was given without a port), waiting as hasHost. */
    public boolean hasOrigin(String host, int port) {
        long entry = originEntry(host, port);
        if (anyPortHosts.contains(host) || has(origins, entry)) {
            return true;
        }
        return awaitComplete() && origins.contains(entry);
    }

    /** Whether {@code host} was given without a port: every port of it is a seed's origin. */
    public boolean anyPort(String host) {
        return anyPortHosts.contains(host);
    }

    /** The distinct seed hosts added so far. */
    public synchronized int hostCount() {
        return hosts.size();
    }

    /** The bytes the two tables take now. */
    public synchronized long bytes() {
        return hosts.bytes() + origins.bytes();
    }

    private boolean has(LongSet set, long entry) {
        if (complete) {
            return set.contains(entry); // no more writes: the volatile read published the table
        }
        synchronized (this) {
            return set.contains(entry);
        }
    }

    /** Waits until complete; false if interrupted (the flag restored). */
    private boolean awaitComplete() {
        if (complete) {
            return true;
        }
        try {
            completed.await();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private long hostEntry(String host) {
        long ipv4 = dottedIpv4(host);
        return ipv4 >= 0 ? EXACT | ipv4 : hash(host, 0);
    }

    private long originEntry(String host, int port) {
        long ipv4 = dottedIpv4(host);
        return ipv4 >= 0 ? EXACT | ipv4 << 16 | (port & 0xFFFF) : hash(host, port + 1);
    }

    /** The address of a host written as four decimal parts as URLs normalize it ({@code 127.0.0.1}), else -1. */
    private static long dottedIpv4(String host) {
        if (host.isEmpty() || !Character.isDigit(host.charAt(host.length() - 1))) {
            return -1;
        }
        long address = IpLiteral.parseIpv4(host);
        return address >= 0 && IpLiteral.formatIpv4(address).equals(host) ? address : -1;
    }

    /** A 64-bit hash of {@code host} and {@code port} keyed by this set's random key, its top bit clear. */
    private long hash(String host, int port) {
        long h = key ^ port * MULTIPLIER;
        for (int i = 0; i < host.length(); i++) {
            h = mix(h ^ host.charAt(i));
        }
        h = mix(h ^ host.length());
        h &= ~EXACT;
        return h == 0 ? 1 : h;
    }

    /** Murmur3's 64-bit finalizer after a multiply: every input bit moves every output bit. */
    private static long mix(long h) {
        h *= MULTIPLIER;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ h >>> 33;
    }

    /**
     * An origin or host entry ("host", "host:port", "[v6]:port") split into its host (as {@link HttpUrl#host()}
     * writes it) and its port (or null): for seed origins here and the proxy hosts of the address guard.
     */
    public static String[] hostAndPort(String entry) {
        String e = entry.trim().toLowerCase(Locale.ROOT);
        String host;
        String port = null;
        if (e.startsWith("[")) {
            int close = e.indexOf(']');
            host = close < 0 ? e.substring(1) : e.substring(1, close);
            String rest = close < 0 ? "" : e.substring(close + 1);
            port = rest.startsWith(":") ? rest.substring(1) : null;
        } else if (e.indexOf(':') >= 0 && e.indexOf(':') == e.lastIndexOf(':')) {
            host = e.substring(0, e.indexOf(':'));
            port = e.substring(e.indexOf(':') + 1);
        } else {
            host = e;
        }
        if (host.indexOf(':') >= 0) {
            HttpUrl url = HttpUrl.parse("http://[" + host + "]/");
            host = url == null ? host : url.host();
        }
        return new String[] {host, port};
    }

    /** A set of non-zero longs by open addressing with linear probing, at most half full. Not thread-safe. */
    private static final class LongSet {
        private long[] table = new long[16];
        private int size;

        void add(long value) {
            if (2 * (size + 1) > table.length) {
                grow();
            }
            if (insert(table, value)) {
                size++;
            }
        }

        boolean contains(long value) {
            long[] t = table;
            int mask = t.length - 1;
            for (int i = slot(value, mask); ; i = (i + 1) & mask) {
                if (t[i] == value) {
                    return true;
                }
                if (t[i] == 0) {
                    return false;
                }
            }
        }

        int size() {
            return size;
        }

        void writeTo(DataOutputStream out) throws IOException {
            out.writeInt(table.length);
            for (long value : table) {
                out.writeLong(value);
            }
        }

        void readFrom(DataInputStream in, long maxBytes) throws IOException {
            int length = in.readInt();
            if (length < 16 || Integer.bitCount(length) != 1 || 8L * length > maxBytes) {
                throw new IOException("a table of " + length + " entries: not a power of two from 16, or over "
                        + maxBytes + " bytes");
            }
            long[] read = new long[length];
            int count = 0;
            for (int i = 0; i < length; i++) {
                read[i] = in.readLong();
                count += read[i] != 0 ? 1 : 0;
            }
            if (2 * count > length) {
                throw new IOException("a table of " + length + " entries holding " + count + ": more than half full");
            }
            table = read;
            size = count;
        }

        long bytes() {
            return 16L + 8L * table.length;
        }

        private void grow() {
            long[] bigger = new long[table.length * 2];
            for (long value : table) {
                if (value != 0) {
                    insert(bigger, value);
                }
            }
            table = bigger;
        }

        private static boolean insert(long[] t, long value) {
            int mask = t.length - 1;
            for (int i = slot(value, mask); ; i = (i + 1) & mask) {
                if (t[i] == value) {
                    return false;
                }
                if (t[i] == 0) {
                    t[i] = value;
                    return true;
                }
            }
        }

        private static int slot(long value, int mask) {
            return (int) (value ^ value >>> 32) * 0x9E3779B9 >>> 1 & mask;
        }
    }
}
