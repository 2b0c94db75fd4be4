package org.sievecrawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.List;
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

        assertThat(before.counts()).isEqualTo(java.util.Map.of("http://example.org", 2L, "http://other.org", 1L));
        assertThat(after.take("http://example.org/c")).isEmpty();
        assertThat(after.take("http://example.org/d")).contains("host http://example.org reached"
                + " limits.max-pages-per-host 3");
    }

    @Test
    void refusesANegativeLimit() {
        assertThatIllegalArgumentException().isThrownBy(() -> new HostBudget(-1)).withMessageContaining("-1");
    }
}
