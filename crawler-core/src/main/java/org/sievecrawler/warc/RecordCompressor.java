package org.sievecrawler.warc;

import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * A channel that gathers one WARC record as it is written and compresses it whole into a unit of its own (a gzip
 * member, a Zstandard frame), taken by {@link #finish()}, so that a reader can start at any record's offset. The
 * next write starts the next record. The record and the output are made in buffers reused from record to record
 * ({@link RecordBytes}); a subclass only compresses.
 *
 * <p>Not thread-safe: one thread at a time (the archive pools the encoders that own them).
 */
abstract sealed class RecordCompressor implements WritableByteChannel permits GzipMember, ZstdFrame {
    private final RecordBytes bytes = new RecordBytes();
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
        return bytes.append(src);
    }

    /** Appends {@code length} bytes of {@code data}, from {@code offset}, to the record. */
    final void write(byte[] data, int offset, int length) {
        bytes.append(data, offset, length);
    }

    /** Ends the record and returns it compressed, whole. */
    final byte[] finish() {
        try {
            return compress(bytes.in(), bytes.size());
        } finally {
            bytes.clear();
        }
    }

    /** The first {@code size} bytes of {@code record} as one compressed unit, made in {@link #output}. */
    abstract byte[] compress(byte[] record, int size);

    /** The reused output buffer, at least {@code bound} bytes long. */
    final byte[] output(int bound) {
        return bytes.out(bound);
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
}
