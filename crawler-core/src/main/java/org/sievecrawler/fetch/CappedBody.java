package org.sievecrawler.fetch;

import java.io.IOException;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.GzipSource;
import okio.Okio;

/**
 * A response body read up to a cap and decoded: a gzip body (Content-Encoding: gzip) is inflated here, and at most
 * {@code cap + 1} decoded bytes are pulled, so a huge or highly compressed body (a gzip bomb) stops at the cap
 * without being inflated further. When asked to, it also keeps the body as transferred (still gzip-coded) for
 * archiving, itself cut at {@code cap} bytes.
 *
 * @param bytes the decoded body, at most {@code cap} bytes
 * @param truncated whether the decoded body was longer than {@code cap} (or its transfer was cut at the cap)
 * @param raw the body as transferred when it was kept, else null; the same array as {@code bytes} when the body
 *     was not content-coded, so keeping it costs nothing then
 * @param rawTruncated whether {@code raw} stops before the end of the body as sent
 */
record CappedBody(byte[] bytes, boolean truncated, byte[] raw, boolean rawTruncated) {
    /** The largest byte array the JVM reliably allocates. */
    static final long MAX_CAP = Integer.MAX_VALUE - 16;

    /** The body of {@code source}, not content-coded, at most {@code cap} bytes; the raw body is not kept. */
    static CappedBody read(BufferedSource source, long cap) throws IOException {
        return read(source, false, cap, false);
    }

    /**
     * Reads a body.
     *
     * @param source the body as transferred (de-chunked by OkHttp)
     * @param gzip whether the body is gzip-coded (Content-Encoding: gzip) and is to be inflated
     * @param cap decoded bytes kept at most, and raw bytes read at most when {@code keepRaw}
     * @param keepRaw whether to keep the body as transferred too
     * @throws IOException on a network error or a corrupt gzip stream
     */
    static CappedBody read(BufferedSource source, boolean gzip, long cap, boolean keepRaw) throws IOException {
        long limit = Math.min(cap, MAX_CAP);
        if (!gzip || source.exhausted()) { // an empty body is empty, whatever its Content-Encoding says
            Buffer buffer = new Buffer();
            pull(source, buffer, limit);
            boolean truncated = buffer.size() > limit;
            byte[] bytes = buffer.readByteArray(Math.min(buffer.size(), limit));
            return new CappedBody(bytes, truncated, keepRaw ? bytes : null, truncated);
        }
        Buffer decoded = new Buffer();
        if (!keepRaw) {
            pull(Okio.buffer(new GzipSource(source)), decoded, limit);
            boolean truncated = decoded.size() > limit;
            return new CappedBody(decoded.readByteArray(Math.min(decoded.size(), limit)), truncated, null, false);
        }
        Tap tap = new Tap(source, limit);
        try {
            pull(Okio.buffer(new GzipSource(tap)), decoded, limit);
        } catch (IOException e) {
            if (!tap.cut) {
                throw e;
            } // else the transfer was cut at the cap mid-stream: keep what was inflated
        }
        boolean overCap = decoded.size() > limit;
        return new CappedBody(decoded.readByteArray(Math.min(decoded.size(), limit)), overCap || tap.cut,
                tap.copy.readByteArray(), tap.cut || (overCap && !tap.ended));
    }

    /** Moves bytes from {@code source} to {@code buffer} until the source ends or the buffer holds limit + 1. */
    private static void pull(BufferedSource source, Buffer buffer, long limit) throws IOException {
        while (buffer.size() <= limit) {
            if (source.read(buffer, limit + 1 - buffer.size()) == -1) {
                break;
            }
        }
    }

    /** Passes the raw body through, copying it (segments are shared, not copied) and ending it at the cap. */
    private static final class Tap extends ForwardingSource {
        final BufferedSource upstream;
        final Buffer copy = new Buffer();
        final long limit;
        boolean cut;
        boolean ended;

        Tap(BufferedSource upstream, long limit) {
            super(upstream);
            this.upstream = upstream;
            this.limit = limit;
        }

        @Override
        public long read(Buffer sink, long byteCount) throws IOException {
            long room = limit - copy.size();
            if (room <= 0) {
                ended = upstream.exhausted();
                cut = !ended;
                return -1;
            }
            long read = super.read(sink, Math.min(byteCount, room));
            if (read == -1) {
                ended = true;
                return -1;
            }
            sink.copyTo(copy, sink.size() - read, read);
            return read;
        }
    }
}
