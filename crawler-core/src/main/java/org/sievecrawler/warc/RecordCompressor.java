package org.sievecrawler.warc;

import java.nio.channels.WritableByteChannel;

/**
 * A channel that gathers one WARC record as it is written and compresses it whole into a unit of its own (a gzip
 * member, a Zstandard frame), taken by {@link #finish()}, so that a reader can start at any record's offset. The
 * next write starts the next record.
 *
 * <p>Not thread-safe: one thread at a time (the archive pools the encoders that own them).
 */
sealed interface RecordCompressor extends WritableByteChannel permits GzipMember, ZstdFrame {

    /** The compressor for {@code compression}. */
    static RecordCompressor of(WarcCompression compression) {
        return switch (compression) {
            case GZIP -> new GzipMember();
            case ZSTD -> new ZstdFrame();
        };
    }

    /** Appends {@code length} bytes of {@code data}, from {@code offset}, to the record. */
    void write(byte[] data, int offset, int length);

    /** Ends the record and returns it compressed, whole. */
    byte[] finish();

    /** Frees what the compressor holds outside the Java heap, if anything; it is not used afterwards. */
    @Override
    void close();
}
