package org.sievecrawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Set;
import okhttp3.Dns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class AddressGuardTest {
    /** Resolves every host to the same fixed addresses, without touching the network. */
    private static Dns resolvingTo(String... addresses) {
        return host -> {
            List<InetAddress> resolved = new java.util.ArrayList<>();
            for (String a : addresses) {
                resolved.add(InetAddress.getByName(a)); // literals: no lookup
            }
            return resolved;
        };
    }

    @ParameterizedTest(name = "{0} private={1}")
    @CsvFileSource(resources = "/fetch/private-addresses.tsv", delimiter = '\t')
    void classifiesLoopbackPrivateLinkLocalAndUnspecifiedAddresses(String address, boolean expected)
            throws UnknownHostException {
        assertThat(AddressGuard.isPrivate(InetAddress.getByName(address))).as(address).isEqualTo(expected);
    }

    @Test
    void answersUnknownHostForNamesUnderInvalidWithoutAskingTheResolver() {
        AddressGuard guard = new AddressGuard(host -> {
            throw new AssertionError("the resolver was asked for " + host);
        }, true, Set.of("down.invalid"));

        for (String host : List.of("down.invalid", "a.b.INVALID", "invalid")) {
            assertThatThrownBy(() -> guard.lookup(host)).as(host).isInstanceOf(UnknownHostException.class)
                    .hasMessageContaining("never resolve");
        }
    }

    @Test
    void refusesAHostThatResolvesOnlyToPrivateAddresses() {
        AddressGuard guard = new AddressGuard(resolvingTo("127.0.0.1", "10.0.0.1"), false, Set.of());

        assertThatThrownBy(() -> guard.lookup("intranet.example"))
                .isInstanceOf(PrivateAddressException.class)
                .hasMessageContaining("\"intranet.example\"")
                .hasMessageContaining("[127.0.0.1, 10.0.0.1]")
                .hasMessageContaining("fetch.allow-private-addresses");
    }

    @Test
    void keepsOnlyThePublicAddressesOfAMixedHost() throws UnknownHostException {
        AddressGuard guard = new AddressGuard(resolvingTo("10.0.0.1", "93.184.215.14"), false, Set.of());

        assertThat(guard.lookup("mixed.example")).extracting(InetAddress::getHostAddress)
                .containsExactly("93.184.215.14");
    }

    @Test
    void letsPrivateAddressesThroughWhenTheProfileAllowsThem() throws UnknownHostException {
        AddressGuard guard = new AddressGuard(resolvingTo("127.0.0.1"), true, Set.of());

        assertThat(guard.lookup("localhost")).extracting(InetAddress::getHostAddress).containsExactly("127.0.0.1");
    }

    @Test
    void letsPrivateAddressesThroughForAnAllowedHostIgnoringCase() throws UnknownHostException {
        AddressGuard guard = new AddressGuard(resolvingTo("192.168.0.5"), false, Set.of("Seed.Example"));

        assertThat(guard.lookup("seed.example")).extracting(InetAddress::getHostAddress).containsExactly("192.168.0.5");
        assertThatThrownBy(() -> guard.lookup("other.example")).isInstanceOf(PrivateAddressException.class);
    }
}
