package org.sievecrawler.fetch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.SocketFactory;

/**
 * A socket factory for tests that counts the sockets it made and has not seen closed (the most at once too), and
 * can refuse the first few with the JDK's "Too many open files", as a process out of file descriptors does.
 * Thread-safe. Only OkHttp's way to make a socket (unconnected, {@link #createSocket()}) is supported.
 */
final class CountedSockets extends SocketFactory {
    private final AtomicInteger refusals;
    private final AtomicInteger made = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger mostOpen = new AtomicInteger();

    /** Makes every socket asked for after refusing the first {@code refusals}. */
    CountedSockets(int refusals) {
        this.refusals = new AtomicInteger(refusals);
    }

    @Override
    public Socket createSocket() throws SocketException {
        if (refusals.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new SocketException("Too many open files");
        }
        made.incrementAndGet();
        mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
        AtomicBoolean closed = new AtomicBoolean();
        return new Socket() {
            @Override
            public synchronized void close() throws IOException {
                if (closed.compareAndSet(false, true)) {
                    open.decrementAndGet();
                }
                super.close();
            }
        };
    }

    /** Sockets made (not counting the refused ones). */
    int made() {
        return made.get();
    }

    /** Sockets made and not closed yet. */
    int open() {
        return open.get();
    }

    /** The most sockets open at once so far. */
    int mostOpen() {
        return mostOpen.get();
    }

    @Override
    public Socket createSocket(String host, int port) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Socket createSocket(InetAddress host, int port) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) {
        throw new UnsupportedOperationException();
    }
}
