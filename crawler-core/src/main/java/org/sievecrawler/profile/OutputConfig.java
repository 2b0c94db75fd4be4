package org.sievecrawler.profile;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Where the crawl writes.
 *
 * @param dir the output folder: pages.jsonl, summary.json, crawl.log and the WARC files
 * @param warc whether WARC files are written too
 * @param warcPrefix the start of each WARC file's name, {@code PREFIX-yyyyMMddHHmmss-NNNNN.warc.gz}: letters,
 *     digits, '.', '_' and '-', starting with a letter or digit
 * @param warcMaxSize the size in bytes past which a WARC file is not continued: the next records go to a new file
 * @param warcMetadata whether each parsed page also gets a WARC metadata record listing its outlinks
 */
public record OutputConfig(Path dir, boolean warc, String warcPrefix, long warcMaxSize, boolean warcMetadata) {
    /** What a WARC prefix may be: a plain file-name part. */
    public static final Pattern WARC_PREFIX = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    public OutputConfig {
        if (warcPrefix == null || !WARC_PREFIX.matcher(warcPrefix).matches()) {
            throw new IllegalArgumentException("output.warc-prefix must be letters, digits, '.', '_' and '-',"
                    + " starting with a letter or digit, was \"" + warcPrefix + "\"");
        }
        if (warcMaxSize < 1) {
            throw new IllegalArgumentException("output.warc-max-size must be >= 1, was " + warcMaxSize);
        }
    }

    public static OutputConfig defaults() {
        return new OutputConfig(Path.of("crawl-out"), false, "crawl", 1024L * 1024 * 1024, false);
    }

    public OutputConfig withDir(Path value) {
        return new OutputConfig(value, warc, warcPrefix, warcMaxSize, warcMetadata);
    }

    public OutputConfig withWarc(boolean value) {
        return new OutputConfig(dir, value, warcPrefix, warcMaxSize, warcMetadata);
    }

    public OutputConfig withWarcMaxSize(long bytes) {
        return new OutputConfig(dir, warc, warcPrefix, bytes, warcMetadata);
    }

    public OutputConfig withWarcMetadata(boolean value) {
        return new OutputConfig(dir, warc, warcPrefix, warcMaxSize, value);
    }
}
