package org.sievecrawler.fetch;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The tap on one connection's input, below OkHttp: while a {@link Capture} is armed on it, every byte OkHttp reads
 * off the socket (the plaintext, for https: the tap sits on the TLS socket's application stream) is copied into that
 * capture, up to its limit; with none armed, the bytes pass through and nothing is copied. A capturing fetcher arms
 * a capture at the start of each exchange on the connection, so that its bytes start with the first byte of that
 * exchange's response; it disarms it once the final response head has been read, or, for a chunked body, once the
 * body has been read (see {@link Wire}). Where the heads and the chunked body end in those bytes is
 * {@link WireFraming}'s to say.
 *
 * <p>Each exchange has a capture of its own, not the connection's buffer: OkHttp hands the connection to the next
 * call as soon as a body has been read to its end, before the fetcher takes the bytes out, and that call arms its
 * own capture; the bytes of the first stay in the first's.
 *
 * <p>Cost: one array copy per socket read while armed (the heads, and the rest of the read that held the last of
 * them: okio reads 8 KiB at a time, so at most 8 KiB of body), and a capture of 8 KiB per exchange (grown for a
 * larger head or a chunked body); a read of a field per socket read with none armed.
 *
 * <p>Threads: an HTTP/1.1 connection carries one exchange at a time, and a capture is written only by the thread
 * reading that exchange; arming and disarming are atomic, so a capture disarmed late never disarms the next one.
 * Out of scope: HTTP/2 (a capturing fetcher speaks HTTP/1.1 only), the request side (OkHttp writes the request
 * head from its fields, see {@link Wire}).
 */
final class HeadTap {
    /** The bytes a capture can take before it grows: one okio read. */
    private static final int FIRST_BYTES = 8192;

    private final AtomicReference<Capture> armed = new AtomicReference<>();
    private InputStream tee;

    /** The socket's input, teed into this tap: made of {@code in} on the first call, the same stream after. */
    synchronized InputStream input(InputStream in) {
        if (tee == null) {
            tee = new Tee(in);
        }
        return tee;
    }

    /** A new capture, armed: it copies from the next read on, at most {@code limit} bytes. */
    Capture arm(long limit) {
        Capture capture = new Capture(limit);
        armed.set(capture);
        return capture;
    }

    /** What one exchange read off the connection while it was armed. */
    final class Capture {
        private byte[] buffer;
        private int size;
        private long limit;
        private boolean overflowed;

        private Capture(long limit) {
            this.limit = limit;
            this.buffer = new byte[(int) Math.min(limit, FIRST_BYTES)];
        }

        /** Lets this capture copy {@code more} bytes beyond its limit (a chunked body after the head). */
        void extend(long more) {
            limit += more;
        }

        /** Stops copying into this capture (if it is still the one armed); its bytes stay. */
        void disarm() {
            armed.compareAndSet(this, null);
        }

        /** The buffer: its first {@link #size()} bytes are those copied. */
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
    }

    /** The socket's input stream, copying what it reads into the armed capture, if any. */
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
            Capture capture = armed.get();
            if (read > 0 && capture != null) {
                capture.copy(bytes, offset, read);
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
