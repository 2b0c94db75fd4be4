package org.sievecrawler.address;

import static org.sievecrawler.address.SpecialRange.Reach.IPV4_IN_BITS_16_TO_47;
import static org.sievecrawler.address.SpecialRange.Reach.IPV4_IN_LAST_32_BITS;
import static org.sievecrawler.address.SpecialRange.Reach.REACHABLE;
import static org.sievecrawler.address.SpecialRange.Reach.REFUSED;
import static org.sievecrawler.address.SpecialRange.Reach.TEREDO_CLIENT_IPV4;

import java.net.InetAddress;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.sievecrawler.address.SpecialRange.Reach;

/**
 * The one table of special-purpose IP ranges the crawler knows, and the verdict it gives an address: the rows of
 * the IANA IPv4 and IPv6 Special-Purpose Address Registries (iana-ipv4-special-registry,
 * iana-ipv6-special-registry; RFC 6890), in their order, plus multicast (224.0.0.0/4, ff00::/8), the deprecated
 * IPv6 site-local (fec0::/10) and IPv4-compatible (::/96) blocks. Each row's reach follows the registry's
 * "Globally Reachable" column: True is {@link Reach#REACHABLE}, False is {@link Reach#REFUSED}; the deprecated
 * 6to4 relay anycast block, whose column reads N/A, is refused (no web site lives there), and so are multicast and
 * site-local. The IPv4-embedding IPv6 forms (mapped, compatible, NAT64 64:ff9b::/96, 6to4, Teredo) take the
 * verdict of the IPv4 address inside: a link to {@code [::ffff:10.0.0.1]} or {@code [2002:a00:1::]} is a link to
 * 10.0.0.1. The local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215) places the IPv4 address where its operator's
 * prefix length says (RFC 6052 section 2.2), which an address does not tell: only its /96 form
 * {@code 64:ff9b:1::a.b.c.d} is decoded, the rest of the /48 is refused as the registry says.
 *
 * <p>The most specific row wins (longest prefix), as in a routing table: 192.0.0.9/32 (port control protocol
 * anycast, globally reachable) is reachable inside the refused 192.0.0.0/24, and 2001::/32 (Teredo) is decided by
 * its embedded address inside the refused 2001::/23. An address in no row is an ordinary address: reachable.
 *
 * <p>Why a Java table and not a resource file: the compiler checks each row's reach, a malformed block fails as
 * the class loads and in {@code SpecialRangesTest} (every block canonical, every row sampled by the table test in
 * {@code /address/special-addresses.tsv}) rather than in a running crawl, and it still reads like the registry:
 * one row a line, block, name, reach, RFC. To review it, put it next to
 * https://www.iana.org/assignments/iana-ipv4-special-registry/ and iana-ipv6-special-registry/.
 *
 * <p>Thread-safe: immutable. Out of scope: names that resolve to these addresses (the fetcher resolves and asks
 * here), and the seed exception (a seed's own host and port may be such an address: the callers' rule).
 */
