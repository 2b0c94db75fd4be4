package org.sievecrawler.warc;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.util.Arrays;

/**
 * A channel that Zstandard-compresses what is written to it into one frame (RFC 8878) in memory, ended and taken
 * by {@link #finish()}: one record per frame, as the IIPC "Zstandard Compression for WARC Files" proposal has it,
 * so that a reader can start at any record's offset. No dictionary is used (the proposal allows files without
 * one); each frame states its content size and ends with its XXH64 checksum. The next write starts a new frame.
 *
 * <p>The record is gathered, then compressed whole at {@link #LEVEL} with zstd-jni's native library, through a
 * context that is kept for the next record (its tables are reused rather than allocated per record).
 *
 * <p>Not thread-safe: one thread at a time (the archive pools them). {@link #close()} frees the native context.
 */
final class ZstdFrame extends RecordCompressor {
    /**
     * The zstd level: 1, the fastest of the regular levels; on crawl-bench's pages it already compresses better
     * than gzip at deflate's fastest setting (see the crawler-bench README), and the archive's cost is the crawl's
     * cost on a CPU-bound crawler.
     */
    static final int LEVEL = 1;

    private final ZstdCompressCtx context = new ZstdCompressCtx().setLevel(LEVEL).setContentSize(true)
            .setChecksum(true);

    @Override
    byte[] compress(byte[] record, int size) {
        byte[] out = output((int) Zstd.compressBound(size));
        int length = context.compressByteArray(out, 0, out.length, record, 0, size);
        return Arrays.copyOf(out, length);
    }

    @Override
    void release() {
        context.close();
    }
}
