package org.sievecrawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_PROXY;

import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.FetchConfig;

class ProxyRoutesTest {
    private static final FetchConfig FROM_ENVIRONMENT = FetchConfig.defaults();

    @ParameterizedTest(name = "no_proxy \"{0}\": {1} -> {2}")
    @CsvFileSource(resources = "/fetch/no-proxy.tsv", delimiter = '\t', emptyValue = "", nullValues = {})
    void sendsEachUrlToTheProxyOfItsSchemeUnlessNoProxyNamesItsHost(String noProxy, String url, String route) {
        ProxyRoutes routes = ProxyRoutes.of(FROM_ENVIRONMENT, Map.of("http_proxy", "http://proxy.test:3128",
                "HTTPS_PROXY", "proxy.test:3129", "no_proxy", noProxy == null ? "" : noProxy));

        assertThat(shown(routes.select(URI.create(url)))).isEqualTo(route);
    }

    @Test
    void readsLowerCaseVariablesBeforeUpperCaseOnes() {
        ProxyRoutes routes = ProxyRoutes.of(FROM_ENVIRONMENT, Map.of("http_proxy", "lower.test:1", "HTTP_PROXY",
                "upper.test:2", "NO_PROXY", "skip.test"));

        assertThat(shown(routes.select(URI.create("http://example.org/")))).isEqualTo("lower.test:1");
        assertThat(shown(routes.select(URI.create("http://skip.test/")))).isEqualTo("direct");
        assertThat(shown(routes.select(URI.create("https://example.org/")))).as("no https_proxy").isEqualTo("direct");
    }

    @Test
    void leavesTheClientItsDefaultWithoutAnyProxyVariable() {
        assertThat(ProxyRoutes.of(FROM_ENVIRONMENT, Map.of("no_proxy", "*", "PATH", "/bin"))).isNull();
    }

    @Test
    void theProfilesProxyWinsOverTheEnvironmentAndDirectIgnoresIt() {
        Map<String, String> env = Map.of("http_proxy", "http://env.test:3128", "no_proxy", "example.org");

        CrawlProfile defaults = CrawlProfile.defaults();
        ProxyRoutes profiles = ProxyRoutes.of(defaults.with(FETCH_PROXY, "http://profile.test:8080").fetch(), env);
        ProxyRoutes direct = ProxyRoutes.of(defaults.with(FETCH_PROXY, FetchConfig.PROXY_DIRECT).fetch(), env);

        assertThat(shown(profiles.select(URI.create("https://example.org/")))).isEqualTo("profile.test:8080");
        assertThat(profiles.proxyHosts()).containsExactly("profile.test");
        assertThat(shown(direct.select(URI.create("http://other.org/")))).isEqualTo("direct");
    }

    @Test
    void ignoresAnEnvironmentProxyOfAnotherScheme() {
        assertThat(ProxyRoutes.of(FROM_ENVIRONMENT, Map.of("http_proxy", "socks5://proxy.test:1080"))).isNull();
    }

    private static String shown(List<Proxy> proxies) {
        assertThat(proxies).hasSize(1);
        Proxy proxy = proxies.get(0);
        if (proxy.type() == Proxy.Type.DIRECT) {
            return "direct";
        }
        InetSocketAddress address = (InetSocketAddress) proxy.address();
        return address.getHostString() + ":" + address.getPort();
    }
}
