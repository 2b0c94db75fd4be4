package org.sievecrawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.profile.ProfileOverrides;
import org.sievecrawler.sieve.PendingUrl;

/**
 * A {@link ClusterRun} whose broker is killed (SIGKILL) mid-crawl: the run ends with one UNAVAILABLE failure naming
 * the cluster and the partitions it did not hand back, within about its timeout (a commit or a send not answered),
 * not after a chain of timeouts or never; its pages.jsonl holds whole lines. A broker of its own (not
 * {@link KafkaBroker}'s, shared by a class's tests): this test kills it.
 */
class ClusterRunBrokerLostTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    @TempDir
    Path dir;

    @Test
    void aBrokerKilledMidCrawlEndsTheRunWithinAboutTheTimeoutNamingTheClusterAndThePartitions() throws Exception {
        LocalKafka kafka = LocalKafka.start(dir.resolve("kafka"));
        ExecutorService process = Executors.newSingleThreadExecutor();
        try (FixtureSite site = FixtureSite.start()) {
            CrawlName crawl = new CrawlName("lost");
            try (ClusterAdmin admin = ClusterAdmin.connect(kafka.bootstrap(), Duration.ofSeconds(30))) {
                admin.init(new ClusterTopics(crawl, 2, (short) 1));
            }
            site.pages(FixtureSite.linkedPages(2_000));
            try (FrontierProducer seeds = FrontierProducer.connect(kafka.bootstrap(), crawl, Duration.ofSeconds(30))) {
                seeds.send(PendingUrl.seed(site.url("/")));
                seeds.flush();
            }
            CrawlProfile profile = new ProfileOverrides()
                    .set("output.dir=" + dir.resolve("out"))
                    .set("fetch.threads=2")
                    .set("fetch.allow-private-addresses=true")
                    .set("scope.hosts=127.0.0.1")
                    .set("politeness.delay=20ms")
                    .set("sieve.expected-urls=30000")
                    .set("progress.interval=1s")
                    .applyTo(CrawlProfile.defaults());
            Path pages = dir.resolve("out").resolve("pages.jsonl");
            try (ClusterRun run = ClusterRun.connect(kafka.bootstrap(), crawl, profile, "p1", TIMEOUT)) {
                Future<String> running = process.submit(run::run);
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (lines(pages).size() < 20) {
                    assertThat(System.nanoTime()).as("20 pages within 60 s").isLessThan(deadline);
                    Thread.sleep(50);
                }

                long killed = System.nanoTime();
                kill(kafka);
                Throwable ended = catchThrowable(() -> running.get(60, TimeUnit.SECONDS));
                long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killed);

                assertThat(ended).isInstanceOf(ExecutionException.class).cause().isInstanceOf(ClusterException.class);
                ClusterException failure = (ClusterException) ended.getCause();
                assertThat(failure.kind()).isEqualTo(ClusterException.Kind.UNAVAILABLE);
                assertThat(failure.getMessage()).contains(kafka.bootstrap())
                        .contains("Process p1 stopped without handing its partitions [0, 1] back")
                        .doesNotContain("OffsetAndMetadata");
                // a commit every 2 s, waiting TIMEOUT; a send expires after TIMEOUT: within about 2 + 3 s
                assertThat(seconds).as("seconds from the kill to the end of the run").isLessThanOrEqualTo(10);
            }
            assertThat(lines(pages)).isNotEmpty().allSatisfy(line -> assertThat(line).startsWith("{\"url\":")
                    .endsWith("}"));
            assertThat(Files.readString(pages)).endsWith("}\n");
        } finally {
            process.shutdownNow();
            try {
                kafka.close();
            } catch (IllegalStateException killedAlready) {
                // the stop found no broker to stop: this test killed it
            }
        }
    }

    /** SIGKILL to the broker's JVM, as a crash or `kill -9` would. */
    private static void kill(LocalKafka kafka) throws Exception {
        long pid = Long.parseLong(Files.readString(kafka.dir().resolve("broker.pid")).strip());
        ProcessHandle broker = ProcessHandle.of(pid).orElseThrow();
        broker.destroyForcibly();
        broker.onExit().get(30, TimeUnit.SECONDS);
    }

    private static List<String> lines(Path pages) throws java.io.IOException {
        return Files.exists(pages) ? Files.readAllLines(pages) : List.of();
    }
}
