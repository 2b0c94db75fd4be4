package org.sievecrawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import okhttp3.Dns;
import org.junit.jupiter.api.Test;
import org.sievecrawler.address.IpLiteral;
import org.sievecrawler.fixtures.FakeClock;

class DnsCacheTest {
    private final FakeClock clock = new FakeClock();
    private final List<String> asked = new ArrayList<>();
    private final AtomicBoolean outOfDescriptors = new AtomicBoolean();
    /** Knows a.test (192.0.2.1), b.test (192.0.2.2) and c.test (192.0.2.3); any other name is unknown. */
    private final Dns resolver = host -> {
        asked.add(host);
        String address = Map.of("a.test", "192.0.2.1", "b.test", "192.0.2.2", "c.test", "192.0.2.3").get(host);
        if (address == null) {
            throw new UnknownHostException(host + ": Name or service not known");
        }
        return List.of(InetAddress.getByAddress(host, IpLiteral.bytes(address)));
    };

    private DnsCache cache(Duration ttl, Duration negativeTtl, int maxEntries) {
        return new DnsCache(resolver, ttl, negativeTtl, maxEntries, clock, outOfDescriptors::get);
    }

    @Test
    void answersANameAgainFromTheCacheUntilItsTtlEnds() throws Exception {
        DnsCache dns = cache(Duration.ofMinutes(5), Duration.ofSeconds(30), 10);

        assertThat(dns.lookup("a.test").get(0).getHostAddress()).isEqualTo("192.0.2.1");
        clock.advance(Duration.ofMinutes(5).minusMillis(1));
        assertThat(dns.lookup("A.TEST").get(0).getHostAddress()).isEqualTo("192.0.2.1");
        assertThat(asked).containsExactly("a.test");

        clock.advance(Duration.ofMillis(1)); // expired: asked again
        dns.lookup("a.test");
        assertThat(asked).containsExactly("a.test", "a.test");
        assertThat(dns.counts()).isEqualTo(new DnsCache.Counts(3, 1, 0, 0));
    }

    @Test
    void keepsAnUnknownNameForTheNegativeTtlOnly() {
        DnsCache dns = cache(Duration.ofMinutes(5), Duration.ofSeconds(30), 10);

        assertThatThrownBy(() -> dns.lookup("nowhere.test")).isInstanceOf(UnknownHostException.class)
                .hasMessage("nowhere.test: Name or service not known");
        clock.advance(Duration.ofSeconds(29));
        assertThatThrownBy(() -> dns.lookup("nowhere.test")).isInstanceOf(UnknownHostException.class)
                .hasMessageContaining("nowhere.test: Name or service not known (a cached answer, kept for 30 s:"
                        + " fetch.dns-negative-ttl)");
        assertThat(asked).containsExactly("nowhere.test");

        clock.advance(Duration.ofSeconds(1));
        assertThatThrownBy(() -> dns.lookup("nowhere.test")).isInstanceOf(UnknownHostException.class);
        assertThat(asked).containsExactly("nowhere.test", "nowhere.test");
        assertThat(dns.counts()).isEqualTo(new DnsCache.Counts(3, 0, 1, 2));
    }

    @Test
    void keepsAtMostItsBoundTheLeastRecentlyUsedNameGoingFirst() throws Exception {
        DnsCache dns = cache(Duration.ofMinutes(5), Duration.ofSeconds(30), 2);

        dns.lookup("a.test");
        dns.lookup("b.test");
        dns.lookup("a.test"); // a.test used last: b.test is the eldest
        dns.lookup("c.test");
        assertThat(dns.size()).isEqualTo(2);

        dns.lookup("a.test");
        dns.lookup("c.test");
        dns.lookup("b.test"); // dropped: asked again
        assertThat(asked).containsExactly("a.test", "b.test", "c.test", "b.test");
    }

    @Test
    void aZeroTtlKeepsNothing() throws Exception {
        DnsCache dns = cache(Duration.ZERO, Duration.ZERO, 10);

        dns.lookup("a.test");
        dns.lookup("a.test");
        assertThatThrownBy(() -> dns.lookup("nowhere.test")).isInstanceOf(UnknownHostException.class);
        assertThatThrownBy(() -> dns.lookup("nowhere.test")).isInstanceOf(UnknownHostException.class);

        assertThat(asked).hasSize(4);
        assertThat(dns.size()).isZero();
    }

    @Test
    void aLookupThatFailedForWantOfFileDescriptorsIsBackPressureNotAnUnknownHost() throws Exception {
        DnsCache dns = cache(Duration.ofMinutes(5), Duration.ofSeconds(30), 10);
        outOfDescriptors.set(true); // the JDK says "Name or service not known" for it: the cache asks the process

        assertThatThrownBy(() -> dns.lookup("a.test.example")).isInstanceOf(UnknownHostException.class)
                .hasMessage("a.test.example: Too many open files (the process is out of file descriptors; the"
                        + " resolver said: a.test.example: Name or service not known)")
                .satisfies(e -> assertThat(NetworkErrors.outOfDescriptors(e)).isTrue());
        outOfDescriptors.set(false);
        assertThatThrownBy(() -> dns.lookup("a.test.example")).hasMessage("a.test.example: Name or service not known");

        assertThat(asked).containsExactly("a.test.example", "a.test.example"); // the first failure was not kept
        assertThat(dns.counts().failures()).isEqualTo(1);
    }

    @Test
    void theAddressGuardChecksACachedAnswerAsAFreshOne() throws Exception {
        Dns loopback = host -> List.of(InetAddress.getByAddress(host, IpLiteral.bytes("127.0.0.1")));
        DnsCache dns = new DnsCache(loopback, Duration.ofMinutes(5), Duration.ofSeconds(30), 10, clock, () -> false);
        AddressGuard guard = new AddressGuard(dns, false, Set.of("seed.test:8080"), Set.of());

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> guard.lookup("seed.test")).isInstanceOf(PrivateAddressException.class);
            assertThat(guard.forSeedOrigins().lookup("seed.test").get(0).getHostAddress()).isEqualTo("127.0.0.1");
        }
        assertThat(dns.counts()).isEqualTo(new DnsCache.Counts(4, 3, 0, 0));
    }
}
