package org.sievecrawler.profile;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Where the crawl writes.
 *
 * @param dir the output folder: pages.jsonl, summary.json, crawl.log and the WARC files
 * @param warc whether WARC files are written too
 * @param warcPrefix the start of each WARC file's name, {@code PREFIX-yyyyMMddHHmmss-NNNNN.warc.gz} (or
 *     {@code .warc.zst}): letters, digits, '.', '_' and '-', starting with a letter or digit
 * @param warcMaxSize the size in bytes past which a WARC file is not continued: the next records go to a new file
 * @param warcMetadata whether each parsed page also gets a WARC metadata record listing its outlinks
 * @param warcCompression how the WARC files are compressed, record by record: gzip ({@code .warc.gz}) or zstd
 *     ({@code .warc.zst})
 * @param links whether the link graph is written: every link of every page, redirect and sitemap entry, to
 *     links.tsv.zst beside pages.jsonl (see {@link org.sievecrawler.graph.LinksFile})
 * @param warcDedup whether a response whose payload is identical to one already archived in this crawl (same
 *     payload digest, another URL) is archived as a {@code revisit} record referring to the first, without its body
 */
public record OutputConfig(Path dir, boolean warc, String warcPrefix, long warcMaxSize, boolean warcMetadata,
        WarcCompression warcCompression, boolean links, boolean warcDedup) {
    /** What a WARC prefix may be: a plain file-name part. */
    public static final Pattern WARC_PREFIX = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    public OutputConfig {
        ProfileKeys.OUTPUT_DIR.require(dir);
        ProfileKeys.OUTPUT_WARC_PREFIX.require(warcPrefix);
        ProfileKeys.OUTPUT_WARC_MAX_SIZE.require(warcMaxSize);
        ProfileKeys.OUTPUT_WARC_COMPRESSION.require(warcCompression);
    }

    /** Without the link graph, without WARC dedup. */
    public OutputConfig(Path dir, boolean warc, String warcPrefix, long warcMaxSize, boolean warcMetadata,
            WarcCompression warcCompression) {
        this(dir, warc, warcPrefix, warcMaxSize, warcMetadata, warcCompression, false, false);
    }

    /** Without WARC dedup. */
    public OutputConfig(Path dir, boolean warc, String warcPrefix, long warcMaxSize, boolean warcMetadata,
            WarcCompression warcCompression, boolean links) {
        this(dir, warc, warcPrefix, warcMaxSize, warcMetadata, warcCompression, links, false);
    }

    public static OutputConfig defaults() {
        return CrawlProfile.defaults().output();
    }
}
