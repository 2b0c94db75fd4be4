package org.sievecrawler.fetch;

import org.sievecrawler.fixtures.TsvTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sievecrawler.profile.ProfileKeys.FETCH_ALLOW_PRIVATE_ADDRESSES;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CALL_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_CONNECT_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_READ_TIMEOUT;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.SocketFactory;
import okhttp3.Dns;
import org.junit.jupiter.api.Test;
import org.sievecrawler.address.IpLiteral;
import org.sievecrawler.address.SpecialRange;
import org.sievecrawler.address.SpecialRanges;
import org.sievecrawler.link.LinkDecision;
import org.sievecrawler.link.LinkScope;
import org.sievecrawler.link.RejectReason;
import org.sievecrawler.link.UrlNormalizer;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.FetchConfig;
import org.sievecrawler.profile.LimitsConfig;
import org.sievecrawler.profile.ScopeConfig;
import org.sievecrawler.robots.RobotsFetcher;
import org.sievecrawler.robots.RobotsResponse;

class AddressGuardTest {
    private static final CrawlProfile PROFILE = CrawlProfile.defaults().with(FETCH_THREADS, 2)
            .with(FETCH_CONNECT_TIMEOUT, Duration.ofSeconds(5)).with(FETCH_READ_TIMEOUT, Duration.ofSeconds(5))
            .with(FETCH_CALL_TIMEOUT, Duration.ofSeconds(20)).with(FETCH_ALLOW_PRIVATE_ADDRESSES, false);
    private static final FetchConfig CONFIG = PROFILE.fetch();

    /** A fetcher behind {@code guard} whose connections {@code sockets} records (and never makes). */
    private static HttpFetcher watched(AddressGuard guard, RecordingSockets sockets) {
        return HttpFetcher.watching(CONFIG, LimitsConfig.defaults(), guard, Clock.systemUTC(), false, null, sockets);
    }

    /** Resolves every host to the same fixed addresses, without touching the network. */
    private static Dns resolvingTo(String... addresses) {
        return host -> {
            List<InetAddress> resolved = new ArrayList<>();
            for (String a : addresses) {
                resolved.add(InetAddress.getByAddress(host, IpLiteral.bytes(a))); // no lookup
            }
            return resolved;
        };
    }

    /** Resolves each name of {@code names} to its one address; any other name is unknown. */
    private static Dns resolving(Map<String, InetAddress> names) {
        return host -> {
            InetAddress address = names.get(host);
            if (address == null) {
                throw new UnknownHostException(host + ": not in the test's fake DNS");
            }
            return List.of(address);
        };
    }

    /** Makes sockets that record where they were asked to connect and never connect (nothing leaves the machine). */
    private static final class RecordingSockets extends SocketFactory {
        final List<SocketAddress> connects = new CopyOnWriteArrayList<>();

        @Override
        public Socket createSocket() {
            return new Socket() {
                @Override
                public void connect(SocketAddress endpoint, int timeout) throws IOException {
                    connects.add(endpoint);
                    throw new ConnectException("Connection refused (the test's socket never connects)");
                }
            };
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            throw new UnsupportedOperationException("OkHttp creates unconnected sockets");
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) {
            throw new UnsupportedOperationException("OkHttp creates unconnected sockets");
        }

        @Override
        public Socket createSocket(InetAddress host, int port) {
            throw new UnsupportedOperationException("OkHttp creates unconnected sockets");
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) {
            throw new UnsupportedOperationException("OkHttp creates unconnected sockets");
        }
    }

    private static List<String[]> samples() throws IOException {
        return TsvTable.cells("/address/special-addresses.tsv", 5);
    }

    private static String deciding(String cidr) {
        return SpecialRanges.TABLE.stream().filter(r -> r.cidr().equals(cidr)).map(SpecialRange::toString)
                .findFirst().orElseThrow();
    }

