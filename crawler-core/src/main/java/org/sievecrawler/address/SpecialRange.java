package org.sievecrawler.address;

import java.util.Objects;

/**
 * One row of the {@link SpecialRanges} table: an address block in CIDR notation, its name as the IANA registry
 * gives it, whether a crawl may reach it, and the RFC that defines it. A row of an IPv4-embedding IPv6 form
 * (mapped, compatible, NAT64, 6to4, Teredo) says where the IPv4 address sits; its verdict is that address's.
 *
 * <p>Immutable and thread-safe. Out of scope: which row of several wins (the table's longest-prefix rule).
 */
public final class SpecialRange {

    /** Whether a crawl may connect to an address of the range. */
    enum Reach {
        /** IANA's "Globally Reachable" is True: an address on the Internet like any other. */
        REACHABLE,
        /** Not globally reachable, or not an address to connect to at all (documentation, multicast, reserved). */
        REFUSED,
        /** IPv4-mapped, IPv4-compatible and NAT64 /96: the IPv4 address is the last 32 bits. */
        IPV4_IN_LAST_32_BITS,
        /** 6to4 (RFC 3056): the IPv4 address is bits 16 to 47. */
        IPV4_IN_BITS_16_TO_47,
        /** Teredo (RFC 4380): the client's IPv4 address is the last 32 bits, each bit inverted. */
        TEREDO_CLIENT_IPV4;

        /** Whether the verdict is that of an IPv4 address embedded in the IPv6 one. */
        boolean embedsIpv4() {
            return this != REACHABLE && this != REFUSED;
        }

        /** The 4 bytes of the IPv4 address embedded in a 16-byte IPv6 address, for an embedding form. */
        byte[] embeddedIpv4(byte[] ipv6) {
            int offset = this == IPV4_IN_BITS_16_TO_47 ? 2 : 12;
            byte[] v4 = new byte[4];
            for (int i = 0; i < 4; i++) {
                v4[i] = (byte) (this == TEREDO_CLIENT_IPV4 ? ~ipv6[offset + i] : ipv6[offset + i]);
            }
            return v4;
        }
    }

    private final String cidr;
    private final byte[] network;
    private final int prefixLength;
    private final String name;
    private final Reach reach;
    private final String reference;

    /**
     * @param cidr e.g. {@code "100.64.0.0/10"} or {@code "64:ff9b::/96"}: a dotted quad or an IPv6 literal, no
     *     bits set past the prefix
     * @throws IllegalArgumentException naming the row when the block is not such a CIDR
     */
    SpecialRange(String cidr, String name, Reach reach, String reference) {
        this.cidr = Objects.requireNonNull(cidr, "cidr");
        this.name = Objects.requireNonNull(name, "name");
        this.reach = Objects.requireNonNull(reach, "reach");
        this.reference = Objects.requireNonNull(reference, "reference");
        int slash = cidr.indexOf('/');
        byte[] address = slash < 0 ? null : IpLiteral.bytes(cidr.substring(0, slash));
        int length = -1;
        try {
            length = slash < 0 ? -1 : Integer.parseInt(cidr.substring(slash + 1));
        } catch (NumberFormatException e) {
            // reported below
        }
        if (address == null || length < 0 || length > address.length * 8) {
            throw new IllegalArgumentException("special range \"" + cidr + "\" (" + name
                    + ") is not ADDRESS/PREFIX-LENGTH with a dotted-quad or IPv6 address and a length up to 32 or 128");
        }
        if (reach.embedsIpv4() && address.length != 16) {
            throw new IllegalArgumentException("special range \"" + cidr + "\" (" + name + ") embeds IPv4 in IPv6,"
                    + " so it must be an IPv6 block");
        }
        for (int bit = length; bit < address.length * 8; bit++) {
            if ((address[bit / 8] & (0x80 >>> (bit % 8))) != 0) {
                throw new IllegalArgumentException("special range \"" + cidr + "\" (" + name + ") has bits set past"
                        + " its /" + length + " prefix; write the block's first address");
            }
        }
        this.network = address;
        this.prefixLength = length;
    }

    /** Whether {@code address} (4 or 16 bytes) lies in the block; an IPv4 address is never in an IPv6 block. */
    boolean contains(byte[] address) {
        if (address.length != network.length) {
            return false;
        }
        int whole = prefixLength / 8;
        for (int i = 0; i < whole; i++) {
            if (address[i] != network[i]) {
                return false;
            }
        }
        int rest = prefixLength % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (address[whole] & mask) == (network[whole] & mask);
    }

    /** The block as written in the table, e.g. {@code "100.64.0.0/10"}. */
    public String cidr() {
        return cidr;
    }

    /** The block's first address, 4 or 16 bytes (a copy). */
    byte[] network() {
        return network.clone();
    }

    int prefixLength() {
        return prefixLength;
    }

    /** The IANA name in lower case but for acronyms, e.g. {@code "shared address space"}. */
    String name() {
        return name;
    }

    Reach reach() {
        return reach;
    }

    /** The RFC (or registry) that defines the range, e.g. {@code "RFC 6598"}. */
    String reference() {
        return reference;
    }

    /** The block and its name, as refusals quote it: {@code "100.64.0.0/10 shared address space"}. */
    @Override
    public String toString() {
        return cidr + " " + name;
    }
}
