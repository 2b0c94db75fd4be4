package org.sievecrawler.warc;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The buffers of one {@link RecordCompressor}: the record's bytes as they are written (grown as needed) and the
 * output buffer its compressed form is made in. Both are reused from record to record; a buffer grown past
 * {@value #KEEP_AT_MOST} bytes for a huge record is dropped at {@link #clear()} rather than kept in the pool.
 *
 * <p>Not thread-safe: owned by one compressor.
 */
final class RecordBytes {
    private static final int INITIAL = 64 * 1024;
    private static final int KEEP_AT_MOST = 4 * 1024 * 1024;

    private byte[] in = new byte[INITIAL];
    private int size;
    private byte[] out = new byte[0];

    /** Appends what {@code src} holds; returns how many bytes. */
    int append(ByteBuffer src) {
        int length = src.remaining();
        ensure(length);
        src.get(in, size, length);
        size += length;
        return length;
    }

    void append(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, in, size, length);
        size += length;
    }

    /** The record's bytes so far: the first {@link #size()} of this array. */
    byte[] in() {
        return in;
    }

    int size() {
        return size;
    }

    /** The output buffer, at least {@code bound} bytes long. */
    byte[] out(int bound) {
        if (out.length < bound) {
            out = new byte[bound];
        }
        return out;
    }

    /** Empties the record for the next one; buffers grown for a huge record are dropped. */
    void clear() {
        if (in.length > KEEP_AT_MOST) {
            in = new byte[INITIAL];
            out = new byte[0];
        }
        size = 0;
    }

    private void ensure(int room) {
        if (in.length - size < room) {
            in = Arrays.copyOf(in, Math.max(in.length * 2, size + room));
        }
    }
}
