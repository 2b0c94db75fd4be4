package org.sievecrawler.profile;

import java.util.Locale;

/**
 * How a crawl's WARC files are compressed, record by record so that a reader can start at any record's offset: the
 * value of {@code output.warc-compression} ({@link ProfileKeys#OUTPUT_WARC_COMPRESSION}), and the end of the files'
 * names. Immutable. The compressing itself is out of scope: the {@code warc} package maps each constant to its
 * compressor.
 */
public enum WarcCompression {
    /** Each record its own gzip member (WARC 1.1 annex D): {@code .warc.gz}, read by every WARC tool. */
    GZIP(".warc.gz"),
    /**
     * Each record its own Zstandard frame, without a dictionary (IIPC "Zstandard Compression for WARC Files 1.0",
     * proposed): {@code .warc.zst}; several times faster to write than gzip, at a better ratio, but read by fewer
     * tools.
     */
    ZSTD(".warc.zst");

    private final String suffix;

    WarcCompression(String suffix) {
        this.suffix = suffix;
    }

    /** The end of the file names: {@code .warc.gz} or {@code .warc.zst}. */
    public String suffix() {
        return suffix;
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
