package org.sievecrawler.address;

/**
 * IP literals as URL hosts write them: IPv4 in every form the WHATWG URL standard and {@code inet_aton} accept
 * ({@code 0x7f.1}, {@code 2130706433}, {@code 0177.0.0.1} and {@code 127.1} are all 127.0.0.1 to a browser) and
 * IPv6 in its text forms (compressed, with an embedded dotted quad), turned into the bytes an address is.
 *
 * <p>Thread-safe: static, stateless functions.
 *
 * <p>Out of scope: what an address is for ({@link SpecialRanges}), zone identifiers ({@code fe80::1%eth0}) and
 * domain names.
 */
public final class IpLiteral {
    /** {@link #parseIpv4}: the host does not end in a number, so it is a domain name. */
    static final long NOT_IPV4 = -1;
    /** {@link #parseIpv4}: the host ends in a number but is not a valid IPv4 address. */
    public static final long INVALID_IPV4 = -2;

    private IpLiteral() {
    }

    /**
     * The address a host names by itself, 4 bytes for IPv4 and 16 for IPv6, or null for a domain name or an
     * invalid literal.
     *
     * @param host a host as {@link okhttp3.HttpUrl#host()} returns it (IPv6 without brackets), or in brackets;
     *     one trailing dot is ignored
     */
    public static byte[] bytes(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (h.indexOf(':') >= 0) {
            int[] groups = parseIpv6(h);
            if (groups == null) {
                return null;
            }
            byte[] address = new byte[16];
            for (int i = 0; i < 8; i++) {
                address[2 * i] = (byte) (groups[i] >>> 8);
                address[2 * i + 1] = (byte) groups[i];
            }
            return address;
        }
        long v4 = parseIpv4(h);
        return v4 < 0 ? null : new byte[] {(byte) (v4 >>> 24), (byte) (v4 >>> 16), (byte) (v4 >>> 8), (byte) v4};
    }

    /**
     * Parses {@code host} as the WHATWG URL standard's IPv4 parser does: one to four dot-separated parts, each
     * decimal, octal (leading 0) or hex (leading 0x); the last part fills the remaining bytes.
     *
     * @return the address in the low 32 bits, {@link #NOT_IPV4} or {@link #INVALID_IPV4}
     */
    public static long parseIpv4(String host) {
        int end = host.length();
        if (end > 1 && host.charAt(end - 1) == '.') {
            end--;
        }
        int lastStart = host.lastIndexOf('.', end - 1) + 1;
        if (!endsInNumber(host, lastStart, end)) {
            return NOT_IPV4;
        }
        long[] parts = new long[4];
        int count = 0;
        int start = 0;
        while (true) {
            int dot = host.indexOf('.', start);
            int partEnd = dot < 0 || dot >= end ? end : dot;
            if (count == 4) {
                return INVALID_IPV4;
            }
            long value = parseIpv4Number(host, start, partEnd);
            if (value < 0) {
                return INVALID_IPV4;
            }
            parts[count++] = value;
            if (partEnd == end) {
                break;
            }
            start = partEnd + 1;
        }
        for (int i = 0; i < count - 1; i++) {
            if (parts[i] > 255) {
                return INVALID_IPV4;
            }
        }
        if (parts[count - 1] >= 1L << (8 * (5 - count))) {
            return INVALID_IPV4;
        }
        long address = parts[count - 1];
        for (int i = 0; i < count - 1; i++) {
            address |= parts[i] << (8 * (3 - i));
        }
        return address;
    }

    /** Dotted-decimal form of an IPv4 address. */
    public static String formatIpv4(long address) {
        return ((address >>> 24) & 0xff) + "." + ((address >>> 16) & 0xff) + "." + ((address >>> 8) & 0xff) + "."
                + (address & 0xff);
    }

    private static boolean endsInNumber(String s, int start, int end) {
        if (start >= end) {
            return false;
        }
        boolean digits = true;
        for (int i = start; i < end; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                digits = false;
                break;
            }
        }
        return digits || parseIpv4Number(s, start, end) >= 0;
    }

    /** A part of an IPv4 literal, or -1; values past 2^32 are clamped to 2^32 (too big for any part). */
    private static long parseIpv4Number(String s, int start, int end) {
        if (start >= end) {
            return -1;
        }
        int radix = 10;
        if (end - start >= 2 && s.charAt(start) == '0' && (s.charAt(start + 1) == 'x' || s.charAt(start + 1) == 'X')) {
            radix = 16;
            start += 2;
        } else if (end - start >= 2 && s.charAt(start) == '0') {
            radix = 8;
            start += 1;
        }
        long value = 0;
        for (int i = start; i < end; i++) {
            int digit = Character.digit(s.charAt(i), radix);
            if (digit < 0 || s.charAt(i) > 'f') {
                return -1;
            }
            value = Math.min(value * radix + digit, 1L << 32);
        }
        return value;
    }

    /** The eight 16-bit groups of an IPv6 literal (no brackets, no zone), or null if it is not one. */
    static int[] parseIpv6(String s) {
        int[] groups = new int[8];
        int count = 0;
        int compressAt = -1;
        int i = 0;
        int n = s.length();
        if (s.startsWith("::")) {
            compressAt = 0;
            i = 2;
            if (n == 2) {
                return groups;
            }
        }
        while (i < n) {
            if (count == 8) {
                return null;
            }
            int start = i;
            int value = 0;
            while (i < n && i - start < 5) {
                int digit = Character.digit(s.charAt(i), 16);
                if (digit < 0 || s.charAt(i) > 'f') {
                    break;
                }
                value = (value << 4) | digit;
                i++;
            }
            int length = i - start;
            if (i < n && s.charAt(i) == '.') {
                // An embedded IPv4 address fills the last two groups.
                if (count > 6) {
                    return null;
                }
                long v4 = parseDottedQuad(s.substring(start));
                if (v4 < 0) {
                    return null;
                }
                groups[count++] = (int) (v4 >>> 16);
                groups[count++] = (int) (v4 & 0xffff);
                break;
            }
            if (length == 0 || length > 4) {
                return null;
            }
            groups[count++] = value;
            if (i == n) {
                break;
            }
            if (s.charAt(i) != ':') {
                return null;
            }
            i++;
            if (i < n && s.charAt(i) == ':') {
                if (compressAt >= 0) {
                    return null;
                }
                compressAt = count;
                i++;
            } else if (i == n) {
                return null;
            }
        }
        if (compressAt < 0) {
            return count == 8 ? groups : null;
        }
        if (count == 8) {
            return null;
        }
        int[] expanded = new int[8];
        int tail = count - compressAt;
        System.arraycopy(groups, 0, expanded, 0, compressAt);
        System.arraycopy(groups, compressAt, expanded, 8 - tail, tail);
        return expanded;
    }

    private static long parseDottedQuad(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return -1;
        }
        long address = 0;
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return -1;
            }
            int value = Integer.parseInt(part);
            if (value > 255) {
                return -1;
            }
            address = (address << 8) | value;
        }
        return address;
    }
}
