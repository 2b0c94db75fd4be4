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
        ProfileKeys.OUTPUT_DIR.require(dir);
        ProfileKeys.OUTPUT_WARC_PREFIX.require(warcPrefix);
        ProfileKeys.OUTPUT_WARC_MAX_SIZE.require(warcMaxSize);
    }

    public static OutputConfig defaults() {
        return CrawlProfile.defaults().output();
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
