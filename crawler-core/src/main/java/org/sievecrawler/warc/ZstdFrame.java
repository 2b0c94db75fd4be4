package org.sievecrawler.warc;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.nio.ByteBuffer;
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
final class ZstdFrame implements RecordCompressor {
    /**
     * The zstd level: 1, the fastest of the regular levels; on crawl-bench's pages it already compresses better
     * than gzip at deflate's fastest setting (see the crawler-bench README), and the archive's cost is the crawl's
     * cost on a CPU-bound crawler.
     */
    static final int LEVEL = 1;
    private static final int INITIAL = 64 * 1024;
    /** A buffer grown past this for a huge record is dropped afterwards rather than kept in the pool. */
    private static final int KEEP_AT_MOST = 4 * 1024 * 1024;

    private final ZstdCompressCtx context = new ZstdCompressCtx().setLevel(LEVEL).setContentSize(true)
            .setChecksum(true);
    private byte[] in = new byte[INITIAL];
    private int size;
    private byte[] out = new byte[(int) Zstd.compressBound(INITIAL)];
    private boolean open = true;

    @Override
    public int write(ByteBuffer src) {
        int length = src.remaining();
        ensure(length);
        src.get(in, size, length);
        size += length;
        return length;
    }

    @Override
    public byte[] finish() {
        int bound = (int) Zstd.compressBound(size);
        if (out.length < bound) {
            out = new byte[bound];
        }
        int length = context.compressByteArray(out, 0, out.length, in, 0, size);
        byte[] frame = Arrays.copyOf(out, length);
        if (in.length > KEEP_AT_MOST) {
            in = new byte[INITIAL];
            out = new byte[(int) Zstd.compressBound(INITIAL)];
        }
        size = 0;
        return frame;
    }

    private void ensure(int room) {
        if (in.length - size < room) {
            in = Arrays.copyOf(in, Math.max(in.length * 2, size + room));
        }
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        if (open) {
            open = false;
            context.close();
        }
    }
}
