package org.sievecrawler.fetch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import okhttp3.Dns;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.sievecrawler.address.IpLiteral;
import org.sievecrawler.address.SpecialRanges;
import org.sievecrawler.address.Verdict;
import org.sievecrawler.link.SeedHosts;

/**
 * The address guard: keeps the crawler's connections away from the addresses the {@link SpecialRanges} table
 * refuses (loopback, private-use, shared, link-local, documentation, multicast, ..., and the IPv6 forms that embed
 * such an IPv4 address), unless the profile allows them ({@code fetch.allow-private-addresses}) or the request
 * goes to a seed's host <em>and port</em> &mdash; the same rule as the link check of {@code link.LinkScope}.
 *
 * <p>How each part is checked, before any connection is made:
 * <ul>
 *   <li>A host written as an IP literal, which OkHttp connects to without asking a {@link Dns}: this application
 *       {@link Interceptor} refuses it unless its host:port is a seed's.
 *   <li>A host name, as a {@link Dns}: refused addresses are dropped from every answer and the host refused when
 *       none is left, so OkHttp only ever connects to an address that was checked (no window for DNS rebinding).
 *       A seed's host name may resolve to refused addresses, but OkHttp's {@code Dns} sees only the name, not the
 *       port, so the guard has two: this strict one, and {@link #forSeedOrigins()}, which also lets the seeds'
 *       host names through. The fetcher sends a request to a seed's host:port through a client built on the
 *       second, and every other request through the first: {@code http://intranet:8080/} as a seed does not open
 *       {@code http://intranet:6379/}, not even a TCP connection.
 * </ul>
 *
 * <p>Seeds are given as {@code host:port} origins ({@code 127.0.0.1:8080}, {@code [::1]:8080}); a bare host
 * ({@code 127.0.0.1}) allows every port of it, the looser rule of earlier versions.
 *
 * <p>Names under the {@code .invalid} top-level domain never resolve (RFC 6761, section 6.4): they fail at once
 * with an {@link UnknownHostException}, without a query to the system's resolver.
 *
 * <p>Through a proxy OkHttp looks up the proxy's host here, not the target's (the proxy resolves that): the
 * proxy's host is allowed, since the user named it, and a target name is then not checked at DNS time (an IP
 * literal still is, by the interceptor).
 *
 * <p>Thread-safe and immutable. Out of scope: which ranges are refused (the table), and names that resolve to
 * refused addresses inside a proxy.
 */
final class AddressGuard implements Dns, Interceptor {
    /** The forms OkHttp treats as IP literals and connects to without a lookup (its own test, copied). */
    private static final Pattern IP_LITERAL = Pattern.compile("([0-9a-fA-F]*:[0-9a-fA-F:.]*)|([\\d.]+)");

    private final Dns resolver;
    private final boolean allowPrivate;
    /** The seeds' hosts and origins (a bare host given without a port: every port of it). */
    private final SeedHosts seeds;
    private final Set<String> proxyHosts;
    private final Dns seedDns = hostname -> lookup(hostname, true);

    /**
     * @param resolver the DNS the guard checks the answers of
     * @param allowPrivate {@code fetch.allow-private-addresses}: no check at all
     * @param seeds the seeds' hosts and origins ({@link SeedHosts#ofOrigins} for {@code host:port} strings)
     * @param proxyHosts the proxies' host names, allowed whatever they resolve to
     */
    AddressGuard(Dns resolver, boolean allowPrivate, SeedHosts seeds, Set<String> proxyHosts) {
        this.resolver = resolver;
        this.allowPrivate = allowPrivate;
        this.seeds = seeds;
        this.proxyHosts = proxyHosts.stream().map(h -> SeedHosts.hostAndPort(h)[0]).collect(Collectors.toUnmodifiableSet());
    }

    /** A guard whose seeds are given as origins, {@code host:port}, or a bare host for every port of it. */
    AddressGuard(Dns resolver, boolean allowPrivate, Set<String> seedOrigins, Set<String> proxyHosts) {
        this(resolver, allowPrivate, SeedHosts.ofOrigins(seedOrigins), proxyHosts);
    }

    /** The strict lookup: refused addresses dropped for every name but a proxy's (and a seed's given without port). */
    @Override
    public List<InetAddress> lookup(String hostname) throws UnknownHostException {
        return lookup(hostname, false);
    }

    /** The lookup for requests to a seed's host:port: the seeds' host names may resolve to refused addresses. */
    Dns forSeedOrigins() {
        return seedDns;
    }

    /** Whether {@code url} is on a seed's host and port (or a seed's host given without a port). */
    boolean isSeedOrigin(HttpUrl url) {
        return seeds.hasOrigin(url.host(), url.port());
    }

    private List<InetAddress> lookup(String hostname, boolean seedOrigin) throws UnknownHostException {
        String name = canonicalHost(hostname);
        if (name.equals("invalid") || name.endsWith(".invalid") || name.endsWith(".invalid.")) {
            throw new UnknownHostException(hostname + ": names under .invalid never resolve (RFC 6761)");
        }
        List<InetAddress> resolved = resolver.lookup(hostname);
        if (allowPrivate || proxyHosts.contains(name) || seeds.anyPort(name)
                || (seedOrigin && seeds.hasHost(name))) {
            return resolved;
        }
        List<InetAddress> reachable = resolved.stream().filter(a -> !SpecialRanges.check(a).refused()).toList();
        if (reachable.isEmpty()) {
            throw refusal(hostname, name, resolved);
        }
        return reachable;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        HttpUrl url = chain.request().url();
        String host = url.host();
        if (!allowPrivate && IP_LITERAL.matcher(host).matches() && !isSeedOrigin(url)
                && !proxyHosts.contains(host)) {
            byte[] address = IpLiteral.bytes(host); // null: not a literal after all, the Dns checks it
            Verdict verdict = address == null ? Verdict.UNLISTED : SpecialRanges.check(address);
            if (verdict.refused()) {
                throw new PrivateAddressException("host \"" + host + "\" is in " + verdict.range() + " and "
                        + origin(url) + " is not a seed's host and port;"
                        + " set fetch.allow-private-addresses to crawl it");
            }
        }
        return chain.proceed(chain.request());
    }

    private PrivateAddressException refusal(String hostname, String name, List<InetAddress> addresses) {
        String listed = addresses.stream()
                .map(a -> a.getHostAddress() + " (" + SpecialRanges.check(a).range() + ")")
                .collect(Collectors.joining(", "));
        return new PrivateAddressException("host \"" + hostname + "\" resolves only to addresses a crawl may not"
                + " reach: " + listed + (seeds.hasHost(name)
                        ? "; it is a seed's host, allowed on its seeds' ports only"
                        : "; set fetch.allow-private-addresses to crawl them"));
    }

    private static String origin(HttpUrl url) {
        return (url.host().indexOf(':') >= 0 ? "[" + url.host() + "]" : url.host()) + ":" + url.port();
    }

    private static String canonicalHost(String host) {
        String h = host.trim().toLowerCase(Locale.ROOT);
        h = h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
        if (h.indexOf(':') >= 0) {
            HttpUrl url = HttpUrl.parse("http://[" + h + "]/");
            return url == null ? h : url.host();
        }
        return h;
    }
}
