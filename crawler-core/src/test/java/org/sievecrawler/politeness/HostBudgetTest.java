package org.sievecrawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HostBudgetTest {
    @Test
    void refusesAHostsPagesPastTheLimitNamingHostAndLimit() {
        HostBudget budget = new HostBudget(2);
        assertThat(budget.take("http://127.0.0.1:8080/a")).isEmpty();
        assertThat(budget.take("http://127.0.0.1:8080/b?q=1")).isEmpty();
        assertThat(budget.take("http://127.0.0.1:8080/c")).contains(
                "host http://127.0.0.1:8080 reached limits.max-pages-per-host 2");
        assertThat(budget.taken("http://127.0.0.1:8080")).isEqualTo(2);
    }

    @Test
    void countsEachHostOnItsOwn() {
        HostBudget budget = new HostBudget(1);
        assertThat(budget.take("http://127.0.0.1:8080/")).isEmpty();
        assertThat(budget.take("http://127.0.0.1:8081/")).as("another port").isEmpty();
        assertThat(budget.take("https://127.0.0.1:8080/")).as("another scheme").isEmpty();
        assertThat(budget.take("http://localhost:8080/")).as("another name").isEmpty();
        assertThat(budget.take("http://127.0.0.1:8080/again")).isPresent();
    }

    @Test
    void zeroMeansNoLimit() {
        HostBudget budget = new HostBudget(0);
        for (int i = 0; i < 10_000; i++) {
            assertThat(budget.take("http://example.org/" + i)).isEmpty();
        }
        assertThat(budget.taken("http://example.org")).isZero();
    }

    @Test
    void threadsTakingTogetherNeverPassTheLimit() throws InterruptedException {
        HostBudget budget = new HostBudget(1000);
        AtomicInteger granted = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < 1000; i++) {
                    if (budget.take("http://example.org/" + i).isEmpty()) {
                        granted.incrementAndGet();
                    }
                }
            }, "taker-" + t);
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(granted.get()).isEqualTo(1000);
        assertThat(budget.taken("http://example.org")).isEqualTo(1000);
    }

    @Test
    void goesOnFromTheCountsItWasRestoredWith() {
        HostBudget before = new HostBudget(3);
        before.take("http://example.org/a");
        before.take("http://example.org/b");
        before.take("http://other.org/a");

        HostBudget after = new HostBudget(3);
        after.restore(before.counts());

        assertThat(before.counts().size()).isEqualTo(2);
        assertThat(before.counts().count("http://example.org")).isEqualTo(2);
        assertThat(before.counts().count("http://other.org")).isEqualTo(1);
        assertThat(after.counts()).isEqualTo(before.counts());
        assertThat(after.take("http://example.org/c")).isEmpty();
        assertThat(after.take("http://example.org/d")).contains("host http://example.org reached"
                + " limits.max-pages-per-host 3");
        assertThat(after.take("http://other.org/b")).isEmpty();
    }

    @Test
    void isRestoredOnlyBeforeAnyTake() {
        HostBudget budget = new HostBudget(3);
        budget.take("http://example.org/a");

        assertThatIllegalStateException().isThrownBy(() -> budget.restore(HostCounts.ofHostKeys(
                Map.of("http://other.org", 1L)))).withMessageContaining("it counts 1 hosts already");
    }

    /**
     * 10^6 random hosts (seed 27), each taking 1 to 4 times against a limit of 3, in a random order: every count is
     * exact, every take past the limit refused and none before it, the table grown from 1,024 slots; the same after a
     * round trip through a checkpoint's form. A collision among 10^6 hosts has probability < 10^12 / 2^65 = 3e-8: a
     * failure here is a bug, not chance.
     */
    @Test
    void countsAMillionRandomHostsExactlyAndRefusesExactlyPastTheLimit() throws Exception {
        int hosts = 1_000_000;
        SplittableRandom random = new SplittableRandom(27);
        String[] names = new String[hosts];
        int[] wanted = new int[hosts];
        int[] order = new int[hosts * 4];
        int takes = 0;
        for (int h = 0; h < hosts; h++) {
            names[h] = "https://h" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36) + ".example";
            wanted[h] = 1 + random.nextInt(4);
            for (int t = 0; t < wanted[h]; t++) {
                order[takes++] = h;
            }
        }
        for (int i = takes - 1; i > 0; i--) { // Fisher-Yates
            int j = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        HostBudget budget = new HostBudget(3);
        int[] granted = new int[hosts];
        int refused = 0;
        for (int i = 0; i < takes; i++) {
            int h = order[i];
            if (budget.take(names[h] + "/page-" + i).isEmpty()) {
                granted[h]++;
            } else {
                assertThat(granted[h]).as("refused only once spent: %s", names[h]).isEqualTo(3);
                refused++;
            }
        }
        int over = 0;
        for (int h = 0; h < hosts; h++) {
            assertThat(granted[h]).isEqualTo(Math.min(wanted[h], 3));
            over += Math.max(0, wanted[h] - 3);
        }
        assertThat(refused).isEqualTo(over).isPositive();
        assertThat(budget.hosts()).isEqualTo(hosts);
        assertThat(budget.tableBytes()).as("2^21 slots of 12 bytes").isEqualTo((1L << 21) * 12);

        ByteArrayOutputStream file = new ByteArrayOutputStream();
        budget.counts().writeTo(new DataOutputStream(file));
        assertThat(file.size()).isEqualTo(20 + hosts * 12);
        HostCounts read = HostCounts.read(new DataInputStream(new ByteArrayInputStream(file.toByteArray())),
                file.size());
        assertThat(read).isEqualTo(budget.counts());
        HostBudget resumed = new HostBudget(3);
        resumed.restore(read);
        for (int h = 0; h < hosts; h += 97) {
            assertThat(resumed.taken(names[h])).isEqualTo(granted[h]);
            assertThat(read.count(names[h])).isEqualTo(granted[h]);
        }
        assertThat(read.total()).isEqualTo(takes - refused);
    }

    @Test
    void aLimitAboveTheIntRangeCountsUpToIt() {
        HostBudget budget = new HostBudget(5_000_000_000L);
        assertThat(budget.take("http://example.org/a")).isEmpty();
        assertThat(budget.taken("http://example.org")).isEqualTo(1);
    }

    @Test
    void refusesANegativeLimit() {
        assertThatIllegalArgumentException().isThrownBy(() -> new HostBudget(-1)).withMessageContaining("-1");
    }
}
