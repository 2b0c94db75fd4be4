package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileOverrides;
import org.sievecrawler.sieve.PendingUrl;

/**
 * Two {@link ClusterRun} processes (in one JVM) on a real broker crawl a WireMock site of 150 pages: the first
 * crawls alone, the second joins, the first stops mid-crawl (a graceful stop: its partition is quiesced,
 * checkpointed and handed over) and the second takes over from the snapshot. Every page is recorded once across
 * the two outputs, and the site saw every page requested exactly once: the takeover fetched nothing again.
 */
class ClusterRunOnKafkaTest {
    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    @TempDir
    Path dir;

    private CrawlProfile profile(String name) {
        return new ProfileOverrides()
                .set("output.dir=" + dir.resolve(name))
                .set("fetch.threads=2")
                .set("fetch.allow-private-addresses=true")
                .set("scope.hosts=127.0.0.1")
                .set("politeness.delay=20ms")
                .set("checkpoint.interval=1s")
                .set("sieve.expected-urls=30000")
                .set("progress.interval=1s")
                .applyTo(CrawlProfile.defaults());
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
                await(() -> lines(dir.resolve("first")) >= 40, "the first process recorded 40 pages");
                try (ClusterRun second = ClusterRun.connect(kafka.bootstrap(), crawl, profile("second"), "second",
                        Duration.ofSeconds(30))) {
                    Future<String> secondRun = processes.submit(second::run);
                    Thread.sleep(2_000); // the second has joined (it owns none of the one host's partition)
                    first.stop();
                    assertThat(firstRun.get()).isEqualTo("stopped");
                    await(() -> lines(dir.resolve("first")) + lines(dir.resolve("second")) >= pages + 1,
                            "every page recorded");
                    Thread.sleep(500); // a page fetched twice would be recorded by now
                    second.stop();
                    assertThat(secondRun.get()).isEqualTo("stopped");
                }
            } finally {
                processes.shutdownNow();
            }
            assertThat(lines(dir.resolve("second"))).as("the second process took over").isPositive();
            Map<String, Integer> recorded = new HashMap<>();
            for (String name : List.of("first", "second")) {
                for (String line : Files.readAllLines(dir.resolve(name).resolve("pages.jsonl"))) {
                    String url = line.replaceAll(".*\"url\":\"([^\"]*)\".*", "$1");
                    recorded.merge(url, 1, Integer::sum);
                }
            }
            assertThat(recorded).hasSize(pages + 1).allSatisfy((url, times) -> assertThat(times).as(url).isOne());
            Map<String, Integer> requested = new HashMap<>();
            for (LoggedRequest request : site.requestLog()) {
                if (!request.getUrl().equals("/robots.txt")) {
                    requested.merge(request.getUrl(), 1, Integer::sum);
                }
            }
            assertThat(requested).hasSize(pages + 1).allSatisfy((path, times) -> assertThat(times).as(path).isOne());
        }
    }

    private static long lines(Path out) {
        try {
            Path pages = out.resolve("pages.jsonl");
            return Files.exists(pages) ? Files.readAllLines(pages).size() : 0;
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 60 s: " + what);
            }
            Thread.sleep(50);
        }
    }
}
