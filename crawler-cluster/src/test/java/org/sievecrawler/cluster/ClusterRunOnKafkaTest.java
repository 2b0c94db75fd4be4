package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.sieve.PendingUrl;

/**
 * Two {@link ClusterRun} processes (in one JVM) on a real broker crawl a WireMock site of 150 pages: the first
 * crawls alone, the second joins, the first stops mid-crawl (a graceful stop: its partition is quiesced,
 * checkpointed and handed over) and the second takes over from the snapshot. Every page is recorded once across
 * the two outputs, and the site saw every page requested exactly once: the takeover fetched nothing again.
 */
class ClusterRunOnKafkaTest {
    private static final Duration WITHIN = Duration.ofSeconds(60);

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    @TempDir
    Path dir;

    private CrawlProfile profile(String name) {
        return TestProcesses.profile(dir.resolve(name), "fetch.allow-private-addresses=true", "scope.hosts=127.0.0.1");
    }

    @Test
    void aProcessStoppedMidCrawlHandsItsPartitionOverAndNoPageIsFetchedTwice() throws Exception {
        CrawlName crawl = new CrawlName("handover");
        try (ClusterAdmin admin = ClusterAdmin.connect(kafka.bootstrap(), Duration.ofSeconds(30));
                FixtureSite site = FixtureSite.start()) {
            admin.init(new ClusterTopics(crawl, 3, (short) 1));
            int pages = 150;
            site.pages(FixtureSite.linkedPages(pages));
            try (FrontierProducer seeds = FrontierProducer.connect(kafka.bootstrap(), crawl, Duration.ofSeconds(30))) {
                seeds.send(PendingUrl.seed(site.url("/")));
                seeds.flush();
            }
            ExecutorService processes = Executors.newFixedThreadPool(2);
            try (ClusterRun first = ClusterRun.connect(kafka.bootstrap(), crawl, profile("first"), "first",
                    Duration.ofSeconds(30))) {
                Future<String> firstRun = processes.submit(first::run);
                TestProcesses.await(() -> TestProcesses.pages(dir.resolve("first")) >= 40, WITHIN,
                        "the first process recorded 40 pages");
                try (ClusterRun second = ClusterRun.connect(kafka.bootstrap(), crawl, profile("second"), "second",
                        Duration.ofSeconds(30))) {
                    Future<String> secondRun = processes.submit(second::run);
                    Thread.sleep(2_000); // the second has joined (it owns none of the one host's partition)
                    first.stop();
                    assertThat(firstRun.get()).isEqualTo("stopped");
                    TestProcesses.await(() -> TestProcesses.pages(dir.resolve("first"))
                            + TestProcesses.pages(dir.resolve("second")) >= pages + 1, WITHIN, "every page recorded");
                    Thread.sleep(500); // a page fetched twice would be recorded by now
                    second.stop();
                    assertThat(secondRun.get()).isEqualTo("stopped");
                }
            } finally {
                processes.shutdownNow();
            }
            assertThat(TestProcesses.pages(dir.resolve("second"))).as("the second process took over").isPositive();
            assertThat(TestProcesses.recorded(dir.resolve("first"), dir.resolve("second"))).hasSize(pages + 1)
                    .allSatisfy((url, times) -> assertThat(times).as(url).isOne());
            assertThat(TestProcesses.requested(site)).hasSize(pages + 1).allSatisfy((path, times) -> assertThat(times).as(path).isOne());
            for (String process : List.of("first", "second")) { // a clean stop writes what a crawl's end does
                Path out = dir.resolve(process);
                JsonNode summary = new ObjectMapper().readTree(out.resolve(CrawlFolder.SUMMARY).toFile());
                assertThat(summary.path("endReason").asText()).as(process).isEqualTo("stopped");
                assertThat(summary.path("decided").asLong()).as(process + ": a record each")
                        .isEqualTo(TestProcesses.pages(out));
                assertThat(out.resolve("audit.json")).as(process).isRegularFile();
                assertThat(out.resolve("report.html")).as(process).isRegularFile();
            }
        }
    }
}

