package org.sievecrawler.frontier;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * What keeps a checkpoint consistent without stopping the crawl: every change that moves a URL between the
 * Bloom filter, the pending queue (memory or spill), the in-flight set and the output (an admission, a poll, a
 * retry, a task's last record) holds the {@link #shared()} side; a checkpoint takes the exclusive side only to
 * copy that state ({@link #exclusive}), then writes the copy with the crawl running again. Once {@link #seal sealed}
 * for the final checkpoint, a change ({@link #change}) changes nothing.
 *
 * <p>Thread-safe. Shared holders never block each other; a waiting snapshot holds new shared holders back
 * (the lock is not fair, but a queued writer blocks new readers), so it waits at most for the shared sections
 * running, each a few operations long.
 */
final class SnapshotLock {
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile boolean sealed;

    /** The side a state change holds; lock it around the change. */
    Lock shared() {
        return lock.readLock();
    }

    /** Runs {@code snapshot} while no state change is under way and returns what it copied. */
    <T> T exclusive(Supplier<T> snapshot) {
        lock.writeLock().lock();
        try {
            return snapshot.get();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Ends all changes: from now on {@link #change} runs nothing. Returns once a change under way is done. */
    void seal() {
        exclusive(() -> sealed = true);
    }

    /** Whether {@link #seal} was called. */
    boolean sealed() {
        return sealed;
    }

    /** Runs {@code change} holding the shared side, unless sealed; returns whether it ran. */
    <E extends Exception> boolean change(Change<E> change) throws E {
        Lock shared = lock.readLock();
        shared.lock();
        try {
            if (sealed) {
                return false;
            }
            change.run();
            return true;
        } finally {
            shared.unlock();
        }
    }

    /** A state change, which may throw {@code E} (writing the records, say). */
    @FunctionalInterface
    interface Change<E extends Exception> {
        void run() throws E;
    }
}
