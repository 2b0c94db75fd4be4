package org.sievecrawler.politeness;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The lock of one or more host schedulers and the condition their fetchers wait on. Schedulers made with one monitor
 * are serialized by it, as one scheduler's hosts are, and one wait (the schedulers' {@code awaitAny}) hears a host of
 * any of them become ready: so a process that runs several frontiers side by side lets an idle fetcher wait for all
 * at once.
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
    void awaitChange(Duration maxWait) throws InterruptedException {
        lock.lock();
        try {
            changed.await(maxWait.toNanos(), TimeUnit.NANOSECONDS);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for a signal up to {@code maxWait}, or {@code untilReady} milliseconds if fewer (asked with the lock held;
     * 0 or less: no wait).
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    void await(Duration maxWait, LongSupplier untilReady) throws InterruptedException {
        lock.lock();
        try {
            long wait = Math.min(maxWait.toMillis(), untilReady.getAsLong());
            if (wait > 0) {
                changed.await(wait, TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
    }
}
