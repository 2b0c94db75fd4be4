package org.sievecrawler.warc;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * A channel that gzip-compresses what is written to it into one gzip member (RFC 1952) in memory, ended and
 * taken by {@link #finish()}: the "record-at-time compression" of WARC 1.1 annex D, so that a reader can start at
 * any record's offset. The next write starts a new member.
 *
 * <p>The record is gathered, then deflated whole by {@link FastDeflate}, which trades some ratio for speed: the
 * archive's cost is the crawl's cost on a CPU-bound crawler.
 *
 * <p>Not thread-safe: one thread at a time (the archive pools them).
 */
final class GzipMember implements RecordCompressor {
    private static final int INITIAL = 64 * 1024;
    /** A buffer grown past this for a huge record is dropped afterwards rather than kept in the pool. */
    private static final int KEEP_AT_MOST = 4 * 1024 * 1024;
    /** ID1 ID2, CM = deflate, no flags, no mtime, XFL = 4 (fastest algorithm), OS = 255 (unknown). */
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 4, (byte) 0xff};

    private final CRC32 crc = new CRC32();
    private byte[] in = new byte[INITIAL];
    private int size;
    private byte[] out = new byte[FastDeflate.maxOutput(INITIAL) + HEADER.length + 8];
    private boolean open = true;

    @Override
    public int write(ByteBuffer src) {
        int length = src.remaining();
        ensure(length);
        src.get(in, size, length);
        size += length;
        return length;
    }

    void write(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, in, size, length);
        size += length;
    }

    /** Ends the member and returns it whole: header, deflated data, CRC-32 and length. */
    @Override
    public byte[] finish() {
        int bound = HEADER.length + FastDeflate.maxOutput(size) + 8;
        if (out.length < bound) {
            out = new byte[bound];
        }
        System.arraycopy(HEADER, 0, out, 0, HEADER.length);
        int at = FastDeflate.deflate(in, size, out, HEADER.length);
        crc.update(in, 0, size);
        at = putIntLe(out, at, (int) crc.getValue());
        at = putIntLe(out, at, size);
        byte[] member = Arrays.copyOf(out, at);
        crc.reset();
        if (in.length > KEEP_AT_MOST) {
            in = new byte[INITIAL];
            out = new byte[FastDeflate.maxOutput(INITIAL) + HEADER.length + 8];
        }
        size = 0;
        return member;
    }

    private void ensure(int room) {
        if (in.length - size < room) {
            in = Arrays.copyOf(in, Math.max(in.length * 2, size + room));
        }
    }

    private static int putIntLe(byte[] b, int at, int value) {
        b[at] = (byte) value;
        b[at + 1] = (byte) (value >>> 8);
        b[at + 2] = (byte) (value >>> 16);
        b[at + 3] = (byte) (value >>> 24);
        return at + 4;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }
}
