package org.sievecrawler.fetch;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.sievecrawler.profile.FetchConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which proxy a request goes through: the profile's {@code fetch.proxy}, or, when it is {@code none}, the
 * environment variables as curl and wget read them: {@code http_proxy} for http URLs, {@code https_proxy} for https
 * ones (lower case first, then {@code HTTP_PROXY}, {@code HTTPS_PROXY}), each {@code http://host:port} or
 * {@code host:port}, except for the hosts in {@code no_proxy} ({@code NO_PROXY}). Immutable and thread-safe.
 *
 * <p>{@code no_proxy} is a list separated by commas or spaces; matching is case-insensitive: {@code *} matches every
 * host; {@code example.org} (or {@code .example.org}, {@code *.example.org}) matches that host and its subdomains;
 * an IP address matches itself; {@code host:port} only that port. Out of scope: CIDR ranges in {@code no_proxy},
 * proxies that need credentials, HTTPS or SOCKS proxies ({@code fetch.proxy} is checked to be http; an environment
 * proxy of another scheme is ignored with a warning).
 */
final class ProxyRoutes extends ProxySelector {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyRoutes.class);

    private final Proxy http;
    private final Proxy https;
    private final List<Bypass> noProxy;

    private record Bypass(String host, int port) {
        boolean matches(String target, int targetPort) {
            return (host.equals("*") || target.equals(host) || target.endsWith("." + host))
                    && (port < 0 || port == targetPort);
        }
    }

    private ProxyRoutes(Proxy http, Proxy https, List<Bypass> noProxy) {
        this.http = http;
        this.https = https;
        this.noProxy = noProxy;
    }

    /**
     * The routes of {@code fetch.proxy}, reading {@code env} (the process's environment, or a test's) when it is
     * {@code none}; null when no proxy is set anywhere, so that the client keeps its own default.
     */
    static ProxyRoutes of(FetchConfig fetch, Map<String, String> env) {
        String setting = fetch.proxy();
        if (setting.equals(FetchConfig.PROXY_DIRECT)) {
            return new ProxyRoutes(null, null, List.of());
        }
        if (!setting.equals(FetchConfig.PROXY_NONE)) {
            Proxy proxy = proxy(setting, "fetch.proxy");
            return new ProxyRoutes(proxy, proxy, List.of());
        }
        Proxy http = proxy(variable(env, "http_proxy"), "http_proxy");
        Proxy https = proxy(variable(env, "https_proxy"), "https_proxy");
        if (http == null && https == null) {
            return null;
        }
        return new ProxyRoutes(http, https, bypasses(variable(env, "no_proxy")));
    }

    @Override
    public List<Proxy> select(URI uri) {
        Proxy proxy = "https".equalsIgnoreCase(uri.getScheme()) ? https : http;
        if (proxy == null) {
            return List.of(Proxy.NO_PROXY);
        }
        String host = uri.getHost() == null ? "" : bare(uri.getHost().toLowerCase(Locale.ROOT));
        int port = uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        for (Bypass bypass : noProxy) {
            if (bypass.matches(host, port)) {
                return List.of(Proxy.NO_PROXY);
            }
        }
        return List.of(proxy);
    }

    @Override
    public void connectFailed(URI uri, SocketAddress address, IOException e) {
        // OkHttp reports the failure as the call's; nothing to remember here
    }

    /** The host names of the proxies, which the address guard lets through to private addresses. */
    Set<String> proxyHosts() {
        Set<String> hosts = new LinkedHashSet<>();
        for (Proxy proxy : new Proxy[] {http, https}) {
            if (proxy != null) {
                hosts.add(((InetSocketAddress) proxy.address()).getHostString());
            }
        }
        return hosts;
    }

    private static String variable(Map<String, String> env, String name) {
        String lower = env.get(name);
        return lower != null && !lower.isBlank() ? lower : env.get(name.toUpperCase(Locale.ROOT));
    }

    /** An HTTP proxy at {@code http://host:port} or {@code host:port} (port 80 if none), or null. */
    private static Proxy proxy(String value, String source) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String text = value.strip();
        URI uri;
        try {
            uri = URI.create(text.contains("://") ? text : "http://" + text);
        } catch (IllegalArgumentException e) {
            LOG.warn("{} \"{}\" is not a proxy URL such as http://proxy.example:3128; no proxy is used for it",
                    source, value);
            return null;
        }
        if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            LOG.warn("{} \"{}\" is not an http proxy such as http://proxy.example:3128; no proxy is used for it",
                    source, value);
            return null;
        }
        return new Proxy(Proxy.Type.HTTP, InetSocketAddress.createUnresolved(bare(uri.getHost()),
                uri.getPort() < 0 ? 80 : uri.getPort()));
    }

    private static List<Bypass> bypasses(String noProxy) {
        List<Bypass> bypasses = new ArrayList<>();
        if (noProxy == null) {
            return bypasses;
        }
        for (String entry : noProxy.toLowerCase(Locale.ROOT).split("[,\\s]+")) {
            if (entry.isEmpty()) {
                continue;
            }
            String host = entry;
            int port = -1;
            int colon = host.lastIndexOf(':');
            if (colon > 0 && host.indexOf(':') == colon || host.startsWith("[") && host.contains("]:")) {
                try {
                    port = Integer.parseInt(host.substring(colon + 1));
                    host = host.substring(0, colon);
                } catch (NumberFormatException notAPort) {
                    // an IPv6 address without a port, or a mistake: taken as a host
                }
            }
            host = host.startsWith("*.") ? host.substring(2) : host.startsWith(".") ? host.substring(1) : host;
            bypasses.add(new Bypass(bare(host), port));
        }
        return bypasses;
    }

    /** An IPv6 literal without its brackets. */
    private static String bare(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
