package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sievecrawler.checkpoint.CheckpointStore;

/**
 * A resume never silently loses records (issue #24), across processes: a pages.jsonl that lost records the last
 * checkpoint counted (which no journal can name) is refused with exit code 2, saying how many are missing; one that
 * lost records written after it (a power loss after a kill -9) has their pages fetched again, since the frontier
 * journal knows them; a damaged line after the checkpoint is refused with exit code 2, not exit code 1. The damages
 * at the unit level are the table {@code /bounds/resume-damage.tsv} (CrawlStartTest).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LostRecordsResumeProcessTest {
    private static final int PAGES = 300;
    private static final int FIRST_RUN = 60;

    @RegisterExtension
    final ProcessCrawl crawl = new ProcessCrawl(PAGES, 20);

    @Test
    void aPagesFileCutBelowTheCheckpointIsRefusedWithExitCodeTwoSayingHowManyRecordsAreMissing() throws Exception {
        end(crawl.startNew(profile(), "--max-pages", Integer.toString(FIRST_RUN)), 0);
        Path pages = pages();
        List<String> lines = Files.readAllLines(pages);
        Files.write(pages, lines.subList(0, lines.size() - 8)); // 8 records gone, as the issue found them

        end(crawl.resume("--max-pages", "0"), 2);

        assertThat(crawl.output()).contains(pages + " is " + Files.size(pages) + " bytes long, shorter than the ",
                ": 8 of the " + lines.size() + " page records the checkpoint counted are missing. A resume would go"
                        + " on without them", "it is refused. Put the whole pages.jsonl back and resume, or start the"
                        + " crawl afresh with --overwrite")
                .doesNotContain("\tat ", "Exception");
        assertThat(Files.readAllLines(pages)).hasSize(lines.size() - 8);
    }

    @Test
    void afterAKillADamagedLineIsRefusedAndRecordsLostAfterTheCheckpointAreFetchedAgain() throws Exception {
        end(crawl.startNew(profile(), "--max-pages", Integer.toString(FIRST_RUN)), 0);
        Process second = crawl.resume("--max-pages", "0"); // no checkpoint before the kill: the interval is 10 m
        crawl.awaitRequests(second, FIRST_RUN + 60);
        second.destroyForcibly(); // SIGKILL
        assertThat(second.waitFor(10, TimeUnit.SECONDS)).isTrue();
        Path pages = pages();
        long atCheckpoint = new CheckpointStore(crawl.dir()).read().pagesBytes();
        long end = Files.size(pages);
        assertThat(end).as("records after the checkpoint").isGreaterThan(atCheckpoint);

        Files.writeString(pages, "garbage\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        end(crawl.resume("--max-pages", "0"), 2);
        assertThat(crawl.output()).contains(pages + ": the line at byte " + end + " is not a page record: ",
                "delete it (its page is then fetched again) or repair it, and resume again")
                .doesNotContain("\tat ", "Exception");

        try (FileChannel file = FileChannel.open(pages, StandardOpenOption.WRITE)) {
            file.truncate(atCheckpoint); // the records the killed run wrote lost, as a power loss may lose them
        }
        end(crawl.resume("--max-pages", "0"), 0);

        assertThat(crawl.output()).contains("URLs the frontier journal notes completed since the checkpoint have no"
                + " record in the crawl's output (lost after it was written): they are fetched again");
        assertThat(crawl.recordedUrls()).as("every page recorded once").containsAll(crawl.site().allUrls())
                .doesNotHaveDuplicates();
    }

    private Path profile() throws IOException {
        return crawl.profile(4, "10m");
    }

    private Path pages() {
        return crawl.dir().resolve("pages.jsonl");
    }

    private void end(Process process, int exitCode) throws Exception {
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the crawl ends: %s", crawl.output()).isTrue();
        assertThat(process.exitValue()).as(crawl.output()).isEqualTo(exitCode);
    }
}
