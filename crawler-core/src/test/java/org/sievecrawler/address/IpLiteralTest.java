package org.sievecrawler.address;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IpLiteralTest {

    @Test
    void parsesIpv4LiteralsAsBrowsersDo() {
        assertThat(IpLiteral.parseIpv4("127.0.0.1")).isEqualTo(0x7f000001L);
        assertThat(IpLiteral.parseIpv4("0x7f.1")).isEqualTo(0x7f000001L);
        assertThat(IpLiteral.parseIpv4("0177.0.0.01")).isEqualTo(0x7f000001L);
        assertThat(IpLiteral.parseIpv4("2130706433")).isEqualTo(0x7f000001L);
        assertThat(IpLiteral.parseIpv4("10.1.")).as("one trailing dot").isEqualTo(0x0a000001L);
        assertThat(IpLiteral.parseIpv4("0x")).isEqualTo(0L);
        assertThat(IpLiteral.parseIpv4("255.255.255.255")).isEqualTo(0xffffffffL);
    }

    @Test
    void tellsDomainNamesFromInvalidIpv4Literals() {
        assertThat(IpLiteral.parseIpv4("example.org")).isEqualTo(IpLiteral.NOT_IPV4);
        assertThat(IpLiteral.parseIpv4("1.2.3.example")).isEqualTo(IpLiteral.NOT_IPV4);
        assertThat(IpLiteral.parseIpv4("0xg")).isEqualTo(IpLiteral.NOT_IPV4);
        assertThat(IpLiteral.parseIpv4("256.0.0.1")).isEqualTo(IpLiteral.INVALID_IPV4);
        assertThat(IpLiteral.parseIpv4("1.2.3.4.5")).isEqualTo(IpLiteral.INVALID_IPV4);
        assertThat(IpLiteral.parseIpv4("1..2")).isEqualTo(IpLiteral.INVALID_IPV4);
        assertThat(IpLiteral.parseIpv4("4294967296")).isEqualTo(IpLiteral.INVALID_IPV4);
        assertThat(IpLiteral.parseIpv4("1.16777216")).isEqualTo(IpLiteral.INVALID_IPV4);
        assertThat(IpLiteral.parseIpv4("09.1.1.1")).as("9 is not octal").isEqualTo(IpLiteral.INVALID_IPV4);
        assertThat(IpLiteral.parseIpv4("example.123")).isEqualTo(IpLiteral.INVALID_IPV4);
        assertThat(IpLiteral.parseIpv4("99999999999999999999999")).isEqualTo(IpLiteral.INVALID_IPV4);
    }

    @Test
    void parsesIpv6Literals() {
        assertThat(IpLiteral.parseIpv6("::")).containsExactly(0, 0, 0, 0, 0, 0, 0, 0);
        assertThat(IpLiteral.parseIpv6("::1")).containsExactly(0, 0, 0, 0, 0, 0, 0, 1);
        assertThat(IpLiteral.parseIpv6("fe80::")).containsExactly(0xfe80, 0, 0, 0, 0, 0, 0, 0);
        assertThat(IpLiteral.parseIpv6("2001:DB8:0:0:1::2")).containsExactly(0x2001, 0xdb8, 0, 0, 1, 0, 0, 2);
        assertThat(IpLiteral.parseIpv6("::ffff:10.0.0.1")).containsExactly(0, 0, 0, 0, 0, 0xffff, 0x0a00, 1);
        assertThat(IpLiteral.parseIpv6("1:2:3:4:5:6:7:8")).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        for (String invalid : new String[] {"1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "1:2", ":1", "1:", "::g",
                "::1.2.3", "::256.1.1.1", "1:2:3:4:5:6:7::8:9"}) {
            assertThat(IpLiteral.parseIpv6(invalid)).as(invalid).isNull();
        }
    }

    @Test
    void turnsLiteralsIntoTheBytesOfTheAddress() {
        assertThat(IpLiteral.bytes("0x7f.1")).containsExactly(127, 0, 0, 1);
        assertThat(IpLiteral.bytes("10.0.0.1.")).as("one trailing dot").containsExactly(10, 0, 0, 1);
        assertThat(IpLiteral.bytes("[::ffff:10.0.0.1]")).containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, 10, 0,
                0, 1);
        assertThat(IpLiteral.bytes("example.org")).isNull();
        assertThat(IpLiteral.bytes("256.0.0.1")).isNull();
        assertThat(IpLiteral.bytes("1::2::3")).isNull();
    }
}
