package org.sievecrawler.seed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.link.SeedHosts;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SeedFeedTest {
    @TempDir
    Path dir;

    @Test
    void offersEveryUsableSeedNormalizedInBatchesAndEndsAtTheFilesEnd() throws Exception {
        Path file = seedFile(2_500, "# a comment\n\nmailto:someone@example.org\nnot a url\n");
        SeedPosition start = SeedFile.copy(file, dir.resolve("copy.txt"));
        List<List<String>> batches = Collections.synchronizedList(new ArrayList<>());
        SeedHosts hosts = SeedHosts.filling();

        try (SeedFeed feed = new SeedFeed(dir.resolve("copy.txt"), dir.resolve("hosts.bin"), file.toString(), start, hosts, true,
                batches::add, () -> { })) {
            feed.start();
            awaitFinished(feed);
            while (!hosts.isComplete()) { // the hosts are read on a thread of their own, to the file's end
                Thread.sleep(5);
            }
            assertThat(feed.offered()).isEqualTo(2_500);
            assertThat(feed.badLines()).isEqualTo(2);
            assertThat(feed.position()).isEqualTo(start.at(start.fileBytes(), 2_504));
        }
        assertThat(batches).hasSize(3);
        assertThat(batches.get(0)).hasSize(SeedFeed.BATCH).startsWith("http://127.0.0.1:8080/p/0");
        assertThat(batches.stream().flatMap(List::stream)).hasSize(2_500).doesNotHaveDuplicates()
                .contains("http://seed.example/Upper");
        assertThat(hosts.isComplete()).isTrue();
        assertThat(hosts.hasHost("seed.example")).isTrue();
        assertThat(hosts.hasOrigin("127.0.0.1", 8080)).isTrue();

        SeedHosts kept = SeedFile.readHosts(dir.resolve("hosts.bin"), start).orElseThrow();
        kept.complete();
        assertThat(kept.hasHost("seed.example")).as("kept for a resume").isTrue();
        assertThat(kept.hasOrigin("127.0.0.1", 8080)).isTrue();
        assertThat(kept.hasOrigin("127.0.0.1", 8081)).isFalse();
        assertThat(kept.hostCount()).isEqualTo(hosts.hostCount());
        assertThat(SeedFile.readHosts(dir.resolve("hosts.bin"), new SeedPosition(start.fileBytes(),
                start.fileCrc32c() + 1, 0, 0))).as("another seed file's").isEmpty();
        byte[] bytes = Files.readAllBytes(dir.resolve("hosts.bin"));
        bytes[bytes.length / 2] ^= 1;
        Files.write(dir.resolve("hosts.bin"), bytes);
        assertThat(SeedFile.readHosts(dir.resolve("hosts.bin"), start)).as("damaged").isEmpty();
    }

    @Test
    void aFeedStoppedPartWayGoesOnFromItsPositionAndOffersEverySeedOnce() throws Exception {
        Path file = seedFile(10_000, "");
        SeedPosition identity = SeedFile.copy(file, dir.resolve("copy.txt"));
        List<String> offered = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<SeedFeed> first = new AtomicReference<>();
        CountDownLatch threeBatches = new CountDownLatch(3);
        SeedFeed stopped = new SeedFeed(dir.resolve("copy.txt"), dir.resolve("hosts.bin"), "seeds.txt", identity, SeedHosts.filling(), false,
                batch -> {
                    offered.addAll(batch);
                    threeBatches.countDown();
                    if (threeBatches.getCount() == 0) {
                        first.get().stop(); // as the crawl's end stops it, between two batches
                    }
                }, () -> { });
        first.set(stopped);
        stopped.start();
        awaitFinished(stopped);
        stopped.close();
        SeedPosition position = stopped.position();
        assertThat(position.atEnd()).isFalse();
        assertThat(position.lines()).isEqualTo(3 * SeedFeed.BATCH);
        assertThat(offered).hasSize(3 * SeedFeed.BATCH);

        SeedFile.verify(dir.resolve("copy.txt"), position);
        try (SeedFeed resumed = new SeedFeed(dir.resolve("copy.txt"), dir.resolve("hosts.bin"), "seeds.txt", position, SeedHosts.filling(),
                false, offered::addAll, () -> { })) {
            resumed.start();
            awaitFinished(resumed);
        }
        assertThat(offered).hasSize(10_000).doesNotHaveDuplicates();
    }

    @Test
    void namesTheFirstBadLinesThenCountsTheRest() throws Exception {
        Path file = Files.writeString(dir.resolve("bad.txt"), "ftp://x.example/\n".repeat(50) + "http://ok.example/\n");
        List<String> problems = new ArrayList<>();

        assertThat(SeedFeed.hasSeed(file, problems::add)).isTrue();
        assertThat(problems).hasSize(SeedFeed.NAMED);
        assertThat(problems.get(0)).startsWith(file + ":1: not a usable seed: ").endsWith("(\"ftp://x.example/\"); skipped");
        assertThat(problems.get(SeedFeed.NAMED - 1)).endsWith("; further bad lines are counted, not named");
    }

    @Test
    void aFileWithoutAUsableSeedHasNone() throws Exception {
        Path file = Files.writeString(dir.resolve("none.txt"), "# only comments\n\nnot a url\n");
        List<String> problems = new ArrayList<>();

        assertThat(SeedFeed.hasSeed(file, problems::add)).isFalse();
        assertThat(problems).containsExactly(file + ":3: a space within the line: a line holds one URL (a space in it"
                + " written %20), then may end with \" # comment\" (\"not a url\"); skipped");
    }

    @Test
    void aChangedCopyIsRefusedByItsLengthOrChecksum() throws Exception {
        Path file = seedFile(10, "");
        SeedPosition identity = SeedFile.copy(file, dir.resolve("copy.txt"));
        Files.writeString(dir.resolve("copy.txt"), Files.readString(dir.resolve("copy.txt")).replace("p/1", "p/2"));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SeedFile.verify(dir.resolve("copy.txt"), identity))
                .hasMessageContaining("copy.txt: not the seed file the checkpoint names (");
    }

    /** {@code count} seeds on 127.0.0.1:8080, one a line, with {@code extra} lines and a mixed-case one first. */
    private Path seedFile(int count, String extra) throws IOException {
        String seeds = IntStream.range(0, count - 1).mapToObj(i -> "http://127.0.0.1:8080/p/" + i)
                .collect(Collectors.joining("\n", "", "\n"));
        return Files.writeString(dir.resolve("seeds.txt"), seeds + extra + "HTTP://SEED.example/Upper # last\n");
    }

    private static void awaitFinished(SeedFeed feed) throws InterruptedException {
        while (!feed.finished()) {
            Thread.sleep(5);
        }
    }
}
