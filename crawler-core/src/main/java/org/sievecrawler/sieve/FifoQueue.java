package org.sievecrawler.sieve;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/** A lock-free FIFO {@link PendingQueue} with an O(1) size. Thread-safe. */
final class FifoQueue implements PendingQueue {
    private final Queue<PendingUrl> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();

    @Override
    public void add(PendingUrl url) {
        queue.add(url);
        size.incrementAndGet();
    }

    @Override
    public PendingUrl poll() {
        PendingUrl url = queue.poll();
        if (url != null) {
            size.decrementAndGet();
        }
        return url;
    }

    @Override
    public int size() {
        return size.get();
    }
}