public final class SpecialRanges {
    /** The table, in the registries' order. */
    public static final List<SpecialRange> TABLE = List.of(
            // IANA IPv4 Special-Purpose Address Registry
            row("0.0.0.0/8", "this network", REFUSED, "RFC 791"),
            row("0.0.0.0/32", "this host on this network", REFUSED, "RFC 1122"),
            row("10.0.0.0/8", "private-use", REFUSED, "RFC 1918"),
            row("100.64.0.0/10", "shared address space", REFUSED, "RFC 6598"),
            row("127.0.0.0/8", "loopback", REFUSED, "RFC 1122"),
            row("169.254.0.0/16", "link local", REFUSED, "RFC 3927"),
            row("172.16.0.0/12", "private-use", REFUSED, "RFC 1918"),
            row("192.0.0.0/24", "IETF protocol assignments", REFUSED, "RFC 6890"),
            row("192.0.0.0/29", "IPv4 service continuity prefix", REFUSED, "RFC 7335"),
            row("192.0.0.8/32", "IPv4 dummy address", REFUSED, "RFC 7600"),
            row("192.0.0.9/32", "port control protocol anycast", REACHABLE, "RFC 7723"),
            row("192.0.0.10/32", "traversal using relays around NAT anycast", REACHABLE, "RFC 8155"),
            row("192.0.0.170/32", "NAT64/DNS64 discovery", REFUSED, "RFC 8880"),
            row("192.0.0.171/32", "NAT64/DNS64 discovery", REFUSED, "RFC 8880"),
            row("192.0.2.0/24", "documentation (TEST-NET-1)", REFUSED, "RFC 5737"),
            row("192.31.196.0/24", "AS112-v4", REACHABLE, "RFC 7535"),
            row("192.52.193.0/24", "AMT", REACHABLE, "RFC 7450"),
            row("192.88.99.0/24", "deprecated (6to4 relay anycast)", REFUSED, "RFC 7526"),
            row("192.168.0.0/16", "private-use", REFUSED, "RFC 1918"),
            row("192.175.48.0/24", "direct delegation AS112 service", REACHABLE, "RFC 7534"),
            row("198.18.0.0/15", "benchmarking", REFUSED, "RFC 2544"),
            row("198.51.100.0/24", "documentation (TEST-NET-2)", REFUSED, "RFC 5737"),
            row("203.0.113.0/24", "documentation (TEST-NET-3)", REFUSED, "RFC 5737"),
            row("240.0.0.0/4", "reserved", REFUSED, "RFC 1112"),
            row("255.255.255.255/32", "limited broadcast", REFUSED, "RFC 919"),
            // IPv4 multicast (IANA IPv4 Multicast Address Space Registry)
            row("224.0.0.0/4", "multicast", REFUSED, "RFC 5771"),

            // IANA IPv6 Special-Purpose Address Registry
            row("::1/128", "loopback address", REFUSED, "RFC 4291"),
            row("::/128", "unspecified address", REFUSED, "RFC 4291"),
            row("::ffff:0:0/96", "IPv4-mapped address", IPV4_IN_LAST_32_BITS, "RFC 4291"),
            row("64:ff9b::/96", "IPv4-IPv6 translation (NAT64)", IPV4_IN_LAST_32_BITS, "RFC 6052"),
            row("64:ff9b:1::/48", "IPv4-IPv6 translation, local use", REFUSED, "RFC 8215"),
            row("100::/64", "discard-only address block", REFUSED, "RFC 6666"),
            row("100:0:0:1::/64", "dummy IPv6 prefix", REFUSED, "RFC 9780"),
            row("2001::/23", "IETF protocol assignments", REFUSED, "RFC 2928"),
            row("2001::/32", "Teredo", TEREDO_CLIENT_IPV4, "RFC 4380"),
            row("2001:1::1/128", "port control protocol anycast", REACHABLE, "RFC 7723"),
            row("2001:1::2/128", "traversal using relays around NAT anycast", REACHABLE, "RFC 8155"),
            row("2001:1::3/128", "DNS-SD service registration protocol anycast", REACHABLE, "RFC 9665"),
            row("2001:2::/48", "benchmarking", REFUSED, "RFC 5180"),
            row("2001:3::/32", "AMT", REACHABLE, "RFC 7450"),
            row("2001:4:112::/48", "AS112-v6", REACHABLE, "RFC 7535"),
            row("2001:10::/28", "deprecated (previously ORCHID)", REFUSED, "RFC 4843"),
            row("2001:20::/28", "ORCHIDv2", REACHABLE, "RFC 7343"),
            row("2001:30::/28", "drone remote ID protocol entity tags (DETs) prefix", REACHABLE, "RFC 9374"),
            row("2001:db8::/32", "documentation", REFUSED, "RFC 3849"),
            row("2002::/16", "6to4", IPV4_IN_BITS_16_TO_47, "RFC 3056"),
            row("2620:4f:8000::/48", "direct delegation AS112 service", REACHABLE, "RFC 7534"),
            row("3fff::/20", "documentation", REFUSED, "RFC 9637"),
            row("5f00::/16", "segment routing (SRv6) SIDs", REFUSED, "RFC 9602"),
            row("fc00::/7", "unique-local", REFUSED, "RFC 4193"),
            row("fe80::/10", "link-local unicast", REFUSED, "RFC 4291"),
            // Not in the registry: deprecated forms a host may still route locally, and multicast
            row("::/96", "IPv4-compatible address (deprecated)", IPV4_IN_LAST_32_BITS, "RFC 4291"),
            row("64:ff9b:1::/96", "IPv4-IPv6 translation, local use, /96 form", IPV4_IN_LAST_32_BITS, "RFC 8215"),
            row("fec0::/10", "site-local (deprecated)", REFUSED, "RFC 3879"),
            row("ff00::/8", "multicast", REFUSED, "RFC 4291"));

