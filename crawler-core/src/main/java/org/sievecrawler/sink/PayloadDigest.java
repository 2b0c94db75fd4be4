package org.sievecrawler.sink;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The {@code digest} of a page record: the SHA-1 of the body as read (after the content coding is undone), written
 * as WARC writes digests, {@code sha1:} and the 20 bytes in base32 (RFC 4648, 32 letters, no padding). Two pages with
 * one digest have the same bytes (exact duplicates). It is not WARC's {@code WARC-Payload-Digest} when the response
 * came compressed: the WARC record keeps the content coding.
 *
 * <p>Stateless and safe for any number of threads (a {@link MessageDigest} per thread).
 */
public final class PayloadDigest {
    /** What a digest looks like, for error messages. */
    public static final String FORM = "sha1: and 32 base32 letters (A-Z, 2-7)";

    private static final char[] BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".toCharArray();
    private static final ThreadLocal<MessageDigest> SHA1 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-1", e);
        }
    });

    private PayloadDigest() {
    }

    /** The digest of {@code body[0, length)}. */
    public static String of(byte[] body, int length) {
        MessageDigest sha1 = SHA1.get();
        sha1.reset();
        sha1.update(body, 0, length);
        byte[] hash = sha1.digest();
        StringBuilder text = new StringBuilder(37).append("sha1:");
        for (int group = 0; group < 20; group += 5) {
            long bits = 0;
            for (int i = 0; i < 5; i++) {
                bits = bits << 8 | (hash[group + i] & 0xff);
            }
            for (int shift = 35; shift >= 0; shift -= 5) {
                text.append(BASE32[(int) (bits >>> shift) & 31]);
            }
        }
        return text.toString();
    }

    /** Whether {@code text} has the form {@link #of} writes. */
    public static boolean isDigest(String text) {
        if (text.length() != 37 || !text.startsWith("sha1:")) {
            return false;
        }
        for (int i = 5; i < 37; i++) {
            char c = text.charAt(i);
            if (!((c >= 'A' && c <= 'Z') || (c >= '2' && c <= '7'))) {
                return false;
            }
        }
        return true;
    }
}
