package org.sievecrawler.sieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpillingQueueTest {
    /** Small enough that a few dozen URLs span several segments. */
    private static final long TINY_SEGMENTS = 300;

    @TempDir
    Path dir;

    @Test
    void returnsUrlsInFifoOrderAcrossSpillSegments() throws IOException {
        try (SpillingQueue spill = SpillingQueue.create(PendingQueue.fifo(), 10, dir, TINY_SEGMENTS)) {
            Sieve sieve = Sieve.create(10_000, 0.001, OverflowPolicy.WARN, spill);
            List<String> offered = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                String url = "https://example.org/page/" + i;
                assertThat(sieve.offer(url)).isTrue();
                offered.add(url);
            }
            assertThat(spill.spilled()).isEqualTo(990);
            assertThat(sieve.size()).isEqualTo(1_000);
            assertThat(segmentCount()).isGreaterThan(10);

            List<String> polled = new ArrayList<>();
            for (String url = sieve.poll(); url != null; url = sieve.poll()) {
                polled.add(url);
            }

            assertThat(polled).containsExactlyElementsOf(offered);
            assertThat(sieve.size()).isZero();
        }
    }

    @Test
    void losesNoUrlAcrossTheSpillWithSeveralProducersAndConsumers() throws Exception {
        int producers = 4;
        int perProducer = 2_000;
        try (SpillingQueue spill = SpillingQueue.create(PendingQueue.fifo(), 50, dir, 4_096)) {
            Sieve sieve = Sieve.create(100_000, 0.0001, OverflowPolicy.WARN, spill);
            ExecutorService pool = Executors.newFixedThreadPool(producers + 2);
            CountDownLatch produced = new CountDownLatch(producers);
            for (int p = 0; p < producers; p++) {
                int producer = p;
                pool.submit(() -> {
                    for (int i = 0; i < perProducer; i++) {
                        sieve.offer("https://example.org/" + producer + "/" + i);
                    }
                    produced.countDown();
                });
            }
            List<Future<List<String>>> consumers = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                consumers.add(pool.submit(() -> {
                    List<String> taken = new ArrayList<>();
                    while (true) {
                        String url = sieve.poll();
                        if (url != null) {
                            taken.add(url);
                        } else if (produced.getCount() == 0 && sieve.size() == 0) {
                            return taken;
                        }
                    }
                }));
            }
            List<String> all = new ArrayList<>();
            for (Future<List<String>> consumer : consumers) {
                List<String> taken = consumer.get(60, TimeUnit.SECONDS);
                assertThat(inProducerOrder(taken)).as("each consumer sees each producer's URLs in order").isTrue();
                all.addAll(taken);
            }
            pool.shutdown();

            assertThat(all).hasSize(producers * perProducer).doesNotHaveDuplicates();
            assertThat(spill.spilled()).isZero();
        }
    }

    @Test
    void resumeCutsTheSpillToTheCheckpointedPositionAndReadsOnFromIt() throws IOException {
        SpillPosition checkpoint;
        try (SpillingQueue spill = SpillingQueue.create(PendingQueue.fifo(), 10, dir, TINY_SEGMENTS)) {
            for (int i = 0; i < 50; i++) {
                spill.add(PendingUrl.seed("https://example.org/" + i));
            }
            for (int i = 0; i < 5; i++) {
                spill.poll(); // 0..4, read back: the in-memory part, which the checkpoint itself holds
            }
            checkpoint = spill.position();
            spill.sync();
            for (int i = 50; i < 70; i++) {
                spill.add(PendingUrl.seed("https://example.org/" + i)); // after the checkpoint: dropped on resume
            }
        }

        try (SpillingQueue resumed = SpillingQueue.resume(PendingQueue.fifo(), 10, dir, TINY_SEGMENTS, checkpoint)) {
            List<String> polled = new ArrayList<>();
            for (PendingUrl url = resumed.poll(); url != null; url = resumed.poll()) {
                polled.add(url.url());
            }

            assertThat(polled).containsExactlyElementsOf(
                    Stream.iterate(10, i -> i < 50, i -> i + 1).map(i -> "https://example.org/" + i).toList());
        }
    }

    @Test
    void releaseDeletesOnlySegmentsReadBeforeTheCheckpoint() throws IOException {
        try (SpillingQueue spill = SpillingQueue.create(PendingQueue.fifo(), 10, dir, TINY_SEGMENTS)) {
            for (int i = 0; i < 200; i++) {
                spill.add(PendingUrl.seed("https://example.org/" + i));
            }
            long before = segmentCount();
            for (int i = 0; i < 100; i++) {
                spill.poll();
            }
            SpillPosition position = spill.position();
            spill.releaseBefore(position.readSegment());

            assertThat(segmentCount()).isLessThan(before).isEqualTo((long) before - position.readSegment());
            assertThat(spill.size()).isEqualTo(100);
        }
    }

    @Test
    void reportsACorruptRecordWithItsFileAndOffset() throws IOException {
        try (SpillingQueue spill = SpillingQueue.create(PendingQueue.fifo(), 1, dir, 1 << 20)) {
            spill.add(PendingUrl.seed("https://example.org/kept"));
            spill.add(PendingUrl.seed("https://example.org/spilled"));
            spill.position(); // flushes
            Path segment = dir.resolve("000000.seg");
            byte[] bytes = Files.readAllBytes(segment);
            bytes[10] ^= 0x20;
            Files.write(segment, bytes);

            assertThatThrownBy(spill::poll).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("000000.seg").hasMessageContaining("at byte 0")
                    .hasMessageContaining("checksum mismatch");
        }
    }

    @Test
    void refusesToResumeWhenASegmentTheCheckpointNeedsIsMissing() throws IOException {
        SpillPosition position = new SpillPosition(0, 0, 1, 40, 5);
        Files.createDirectories(dir);
        Files.write(dir.resolve("000001.seg"), new byte[40]);

        assertThatThrownBy(() -> SpillingQueue.resume(PendingQueue.fifo(), 10, dir, TINY_SEGMENTS, position))
                .isInstanceOf(CorruptFilterException.class).hasMessageContaining("000000.seg is missing");
    }

    @Test
    void encodesEveryFieldOfAPendingUrl() throws IOException {
        List<PendingUrl> urls = List.of(PendingUrl.seed("https://example.org/ü?q=1"),
                new PendingUrl("https://example.org/a", 3, "https://example.org/", 2, 1, PendingUrl.Purpose.PAGE),
                new PendingUrl("https://example.org/robots.txt", 0, null, 1, 0, PendingUrl.Purpose.ROBOTS));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        for (PendingUrl url : urls) {
            PendingUrlCodec.write(out, url);
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));

        assertThat(List.of(PendingUrlCodec.read(in), PendingUrlCodec.read(in), PendingUrlCodec.read(in)))
                .isEqualTo(urls);
    }

    @Test
    void aUrlTheWrappedQueueRefusesWaitsAtTheSpillsEndAndIsOfferedAgainLosingNone() throws IOException {
        // holds at most 2 URLs of "big" at once: the others are refused while it does
        PendingQueue shares = new PendingQueue() {
            private final PendingQueue fifo = PendingQueue.fifo();
            private int big;

            @Override
            public void add(PendingUrl url) {
                big += url.url().contains("big") ? 1 : 0;
                fifo.add(url);
            }

            @Override
            public boolean offer(PendingUrl url) {
                if (url.url().contains("big") && big >= 2) {
                    return false;
                }
                add(url);
                return true;
            }

            @Override
            public PendingUrl poll() {
                PendingUrl url = fifo.poll();
                big -= url != null && url.url().contains("big") ? 1 : 0;
                return url;
            }

            @Override
            public int size() {
                return fifo.size();
            }
        };
        try (SpillingQueue spill = SpillingQueue.create(shares, 100, dir, TINY_SEGMENTS)) {
            for (int i = 0; i < 50; i++) {
                spill.add(PendingUrl.seed("https://big.example/" + i));
            }
            for (int i = 0; i < 50; i++) {
                spill.add(PendingUrl.seed("https://small.example/" + i));
            }
            assertThat(spill.spilled()).as("past the big host's share: spilled though memory had room")
                    .isEqualTo(98);

            List<String> polled = new ArrayList<>();
            for (PendingUrl url = spill.poll(); url != null; url = spill.poll()) {
                polled.add(url.url());
            }

            assertThat(polled).hasSize(100).doesNotHaveDuplicates();
            assertThat(polled.subList(0, 53)).as("the small host's URLs are not held behind the big host's")
                    .filteredOn(url -> url.contains("small")).hasSize(50);
            assertThat(spill.requeued()).as("bounded: each refill re-writes what its credit allows")
                    .isPositive().isLessThan(100L * 50);
            assertThat(spill.size()).isZero();
        }
    }

    private long segmentCount() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".seg")).count();
        }
    }

    /** Whether, for each producer, the URLs appear with rising numbers. */
    private static boolean inProducerOrder(List<String> taken) {
        int[] last = {-1, -1, -1, -1};
        for (String url : taken) {
            String[] parts = url.substring("https://example.org/".length()).split("/");
            int producer = Integer.parseInt(parts[0]);
            int number = Integer.parseInt(parts[1]);
            if (number <= last[producer]) {
                return false;
            }
            last[producer] = number;
        }
        return true;
    }
}
