package org.sievecrawler.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ParsePoolTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private ParsePool pool;

    @AfterEach
    void finishPool() throws InterruptedException {
        if (pool != null) {
            pool.finish(WAIT);
        }
    }

    @Test
    void runsJobsOnItsNamedParseThreads() throws InterruptedException {
        pool = new ParsePool(2, 8, 1 << 20);
        List<String> threads = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(20);
        for (int i = 0; i < 20; i++) {
            pool.submit(100, () -> {
                threads.add(Thread.currentThread().getName());
                done.countDown();
            });
        }
        assertThat(done.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(threads).allMatch(name -> name.equals("parser-0") || name.equals("parser-1"));
    }

    @Test
    void aFetcherWaitsWhileTheBacklogIsFullAndGoesOnceItIsDownToHalf() throws InterruptedException {
        pool = new ParsePool(1, 4, 1 << 20);
        Semaphore parse = new Semaphore(0); // each permit lets the one parse thread finish one job
        AtomicInteger parsed = new AtomicInteger();
        Runnable job = () -> {
            parse.acquireUninterruptibly();
            parsed.incrementAndGet();
        };
        pool.submit(1, job); // taken by the parse thread, which blocks in it
        awaitBacklog(0);
        for (int i = 0; i < 4; i++) {
            pool.submit(1, job);
        }
        assertThat(pool.backlog()).isEqualTo(4);

        AtomicBoolean submitted = new AtomicBoolean();
        Thread fetcher = new Thread(() -> {
            pool.submit(1, job);
            submitted.set(true);
        }, "fetcher-test");
        fetcher.start();
        awaitState(fetcher, Thread.State.WAITING);

        parse.release(1); // the first job ends; the parse thread takes one more: 3 wait, above half
        awaitBacklog(3);
        assertThat(submitted).as("three of four still wait: not yet down to half").isFalse();
        assertThat(fetcher.getState()).isEqualTo(Thread.State.WAITING);

        parse.release(1); // one more ends, one more is taken: 2 wait, half of 4
        fetcher.join(WAIT.toMillis());
        assertThat(submitted).as("let go at half").isTrue();
        assertThat(pool.backlog()).isEqualTo(3);

        parse.release(100);
        awaitBacklog(0);
    }

    @Test
    void boundsTheBacklogByBytesAndStillTakesOnePageLargerThanTheBound() throws InterruptedException {
        pool = new ParsePool(1, 100, 1_000);
        CountDownLatch parse = new CountDownLatch(1);
        pool.submit(1, () -> awaitQuietly(parse));
        awaitBacklog(0);
        pool.submit(5_000, () -> { }); // larger than the bound, but nothing waits: taken

        AtomicBoolean submitted = new AtomicBoolean();
        Thread fetcher = new Thread(() -> {
            pool.submit(10, () -> { });
            submitted.set(true);
        }, "fetcher-test");
        fetcher.start();
        awaitState(fetcher, Thread.State.WAITING);
        assertThat(submitted).as("5,000 bytes wait, past the bound of 1,000").isFalse();

        parse.countDown();
        fetcher.join(WAIT.toMillis());
        assertThat(submitted).isTrue();
    }

    @Test
    void finishRunsWhatWaitsStopsItsThreadsAndRunsLaterJobsInTheCaller() throws InterruptedException {
        pool = new ParsePool(2, 64, 1 << 20);
        AtomicInteger parsed = new AtomicInteger();
        for (int i = 0; i < 50; i++) {
            pool.submit(10, parsed::incrementAndGet);
        }
        assertThat(pool.finish(WAIT)).as("threads ended").isTrue();
        assertThat(parsed).hasValue(50);

        List<String> ranOn = new CopyOnWriteArrayList<>();
        pool.submit(10, () -> ranOn.add(Thread.currentThread().getName()));
        assertThat(ranOn).containsExactly(Thread.currentThread().getName());
    }

    @Test
    void anInterruptedFetcherRunsItsJobItselfAndKeepsItsInterruptFlag() throws InterruptedException {
        pool = new ParsePool(1, 1, 1 << 20);
        CountDownLatch parse = new CountDownLatch(1);
        pool.submit(1, () -> awaitQuietly(parse));
        awaitBacklog(0);
        pool.submit(1, () -> { }); // the backlog is full now

        List<String> ranOn = new CopyOnWriteArrayList<>();
        AtomicBoolean flagKept = new AtomicBoolean();
        Thread fetcher = new Thread(() -> {
            pool.submit(1, () -> ranOn.add(Thread.currentThread().getName()));
            flagKept.set(Thread.currentThread().isInterrupted());
        }, "fetcher-test");
        fetcher.start();
        awaitState(fetcher, Thread.State.WAITING);
        fetcher.interrupt();
        fetcher.join(WAIT.toMillis());

        assertThat(ranOn).containsExactly("fetcher-test");
        assertThat(flagKept).isTrue();
        parse.countDown();
    }

    @Test
    void abandonDropsTheWaitingJobsAndLetsTheRunningOneEndUninterrupted() throws InterruptedException {
        pool = new ParsePool(1, 8, 1 << 20);
        Semaphore parse = new Semaphore(0);
        AtomicInteger parsed = new AtomicInteger();
        AtomicBoolean interrupted = new AtomicBoolean();
        pool.submit(1, () -> {
            parse.acquireUninterruptibly();
            interrupted.set(Thread.currentThread().isInterrupted());
            parsed.incrementAndGet();
        });
        awaitBacklog(0); // the parse thread runs the first job
        for (int i = 0; i < 3; i++) {
            pool.submit(1, parsed::incrementAndGet);
        }
        assertThat(pool.finish(Duration.ofMillis(50))).as("the running job holds the thread").isFalse();

        assertThat(pool.abandon()).isEqualTo(3);
        parse.release();

        assertThat(pool.finish(WAIT)).isTrue();
        assertThat(parsed).as("only the job that was running").hasValue(1);
        assertThat(interrupted).isFalse();
    }

    private void awaitBacklog(int size) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (pool.backlog() != size && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(pool.backlog()).isEqualTo(size);
    }

    private static void awaitState(Thread thread, Thread.State state) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (thread.getState() != state && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(thread.getState()).isEqualTo(state);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
