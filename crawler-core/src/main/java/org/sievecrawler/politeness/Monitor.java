package org.sievecrawler.politeness;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The lock of one or more {@link HostScheduler}s and the condition their fetchers wait on. Schedulers made with one
 * monitor are serialized by it, as one scheduler's hosts are, and one wait ({@link #awaitAny}) hears a host of any of
 * them become ready: so a process that runs several frontiers side by side lets an idle fetcher wait for all at once.
 *
 * <p>Thread-safe. Out of scope: what is waited for (each scheduler's hosts and their timing).
 */
public final class Monitor {
    final ReentrantLock lock = new ReentrantLock();
    final Condition changed = lock.newCondition();

    /** Wakes every thread waiting on it, e.g. to stop. */
    public void wakeAll() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until work is added or released in a scheduler of this monitor (a signal), or {@code maxWait} passes,
     * whether or not a host is ready.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public void awaitChange(Duration maxWait) throws InterruptedException {
        lock.lock();
        try {
            changed.await(maxWait.toNanos(), TimeUnit.NANOSECONDS);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until a host of any of {@code schedulers} may be ready (by the clock), work is added or released in any
     * of them, or {@code maxWait} passes. They must share one {@link Monitor}; with none, this sleeps {@code maxWait}.
     *
     * @throws IllegalArgumentException if they do not share one monitor
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public static void awaitAny(List<HostScheduler> schedulers, Duration maxWait) throws InterruptedException {
        if (schedulers.isEmpty()) {
            Thread.sleep(maxWait.toMillis());
            return;
        }
        Monitor monitor = schedulers.get(0).monitor();
        for (HostScheduler scheduler : schedulers) {
            if (scheduler.monitor() != monitor) {
                throw new IllegalArgumentException("schedulers waited on together must share one monitor");
            }
        }
        monitor.lock.lock();
        try {
            long wait = maxWait.toMillis();
            for (HostScheduler scheduler : schedulers) {
                wait = Math.min(wait, scheduler.untilReady());
            }
            if (wait > 0) {
                monitor.changed.await(wait, TimeUnit.MILLISECONDS);
            }
        } finally {
            monitor.lock.unlock();
        }
    }
}
