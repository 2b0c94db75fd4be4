package org.sievecrawler.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrawlFolderTest {
    @TempDir
    Path dir;

    @Test
    void anEmptyFolderHoldsNoEarlierOutput() throws IOException {
        assertThat(new CrawlFolder(dir, "crawl").earlierOutput()).isEmpty();
        assertThat(new CrawlFolder(dir.resolve("missing"), "crawl").earlierOutput()).isEmpty();
    }

    @Test
    void aCrawlLogProgressOrReportAloneOrAnotherPrefixsWarcFilesAreNoEarlierOutput() throws IOException {
        Files.writeString(dir.resolve("crawl.log"), "a refused crawl\n");
        Files.writeString(dir.resolve("progress.jsonl"), "");
        Files.writeString(dir.resolve("report.html"), "");
        Files.writeString(dir.resolve("other-20261121143151-00000.warc.gz"), "");
        Files.writeString(dir.resolve("notes.txt"), "mine\n");

        assertThat(new CrawlFolder(dir, "crawl").earlierOutput()).isEmpty();
    }

    @Test
    void namesEachFileOfAnEarlierCrawlInOrder() throws IOException {
        Files.createDirectories(dir.resolve("checkpoint"));
        Files.writeString(dir.resolve("summary.json"), "{}");
        Files.writeString(dir.resolve("pages.jsonl"), "");
        Files.writeString(dir.resolve("links.tsv.zst"), "");
        Files.writeString(dir.resolve("crawl-20261121143151-00001.warc.gz"), "");
        Files.writeString(dir.resolve("crawl-20261121143151-00000.warc.gz"), "");

        assertThat(new CrawlFolder(dir, "crawl").earlierOutput()).containsExactly(dir.resolve("pages.jsonl"),
                dir.resolve("summary.json"), dir.resolve("checkpoint"), dir.resolve("links.tsv.zst"),
                dir.resolve("crawl-20261121143151-00000.warc.gz"), dir.resolve("crawl-20261121143151-00001.warc.gz"));
    }

    @Test
    void clearDeletesTheCrawlersOwnFilesAndNoOther() throws IOException {
        for (String name : new String[] {"pages.jsonl", "summary.json", "crawl.log", "progress.jsonl", "report.html", "changes.jsonl", "rules.jsonl",
            "links.tsv.zst", "crawl.lock", "notes.txt",
            "crawl-20261121143151-00000.warc.gz", "other-20261121143151-00000.warc.gz", "crawl-notes.warc.gz"}) {
            Files.writeString(dir.resolve(name), name);
        }
        Files.createDirectories(dir.resolve("checkpoint/000001"));
        Files.writeString(dir.resolve("checkpoint/000001/filters.bin"), "bits");
        Files.createDirectories(dir.resolve("frontier"));
        Files.writeString(dir.resolve("frontier/000000.seg"), "urls");

        new CrawlFolder(dir, "crawl").clear();

        try (var left = Files.list(dir)) {
            assertThat(left.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("crawl.lock",
                    "notes.txt", "other-20261121143151-00000.warc.gz", "crawl-notes.warc.gz");
        }
    }
}
