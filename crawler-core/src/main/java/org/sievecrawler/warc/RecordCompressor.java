package org.sievecrawler.warc;

import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;
import org.sievecrawler.profile.WarcCompression;

/**
 * A channel that gathers one WARC record as it is written and compresses it whole into a unit of its own (a gzip
 * member, a Zstandard frame), taken by {@link #finish()}, so that a reader can start at any record's offset. The
 * next write starts the next record. The record's bytes (grown as needed) and the output buffer its compressed form
 * is made in are reused from record to record; a buffer grown past {@value #KEEP_AT_MOST} bytes for a huge record
 * is dropped at the end of it rather than kept. A subclass only compresses.
 *
 * <p>Not thread-safe: one thread at a time (the archive pools the encoders that own them).
 */
abstract sealed class RecordCompressor implements WritableByteChannel permits GzipMember, ZstdFrame {
    private static final int INITIAL = 64 * 1024;
    private static final int KEEP_AT_MOST = 4 * 1024 * 1024;

    private byte[] record = new byte[INITIAL];
    private int size;
    private byte[] output = new byte[0];
    private boolean open = true;

    /** The compressor for {@code compression}. */
    static RecordCompressor of(WarcCompression compression) {
        return switch (compression) {
            case GZIP -> new GzipMember();
            case ZSTD -> new ZstdFrame();
        };
    }

    @Override
    public final int write(ByteBuffer src) {
        int length = src.remaining();
        ensure(length);
        src.get(record, size, length);
        size += length;
        return length;
    }

    /** Appends {@code length} bytes of {@code data}, from {@code offset}, to the record. */
    final void write(byte[] data, int offset, int length) {
        ensure(length);
        System.arraycopy(data, offset, record, size, length);
        size += length;
    }

    /** Ends the record and returns it compressed, whole. */
    final byte[] finish() {
        try {
            return compress(record, size);
        } finally {
            if (record.length > KEEP_AT_MOST) {
                record = new byte[INITIAL];
                output = new byte[0];
            }
            size = 0;
        }
    }

    /** The first {@code size} bytes of {@code record} as one compressed unit, made in {@link #output}. */
    abstract byte[] compress(byte[] record, int size);

    /** The reused output buffer, at least {@code bound} bytes long. */
    final byte[] output(int bound) {
        if (output.length < bound) {
            output = new byte[bound];
        }
        return output;
    }

    @Override
    public final boolean isOpen() {
        return open;
    }

    /** Frees what the compressor holds outside the Java heap, if anything; it is not used afterwards. */
    @Override
    public final void close() {
        if (open) {
            open = false;
            release();
        }
    }

    /** Frees native memory, once, at {@link #close()}; nothing by default. */
    void release() {
    }

    private void ensure(int room) {
        if (record.length - size < room) {
            record = Arrays.copyOf(record, Math.max(record.length * 2, size + room));
        }
    }
}
