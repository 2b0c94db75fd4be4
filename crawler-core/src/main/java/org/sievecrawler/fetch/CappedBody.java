package org.sievecrawler.fetch;

import java.io.IOException;
import okio.Buffer;
import okio.BufferedSource;

/**
 * A response body read up to a cap: at most {@code cap + 1} bytes are pulled from the (already decompressing)
 * source, so a huge or highly compressed body stops at the cap without being inflated further.
 *
 * @param bytes the body, at most {@code cap} bytes
 * @param truncated whether the source had more than {@code cap} bytes
 */
record CappedBody(byte[] bytes, boolean truncated) {
    /** The largest byte array the JVM reliably allocates. */
    static final long MAX_CAP = Integer.MAX_VALUE - 16;

    static CappedBody read(BufferedSource source, long cap) throws IOException {
        long limit = Math.min(cap, MAX_CAP);
        Buffer buffer = new Buffer();
        while (buffer.size() <= limit) {
            if (source.read(buffer, limit + 1 - buffer.size()) == -1) {
                break;
            }
        }
        boolean truncated = buffer.size() > limit;
        return new CappedBody(buffer.readByteArray(Math.min(buffer.size(), limit)), truncated);
    }
}
