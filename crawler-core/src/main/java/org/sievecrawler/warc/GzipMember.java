package org.sievecrawler.warc;

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
final class GzipMember extends RecordCompressor {
    /** ID1 ID2, CM = deflate, no flags, no mtime, XFL = 4 (fastest algorithm), OS = 255 (unknown). */
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 4, (byte) 0xff};

    private final CRC32 crc = new CRC32();

    /** The member: header, deflated data, CRC-32 and length. */
    @Override
    byte[] compress(byte[] record, int size) {
        byte[] out = output(HEADER.length + FastDeflate.maxOutput(size) + 8);
        System.arraycopy(HEADER, 0, out, 0, HEADER.length);
        int at = FastDeflate.deflate(record, size, out, HEADER.length);
        crc.reset();
        crc.update(record, 0, size);
        at = putIntLe(out, at, (int) crc.getValue());
        at = putIntLe(out, at, size);
        return Arrays.copyOf(out, at);
    }

    private static int putIntLe(byte[] b, int at, int value) {
        b[at] = (byte) value;
        b[at + 1] = (byte) (value >>> 8);
        b[at + 2] = (byte) (value >>> 16);
        b[at + 3] = (byte) (value >>> 24);
        return at + 4;
    }
}