    private static String literalUrl(String address) {
        return "http://" + (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + "/";
    }

    @Test
    void bothGuardsAnswerAsTheTableOfSpecialRangesSays() throws IOException {
        LinkScope scope = new LinkScope(ScopeConfig.defaults(), List.of("https://example.org/"), false);
        UrlNormalizer normalizer = new UrlNormalizer();
        List<String[]> samples = samples();
        assertThat(samples).hasSizeGreaterThan(100);
        for (String[] sample : samples) {
            String address = sample[0];
            boolean refused = sample[1].equals("refused");
            String as = address + " (" + sample[4] + ")";

            LinkDecision link = scope.decide(((LinkDecision.Accept) normalizer.normalize(literalUrl(address)))
                    .url(), 1);
            boolean linkRefused = link instanceof LinkDecision.Reject reject
                    && reject.reason() == RejectReason.PRIVATE_ADDRESS;
            assertThat(linkRefused).as("link guard on %s: %s", as, link).isEqualTo(refused);

            AddressGuard guard = new AddressGuard(resolvingTo(address), false, Set.of("example.org:443"), Set.of());
            if (refused) {
                String range = deciding(sample[2]);
                assertThat(((LinkDecision.Reject) link).detail()).as("link guard on %s", as).contains(range);
                assertThatThrownBy(() -> guard.lookup("probe.example")).as("DNS guard on %s", as)
                        .isInstanceOf(PrivateAddressException.class)
                        .hasMessageContaining("host \"probe.example\" resolves only to addresses a crawl may not reach")
                        .hasMessageContaining(range);
            } else {
                assertThat(guard.lookup("probe.example")).as("DNS guard on %s", as)
                        .extracting(a -> a.getAddress()).containsExactly(IpLiteral.bytes(address).length == 16
                                && address.startsWith("::ffff:")
                                ? InetAddress.getByAddress(IpLiteral.bytes(address)).getAddress()
                                : IpLiteral.bytes(address));
            }
        }
    }

    @Test
    void neverConnectsToAHostNameResolvingToARefusedRange() throws IOException {
        Map<String, InetAddress> names = new HashMap<>();
        Map<String, String> refusedAddressOf = new HashMap<>();
        List<String[]> samples = samples();
        for (int i = 0; i < samples.size(); i++) {
            String name = "host-" + i + ".example";
            names.put(name, InetAddress.getByAddress(name, IpLiteral.bytes(samples.get(i)[0])));
            if (samples.get(i)[1].equals("refused")) {
                refusedAddressOf.put(name, samples.get(i)[0]);
            }
        }
        names.put("public.example", InetAddress.getByAddress("public.example", new byte[] {8, 8, 8, 8}));
        RecordingSockets sockets = new RecordingSockets();
        AddressGuard guard = new AddressGuard(resolving(names), false, Set.of("seed.example:8080"), Set.of());

        try (HttpFetcher fetcher = watched(guard, sockets)) {
            assertThat(refusedAddressOf).hasSizeGreaterThan(60);
            for (Map.Entry<String, String> refused : refusedAddressOf.entrySet()) {
                for (String url : List.of("http://" + refused.getKey() + "/", literalUrl(refused.getValue()))) {
                    FetchResult result = fetcher.fetch(url);

                    assertThat(result).as("%s (%s)", url, refused.getValue())
                            .isInstanceOfSatisfying(FetchResult.Failure.class,
                                    f -> assertThat(f.kind()).isEqualTo(FailureKind.PRIVATE_ADDRESS));
                    assertThat(sockets.connects).as("connections after %s (%s)", url, refused.getValue()).isEmpty();
                }
            }

            // The control: an allowed address is connected to (by the test's socket, which never connects).
            FetchResult control = fetcher.fetch("http://public.example/");
            assertThat(control).isInstanceOfSatisfying(FetchResult.Failure.class,
                    f -> assertThat(f.kind()).isEqualTo(FailureKind.REFUSED));
            assertThat(sockets.connects).containsExactly(new InetSocketAddress(names.get("public.example"), 80));
        }
    }

    /**
     * Issue 24: robots.txt of a host name that resolves only to loopback and is not a seed's. The guard refuses it
     * before any connection, as it refuses each of the host's pages: robots.txt is unavailable (nothing to obey), so
     * the pages are not held back as robots-disallowed but each refused by the guard itself.
     */
    @Test
    void treatsTheRobotsOfAHostResolvingOnlyToLoopbackAsUnavailable() {
        RecordingSockets sockets = new RecordingSockets();
        AddressGuard guard = new AddressGuard(resolvingTo("127.0.0.1"), false, Set.of("seed.example:8080"), Set.of());

        try (HttpFetcher fetcher = watched(guard, sockets)) {
            RobotsResponse robots = new RobotsFetcher(fetcher).fetch("http://intranet.example:8080/robots.txt");

            assertThat(robots.failure()).isEqualTo(FailureKind.PRIVATE_ADDRESS);
            assertThat(robots.unavailable()).as(robots.toString()).isTrue();
            assertThat(robots.error()).isEqualTo("robots.txt http://intranet.example:8080/robots.txt not fetched:"
                    + " host \"intranet.example\" resolves only to addresses a crawl may not reach: 127.0.0.1"
                    + " (127.0.0.0/8 loopback); set fetch.allow-private-addresses to crawl them");
            assertThat(sockets.connects).isEmpty();
        }
    }

    @Test
    void letsASeedsHostReachARefusedAddressOnlyOnTheSeedsPort() {
        RecordingSockets sockets = new RecordingSockets();
        AddressGuard guard = new AddressGuard(resolvingTo("10.0.0.5"), false,
                Set.of("intranet.example:8080"), Set.of());

        try (HttpFetcher fetcher = watched(guard, sockets)) {
            FetchResult otherPort = fetcher.fetch("http://intranet.example:6379/");
            assertThat(otherPort).isInstanceOfSatisfying(FetchResult.Failure.class, f -> {
                assertThat(f.kind()).isEqualTo(FailureKind.PRIVATE_ADDRESS);
                assertThat(f.detail()).isEqualTo("host \"intranet.example\" resolves only to addresses a crawl may"
                        + " not reach: 10.0.0.5 (10.0.0.0/8 private-use); it is a seed's host, allowed on its seeds'"
                        + " ports only");
            });
            assertThat(sockets.connects).isEmpty();

            fetcher.fetch("http://intranet.example:8080/");
            assertThat(sockets.connects).containsExactly(new InetSocketAddress("10.0.0.5", 8080));
        }
    }

    @Test
    void refusesALiteralOffTheSeedsPortNamingTheRangeAndTheRule() {
        RecordingSockets sockets = new RecordingSockets();
        AddressGuard guard = new AddressGuard(resolvingTo(), false, Set.of("127.0.0.1:8080", "[::1]:8080"), Set.of());

        try (HttpFetcher fetcher = watched(guard, sockets)) {
            assertThat(fetcher.fetch("http://127.0.0.1:9090/")).isInstanceOfSatisfying(FetchResult.Failure.class,
                    f -> assertThat(f.detail()).isEqualTo("host \"127.0.0.1\" is in 127.0.0.0/8 loopback and"
                            + " 127.0.0.1:9090 is not a seed's host and port; set fetch.allow-private-addresses to"
                            + " crawl it"));
            assertThat(fetcher.fetch("http://[::1]:9090/")).isInstanceOfSatisfying(FetchResult.Failure.class,
                    f -> assertThat(f.detail()).contains("::1/128 loopback address and [::1]:9090 is not"));
            assertThat(sockets.connects).isEmpty();

            fetcher.fetch("http://[::1]:8080/");
            assertThat(sockets.connects).hasSize(1);
        }
    }

    @Test
    void answersUnknownHostForNamesUnderInvalidWithoutAskingTheResolver() {
        AddressGuard guard = new AddressGuard(host -> {
            throw new AssertionError("the resolver was asked for " + host);
        }, true, Set.of("down.invalid"), Set.of());

        for (String host : List.of("down.invalid", "a.b.INVALID", "invalid")) {
            assertThatThrownBy(() -> guard.lookup(host)).as(host).isInstanceOf(UnknownHostException.class)
                    .hasMessageContaining("never resolve");
        }
    }

    @Test
    void refusesAHostThatResolvesOnlyToRefusedAddresses() {
        AddressGuard guard = new AddressGuard(resolvingTo("127.0.0.1", "100.100.100.200"), false, Set.of(), Set.of());

        assertThatThrownBy(() -> guard.lookup("intranet.example"))
                .isInstanceOf(PrivateAddressException.class)
                .hasMessage("host \"intranet.example\" resolves only to addresses a crawl may not reach: 127.0.0.1"
                        + " (127.0.0.0/8 loopback), 100.100.100.200 (100.64.0.0/10 shared address space); set"
                        + " fetch.allow-private-addresses to crawl them");
    }

    @Test
    void keepsOnlyTheReachableAddressesOfAMixedHost() throws UnknownHostException {
        AddressGuard guard = new AddressGuard(resolvingTo("10.0.0.1", "93.184.215.14", "2002:a00:1::",
                "2606:4700::6810:84e5"), false, Set.of(), Set.of());

        assertThat(guard.lookup("mixed.example")).extracting(InetAddress::getHostAddress)
                .containsExactly("93.184.215.14", "2606:4700:0:0:0:0:6810:84e5");
    }

    @Test
    void letsRefusedAddressesThroughWhenTheProfileAllowsThem() throws UnknownHostException {
        AddressGuard guard = new AddressGuard(resolvingTo("127.0.0.1"), true, Set.of(), Set.of());

        assertThat(guard.lookup("localhost")).extracting(InetAddress::getHostAddress).containsExactly("127.0.0.1");
    }

    @Test
    void letsASeedsHostResolveToRefusedAddressesOnlyForItsOriginsIgnoringCase() throws UnknownHostException {
        AddressGuard guard = new AddressGuard(resolvingTo("192.168.0.5"), false, Set.of("Seed.Example:8080"), Set.of());

        assertThat(guard.forSeedOrigins().lookup("seed.example")).extracting(InetAddress::getHostAddress)
                .containsExactly("192.168.0.5");
        assertThatThrownBy(() -> guard.lookup("seed.example")).isInstanceOf(PrivateAddressException.class);
        assertThatThrownBy(() -> guard.forSeedOrigins().lookup("other.example"))
                .isInstanceOf(PrivateAddressException.class);
        assertThat(guard.isSeedOrigin(okhttp3.HttpUrl.get("http://SEED.example:8080/x"))).isTrue();
        assertThat(guard.isSeedOrigin(okhttp3.HttpUrl.get("http://seed.example:8081/x"))).isFalse();
    }

    @Test
    void takesABareSeedHostAsEveryPortOfIt() throws UnknownHostException {
        AddressGuard guard = new AddressGuard(resolvingTo("127.0.0.1"), false,
                Set.of("localhost", "[::1]:80"), Set.of());

        assertThat(guard.lookup("localhost")).extracting(InetAddress::getHostAddress).containsExactly("127.0.0.1");
        assertThat(guard.isSeedOrigin(okhttp3.HttpUrl.get("http://localhost:1234/"))).isTrue();
        assertThat(guard.isSeedOrigin(okhttp3.HttpUrl.get("http://[0:0::1]/"))).isTrue();
        assertThat(guard.isSeedOrigin(okhttp3.HttpUrl.get("http://[::1]:81/"))).isFalse();
    }
}
