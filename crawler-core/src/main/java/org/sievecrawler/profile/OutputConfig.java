package org.sievecrawler.profile;

import java.nio.file.Path;

/**
 * Where the crawl writes.
 *
 * @param dir the output folder: pages.jsonl, summary.json, crawl.log
 * @param warc whether WARC files are written too
 */
public record OutputConfig(Path dir, boolean warc) {
    public static OutputConfig defaults() {
        return new OutputConfig(Path.of("crawl-out"), false);
    }

    public OutputConfig withDir(Path value) {
        return new OutputConfig(value, warc);
    }
}