    /** The name every host under {@code localhost} resolves to the machine itself (RFC 6761 section 6.3). */
    private static final String LOCALHOST_RANGE = "the localhost domain (RFC 6761)";

    /** The table, most specific first: the first row that contains an address decides. */
    private static final List<SpecialRange> BY_PREFIX = TABLE.stream()
            .sorted(Comparator.comparingInt(SpecialRange::prefixLength).reversed()).toList();

    private SpecialRanges() {
    }

    private static SpecialRange row(String cidr, String name, Reach reach, String reference) {
        return new SpecialRange(cidr, name, reach, reference);
    }

    /** The most specific row that contains {@code address} (4 or 16 bytes), or null. */
    static SpecialRange rowOf(byte[] address) {
        for (SpecialRange range : BY_PREFIX) {
            if (range.contains(address)) {
                return range;
            }
        }
        return null;
    }

    /** The verdict on an address of 4 or 16 bytes. */
    public static Verdict check(byte[] address) {
        SpecialRange range = rowOf(address);
        if (range == null) {
            return Verdict.UNLISTED;
        }
        if (!range.reach().embedsIpv4()) {
            return new Verdict(range.reach() == REFUSED, range.toString());
        }
        byte[] v4 = range.reach().embeddedIpv4(address);
        SpecialRange inner = rowOf(v4);
        String inside = range + " with " + IpLiteral.formatIpv4(toLong(v4)) + " inside";
        if (inner == null) {
            return new Verdict(false, inside);
        }
        return new Verdict(inner.reach() == REFUSED, inside + ", in " + inner);
    }

    /** The verdict on a resolved address; Java has already turned an IPv4-mapped IPv6 address into IPv4. */
    public static Verdict check(InetAddress address) {
        return check(address.getAddress());
    }

    /**
     * The verdict on a URL's host without DNS: an IP literal in any form {@link IpLiteral} reads, or a name under
     * {@code localhost} (refused); any other name is {@link Verdict#UNLISTED}, its addresses are DNS's to tell.
     *
     * @param host a host as {@link okhttp3.HttpUrl#host()} returns it: lower case, IPv6 without brackets
     */
    public static Verdict checkHost(String host) {
        String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        String lower = h.toLowerCase(Locale.ROOT);
        if (lower.equals("localhost") || lower.endsWith(".localhost")) {
            return new Verdict(true, LOCALHOST_RANGE);
        }
        byte[] address = IpLiteral.bytes(h);
        return address == null ? Verdict.UNLISTED : check(address);
    }

    private static long toLong(byte[] v4) {
        return ((v4[0] & 0xffL) << 24) | ((v4[1] & 0xff) << 16) | ((v4[2] & 0xff) << 8) | (v4[3] & 0xff);
    }
}
