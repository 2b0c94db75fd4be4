package org.sievecrawler.pipeline;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The crawl's parse threads, one per core, and the bounded backlog of fetched pages they work through: fetcher
 * threads {@link #submit} a page's job and go back to fetching; when the backlog is full they wait, and they
 * are let go together once the parsers have worked it down to half.
 *
 * <p>Why the half: when parsing is the bottleneck (a fast server on a small machine), a backlog that lets a
 * fetcher go as soon as one slot frees wakes one waiting fetcher per page parsed, a context switch on top of the
 * one each page's socket read costs. Letting the waiting fetchers go in groups, with room for a page each, halved
 * the context switches of a 116,000-page crawl by 32 fetchers on two cores (~530,000 to ~250,000) and cut ~6 % of
 * its CPU (crawler-bench/README.md, "Real pages").
 *
 * <p>Bounds: at most {@code maxPages} pages and {@code maxBytes} bytes wait (a single page larger than
 * {@code maxBytes} is taken when nothing waits), so memory stays bounded whatever the pages' sizes.
 *
 * <p>Threads: {@link #submit} from any number of threads. {@link #finish} from one thread (again, to wait longer,
 * if it timed out): it runs what waits, stops the parse threads and waits for them; after it, {@link #submit} runs a
 * job in the calling thread. {@link #abandon} drops what still waits, for a finish that took too long.
 * A job must not throw: the pool does not catch what escapes it (it would end its parse thread).
 */
final class ParsePool {
    private final ReentrantLock lock = new ReentrantLock();
    /** Parse threads wait here while the backlog is empty. */
    private final Condition work = lock.newCondition();
    /** Fetchers wait here while the backlog is full, until it is down to half. */
    private final Condition room = lock.newCondition();
    private final ArrayDeque<Job> backlog = new ArrayDeque<>();
    private final int maxPages;
    private final long maxBytes;
    private final List<Thread> threads = new ArrayList<>();
    private long bytes;
    private int idleParsers;
    private int waitingFetchers;
    private boolean finishing;

    private record Job(Runnable work, long bytes) {
    }

    /**
     * Starts {@code threads} daemon threads named {@code parser-0}, {@code parser-1}, ...
     *
     * @throws IllegalArgumentException naming the argument when a count or size is below 1
     */
    ParsePool(int threads, int maxPages, long maxBytes) {
        if (threads < 1 || maxPages < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("a parse pool needs threads, maxPages and maxBytes >= 1, was "
                    + threads + ", " + maxPages + ", " + maxBytes);
        }
        this.maxPages = maxPages;
        this.maxBytes = maxBytes;
        for (int i = 0; i < threads; i++) {
            Thread thread = new Thread(this::parseUntilFinished, "parser-" + i);
            thread.setDaemon(true);
            this.threads.add(thread);
            thread.start();
        }
    }

    /**
     * Queues {@code job}, for a page of {@code bytes} bytes, for a parse thread; waits while the backlog is full.
     * After {@link #finish}, or if the waiting thread is interrupted (its flag is then restored), the job runs in
     * the calling thread instead.
     */
    void submit(long bytes, Runnable job) {
        lock.lock();
        try {
            while (!finishing && isFull()) {
                waitingFetchers++;
                try {
                    room.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                } finally {
                    waitingFetchers--;
                }
            }
            if (!finishing && !Thread.currentThread().isInterrupted()) {
                backlog.add(new Job(job, bytes));
                this.bytes += bytes;
                if (idleParsers > 0) {
                    work.signal();
                }
                return;
            }
        } finally {
            lock.unlock();
        }
        job.run();
    }

    private boolean isFull() {
        return backlog.size() >= maxPages || (bytes >= maxBytes && !backlog.isEmpty());
    }

    private void parseUntilFinished() {
        while (true) {
            Job job;
            lock.lock();
            try {
                while (backlog.isEmpty() && !finishing) {
                    idleParsers++;
                    try {
                        work.awaitUninterruptibly();
                    } finally {
                        idleParsers--;
                    }
                }
                job = backlog.poll();
                if (job == null) {
                    return; // finishing, and nothing left
                }
                bytes -= job.bytes;
                if (waitingFetchers > 0 && backlog.size() <= maxPages / 2 && bytes <= maxBytes / 2) {
                    room.signalAll();
                }
            } finally {
                lock.unlock();
            }
            job.work.run();
        }
    }

    /** Pages waiting to be parsed. */
    int backlog() {
        lock.lock();
        try {
            return backlog.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Lets the parse threads work off what waits, then stops them; waits up to {@code timeout} for them.
     *
     * @return true if every parse thread ended in time
     */
    boolean finish(Duration timeout) throws InterruptedException {
        lock.lock();
        try {
            finishing = true;
            work.signalAll();
            room.signalAll();
        } finally {
            lock.unlock();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread thread : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.timedJoin(thread, left);
            }
        }
        return threads.stream().noneMatch(Thread::isAlive);
    }

    /**
     * Drops the jobs still waiting, after a {@link #finish} that timed out: they never run (the jobs running end in
     * their own time). The parse threads are not interrupted: a job may be writing to a channel an interrupt would
     * close.
     *
     * @return the jobs dropped
     */
    int abandon() {
        lock.lock();
        try {
            int dropped = backlog.size();
            backlog.clear();
            bytes = 0;
            room.signalAll();
            return dropped;
        } finally {
            lock.unlock();
        }
    }
}
