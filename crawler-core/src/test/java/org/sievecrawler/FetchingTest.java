package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.checkpoint.CrawlLock;
import org.sievecrawler.profile.CrawlProfile;

/**
 * How {@link Fetching} holds its output folder. The pipeline it runs is tested through the crawls that use it:
 * {@link CrawlerTest}, and ClusterRunOnKafkaTest in crawler-cluster.
 */
class FetchingTest {
    private static final String GO_ON = "start the process again";

    @TempDir
    Path out;

    private CrawlProfile profile() {
        return CrawlProfile.defaults().with(SEEDS, List.of("http://127.0.0.1:9/"))
                .with(OUTPUT_DIR, out);
    }

    @Test
    void holdsItsFolderUntilClosed() throws Exception {
        try (Fetching fetching = Fetching.open(profile(), Clock.systemUTC(), GO_ON)) {
            assertThatThrownBy(() -> Fetching.open(profile(), Clock.systemUTC(), GO_ON))
                    .isInstanceOfSatisfying(CrawlException.class, e -> assertThat(e.refused()).isTrue())
                    .hasMessageContaining("another crawl is running in " + out);
        }

        CrawlLock.acquire(out).close();
    }

    @Test
    void releasesItsFolderWhenTheOutputCannotBeOpened() throws Exception {
        Files.createDirectories(out.resolve(CrawlFolder.PAGES)); // a folder where pages.jsonl should be

        assertThatThrownBy(() -> Fetching.open(profile(), Clock.systemUTC(), GO_ON))
                .isInstanceOfSatisfying(CrawlException.class, e -> assertThat(e.refused()).isFalse())
                .hasMessageStartingWith("the output in " + out + " cannot be opened: ")
                .hasMessageNotContaining("Exception");

        CrawlLock.acquire(out).close();
    }
}
