package org.sievecrawler.fetch;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The tap on one connection's input, below OkHttp: while armed it copies every byte OkHttp reads off the socket
 * (the plaintext, for https: the tap sits on the TLS socket's application stream) into a buffer, up to a limit;
 * disarmed, it passes the bytes through and copies nothing. A capturing fetcher arms it at the start of each
 * exchange on the connection, so that the buffer starts with the first byte of that exchange's response; it
 * disarms it once the final response head has been read, or, for a chunked body, once the body has been read (see
 * {@link Wire}). Where the heads and the chunked body end in those bytes is {@link WireFraming}'s to say.
 *
 * <p>Cost: one array copy per socket read while armed (the heads, and the rest of the read that held the last of
 * them: at most one read of 8 KiB past the head, the size of okio's reads); a test of a flag per read while not.
 * The buffer starts at 2 KiB and stays with the connection; one grown past {@link #KEPT_BYTES} by a large head or
 * a chunked body is dropped when the exchange takes its bytes.
 *
 * <p>Threads: one exchange at a time, as an HTTP/1.1 connection carries one exchange at a time; the calls of an
 * exchange (arm, the reads, disarm, {@link #bytes}) are made by the thread that runs it, and OkHttp's pool hands a
 * connection from thread to thread under its lock, which orders them. Out of scope: HTTP/2 (a capturing fetcher
 * speaks HTTP/1.1 only), the request side (OkHttp writes the request head from its fields, see {@link Wire}).
 */
final class HeadTap {
    /** A buffer larger than this after an exchange is not kept for the next one. */
    static final int KEPT_BYTES = 64 * 1024;

    private byte[] buffer = new byte[2048];
    private int size;
    private long limit;
    private boolean armed;
    private boolean overflowed;
    private InputStream tee;

    /** The socket's input, teed into this tap: made of {@code in} on the first call, the same stream after. */
    synchronized InputStream input(InputStream in) {
        if (tee == null) {
            tee = new Tee(in);
        }
        return tee;
    }

    /** Empties the buffer and copies from the next read on, at most {@code limit} bytes. */
    void arm(long limit) {
        if (buffer.length > KEPT_BYTES) {
            buffer = new byte[2048];
        }
        size = 0;
        this.limit = limit;
        overflowed = false;
        armed = true;
    }

    /** Lets the armed tap copy {@code more} bytes beyond its limit (a chunked body after the head). */
    void extend(long more) {
        limit += more;
    }

    /** Stops copying; the bytes copied stay until the next {@link #arm}. */
    void disarm() {
        armed = false;
    }

    /** The buffer: its first {@link #size()} bytes are those copied since {@link #arm}. */
    byte[] bytes() {
        return buffer;
    }

    int size() {
        return size;
    }

    /** Whether bytes were read past the limit and not copied. */
    boolean overflowed() {
        return overflowed;
    }

    private void copy(byte[] bytes, int offset, int count) {
        int room = (int) Math.min(count, limit - size);
        if (room < count) {
            overflowed = true;
        }
        if (room <= 0) {
            return;
        }
        if (buffer.length - size < room) {
            buffer = Arrays.copyOf(buffer, (int) Math.min(limit, Math.max(2L * buffer.length, size + room)));
        }
        System.arraycopy(bytes, offset, buffer, size, room);
        size += room;
    }

    /** The socket's input stream, copying what it reads into the tap while armed. */
    private final class Tee extends FilterInputStream {
        private final byte[] one = new byte[1];

        Tee(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            return read(one, 0, 1) == 1 ? one[0] & 0xff : -1;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            int read = in.read(bytes, offset, length);
            if (read > 0 && armed) {
                copy(bytes, offset, read);
            }
            return read;
        }

        @Override
        public long skip(long n) throws IOException {
            int read = read(new byte[(int) Math.min(n, 8192)], 0, (int) Math.min(n, 8192));
            return Math.max(read, 0);
        }
    }
}
