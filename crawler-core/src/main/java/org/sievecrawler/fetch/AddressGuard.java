package org.sievecrawler.fetch;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import okhttp3.Dns;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * The address guard: keeps the crawler away from loopback, private, link-local and unspecified addresses unless
 * the profile allows them or the host is one of the allowed hosts (the seeds' hosts). As a {@link Dns} it drops
 * such addresses from every lookup and refuses the host when none is left, so OkHttp only ever connects to an
 * address that was checked (no window for DNS rebinding); as an application {@link Interceptor} it checks hosts
 * written as IP literals, which OkHttp connects to without asking the {@code Dns}.
 *
 * <p>Names under the {@code .invalid} top-level domain never resolve (RFC 6761, section 6.4): they fail at once
 * with an {@link UnknownHostException}, without a query to the system's resolver.
 *
 * <p>Through a proxy OkHttp looks up the proxy's host here, not the target's (the proxy resolves that): the
 * fetcher adds the proxy's host to the allowed hosts, since the user named it, and a target name is then not
 * checked at DNS time (an IP literal still is, by the interceptor).
 *
 * <p>Thread-safe and immutable. Out of scope: addresses of special use other than those named above (multicast,
 * shared address space 100.64.0.0/10).
 */
final class AddressGuard implements Dns, Interceptor {
    /** The forms OkHttp treats as IP literals and connects to without a lookup (its own test, copied). */
    private static final Pattern IP_LITERAL = Pattern.compile("([0-9a-fA-F]*:[0-9a-fA-F:.]*)|([\\d.]+)");

    private final Dns resolver;
    private final boolean allowPrivate;
    private final Set<String> allowedHosts;

    AddressGuard(Dns resolver, boolean allowPrivate, Set<String> allowedHosts) {
        this.resolver = resolver;
        this.allowPrivate = allowPrivate;
        this.allowedHosts = allowedHosts.stream().map(AddressGuard::canonicalHost)
                .collect(Collectors.toUnmodifiableSet());
    }

    @Override
    public List<InetAddress> lookup(String hostname) throws UnknownHostException {
        String name = canonicalHost(hostname);
        if (name.equals("invalid") || name.endsWith(".invalid") || name.endsWith(".invalid.")) {
            throw new UnknownHostException(hostname + ": names under .invalid never resolve (RFC 6761)");
        }
        List<InetAddress> resolved = resolver.lookup(hostname);
        if (allows(hostname)) {
            return resolved;
        }
        List<InetAddress> reachable = resolved.stream().filter(a -> !isPrivate(a)).toList();
        if (reachable.isEmpty()) {
            throw refusal(hostname, resolved);
        }
        return reachable;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        String host = chain.request().url().host();
        if (!allows(host) && IP_LITERAL.matcher(host).matches()) {
            InetAddress address = InetAddress.getByName(host);
            if (isPrivate(address)) {
                throw refusal(host, List.of(address));
            }
        }
        return chain.proceed(chain.request());
    }

    private boolean allows(String host) {
        return allowPrivate || allowedHosts.contains(canonicalHost(host));
    }

    private static PrivateAddressException refusal(String host, List<InetAddress> addresses) {
        String listed = addresses.stream().map(InetAddress::getHostAddress).collect(Collectors.joining(", ", "[", "]"));
        return new PrivateAddressException("host \"" + host + "\" resolves only to loopback, private, link-local or "
                + "unspecified addresses " + listed + "; set fetch.allow-private-addresses to crawl them");
    }

    private static String canonicalHost(String host) {
        String h = host.trim().toLowerCase(Locale.ROOT);
        return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    }

    /**
     * Whether the address is loopback (127/8, ::1), private (10/8, 172.16/12, 192.168/16, fc00::/7, fec0::/10),
     * link-local (169.254/16, fe80::/10) or unspecified (0/8, ::).
     */
    static boolean isPrivate(InetAddress address) {
        if (address.isLoopbackAddress() || address.isAnyLocalAddress() || address.isLinkLocalAddress()
                || address.isSiteLocalAddress()) {
            return true;
        }
        byte[] bytes = address.getAddress();
        if (address instanceof Inet4Address) {
            return bytes[0] == 0;
        }
        return address instanceof Inet6Address && (bytes[0] & 0xfe) == 0xfc;
    }
}
