package org.sievecrawler.warc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.sievecrawler.warc.ArchivedPayloads.FirstCapture;

class ArchivedPayloadsTest {
    private static final Instant DATE = Instant.parse("2026-03-01T12:34:56Z");

    private static byte[] sha1(String payload) throws Exception {
        return MessageDigest.getInstance("SHA-1").digest(payload.getBytes(StandardCharsets.UTF_8));
    }

    private static FirstCapture capture(String url) {
        return new FirstCapture(url, DATE, UUID.randomUUID());
    }

    @Test
    void refersASecondUrlWithTheSamePayloadToTheFirstCapture() throws Exception {
        ArchivedPayloads payloads = new ArchivedPayloads(10);
        FirstCapture a = capture("http://127.0.0.1/a");

        assertThat(payloads.claim(sha1("same"), a)).isNull(); // a is archived in full
        assertThat(payloads.claim(sha1("same"), capture("http://127.0.0.1/b"))).isEqualTo(a);
        assertThat(payloads.claim(sha1("same"), capture("http://127.0.0.1/c"))).isEqualTo(a);
        assertThat(payloads.claim(sha1("other"), capture("http://127.0.0.1/d"))).isNull();
        assertThat(payloads.size()).isEqualTo(2);
    }

    @Test
    void archivesTheSameUrlAgainInFull() throws Exception {
        ArchivedPayloads payloads = new ArchivedPayloads(10);
        payloads.claim(sha1("same"), capture("http://127.0.0.1/a"));

        assertThat(payloads.claim(sha1("same"), capture("http://127.0.0.1/a"))).isNull();
    }

    @Test
    void remembersNoPayloadPastItsCapacityAndNeverRefersWrongly() throws Exception {
        ArchivedPayloads payloads = new ArchivedPayloads(3);
        for (int i = 0; i < 5; i++) {
            assertThat(payloads.claim(sha1("payload " + i), capture("http://127.0.0.1/first" + i))).isNull();
        }
        assertThat(payloads.size()).isEqualTo(3);

        for (int i = 0; i < 5; i++) {
            FirstCapture earlier = payloads.claim(sha1("payload " + i), capture("http://127.0.0.1/again" + i));
            if (i < 3) {
                assertThat(earlier.uri()).isEqualTo("http://127.0.0.1/first" + i);
            } else {
                assertThat(earlier).as("payload %d came past the capacity: archived in full again", i).isNull();
            }
        }
        assertThat(payloads.size()).isEqualTo(3);
    }

    @Test
    void forgetsACaptureWhoseRecordWasNotWritten() throws Exception {
        ArchivedPayloads payloads = new ArchivedPayloads(1);
        FirstCapture a = capture("http://127.0.0.1/a");
        payloads.claim(sha1("same"), a);

        payloads.release(sha1("same"), a);

        assertThat(payloads.size()).isZero();
        FirstCapture b = capture("http://127.0.0.1/b");
        assertThat(payloads.claim(sha1("same"), b)).isNull();
        assertThat(payloads.claim(sha1("same"), capture("http://127.0.0.1/c"))).isEqualTo(b);
    }

    @Test
    void givesOneFirstCaptureToCopiesClaimedAtOnce() throws Exception {
        ArchivedPayloads payloads = new ArchivedPayloads(1_000);
        byte[] digest = sha1("same");
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<FirstCapture>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    start.await();
                    List<FirstCapture> earlier = new ArrayList<>();
                    for (int i = 0; i < 200; i++) {
                        earlier.add(payloads.claim(digest, capture("http://127.0.0.1/" + thread + "/" + i)));
                    }
                    return earlier;
                }));
            }
            start.countDown();
            List<FirstCapture> all = new ArrayList<>();
            for (Future<List<FirstCapture>> result : results) {
                all.addAll(result.get());
            }
            assertThat(all.stream().filter(Objects::isNull)).hasSize(1);
            assertThat(all.stream().filter(Objects::nonNull).distinct()).hasSize(1);
            assertThat(payloads.size()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void refusesANegativeCapacityNamingIt() {
        assertThatThrownBy(() -> new ArchivedPayloads(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the capacity of the archived-payload table must be >= 0, not -1");
    }
}
