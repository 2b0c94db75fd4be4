package org.sievecrawler.link;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AddressGuardTest {

    @Test
    void parsesIpv4LiteralsAsBrowsersDo() {
        assertThat(AddressGuard.parseIpv4("127.0.0.1")).isEqualTo(0x7f000001L);
        assertThat(AddressGuard.parseIpv4("0x7f.1")).isEqualTo(0x7f000001L);
        assertThat(AddressGuard.parseIpv4("0177.0.0.01")).isEqualTo(0x7f000001L);
        assertThat(AddressGuard.parseIpv4("2130706433")).isEqualTo(0x7f000001L);
        assertThat(AddressGuard.parseIpv4("10.1.")).as("one trailing dot").isEqualTo(0x0a000001L);
        assertThat(AddressGuard.parseIpv4("0x")).isEqualTo(0L);
        assertThat(AddressGuard.parseIpv4("255.255.255.255")).isEqualTo(0xffffffffL);
    }

    @Test
    void tellsDomainNamesFromInvalidIpv4Literals() {
        assertThat(AddressGuard.parseIpv4("example.org")).isEqualTo(AddressGuard.NOT_IPV4);
        assertThat(AddressGuard.parseIpv4("1.2.3.example")).isEqualTo(AddressGuard.NOT_IPV4);
        assertThat(AddressGuard.parseIpv4("0xg")).isEqualTo(AddressGuard.NOT_IPV4);
        assertThat(AddressGuard.parseIpv4("256.0.0.1")).isEqualTo(AddressGuard.INVALID_IPV4);
        assertThat(AddressGuard.parseIpv4("1.2.3.4.5")).isEqualTo(AddressGuard.INVALID_IPV4);
        assertThat(AddressGuard.parseIpv4("1..2")).isEqualTo(AddressGuard.INVALID_IPV4);
        assertThat(AddressGuard.parseIpv4("4294967296")).isEqualTo(AddressGuard.INVALID_IPV4);
        assertThat(AddressGuard.parseIpv4("1.16777216")).isEqualTo(AddressGuard.INVALID_IPV4);
        assertThat(AddressGuard.parseIpv4("09.1.1.1")).as("9 is not octal").isEqualTo(AddressGuard.INVALID_IPV4);
        assertThat(AddressGuard.parseIpv4("example.123")).isEqualTo(AddressGuard.INVALID_IPV4);
        assertThat(AddressGuard.parseIpv4("99999999999999999999999")).isEqualTo(AddressGuard.INVALID_IPV4);
    }

    @Test
    void parsesIpv6Literals() {
        assertThat(AddressGuard.parseIpv6("::")).containsExactly(0, 0, 0, 0, 0, 0, 0, 0);
        assertThat(AddressGuard.parseIpv6("::1")).containsExactly(0, 0, 0, 0, 0, 0, 0, 1);
        assertThat(AddressGuard.parseIpv6("fe80::")).containsExactly(0xfe80, 0, 0, 0, 0, 0, 0, 0);
        assertThat(AddressGuard.parseIpv6("2001:DB8:0:0:1::2")).containsExactly(0x2001, 0xdb8, 0, 0, 1, 0, 0, 2);
        assertThat(AddressGuard.parseIpv6("::ffff:10.0.0.1")).containsExactly(0, 0, 0, 0, 0, 0xffff, 0x0a00, 1);
        assertThat(AddressGuard.parseIpv6("1:2:3:4:5:6:7:8")).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        for (String invalid : new String[] {"1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "1:2", ":1", "1:", "::g",
                "::1.2.3", "::256.1.1.1", "1:2:3:4:5:6:7::8:9"}) {
            assertThat(AddressGuard.parseIpv6(invalid)).as(invalid).isNull();
        }
    }

    @Test
    void namesTheReservedRange() {
        assertThat(AddressGuard.reservedRange("169.254.169.254")).isEqualTo("link-local 169.254.0.0/16");
        assertThat(AddressGuard.reservedRange("::ffff:a00:1")).isEqualTo("private 10.0.0.0/8 (embedded in IPv6)");
        assertThat(AddressGuard.reservedRange("localhost.")).isEqualTo("localhost");
        assertThat(AddressGuard.reservedRange("example.org")).isNull();
        assertThat(AddressGuard.reservedRange("2001:db8::1")).isNull();
    }
}
