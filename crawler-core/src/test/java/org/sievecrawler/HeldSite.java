package org.sievecrawler;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A site on 127.0.0.1 whose "held" pages send their headers and the first bytes of their body, then drip the rest
 * a byte every 50 ms (padded to 20,000 bytes: over 15 minutes) until {@link #release()} sends what is left: a body
 * in flight for as long as a test needs, for stopping a crawl in the middle of it. The dripping keeps read timeouts
 * from firing and lets a reader's thread see an interrupt, as a slow real server would. Other paths are served whole at once; robots.txt is missing (404). HTTP/1.0, one connection per request.
 *
 * <p>Thread-safe; one daemon thread per connection; {@link #close()} closes every socket.
 */
final class HeldSite implements AutoCloseable {
    private static final int HELD_BYTES = 20_000;
    private final ServerSocket listener;
    private final Map<String, String> pages = new ConcurrentHashMap<>();
    private final Set<String> held = ConcurrentHashMap.newKeySet();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private final CountDownLatch released = new CountDownLatch(1);
    private final Map<String, CountDownLatch> bodyStarted = new ConcurrentHashMap<>();

    HeldSite() throws IOException {
        listener = new ServerSocket(0, 64, InetAddress.getByName("127.0.0.1"));
        Thread acceptor = new Thread(this::accept, "held-site");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Serves {@code html} at {@code path} at once. */
    HeldSite page(String path, String html) {
        pages.put(path, html);
        return this;
    }

    /** Serves {@code html} at {@code path}, holding all but its first bytes until {@link #release()}. */
    HeldSite heldPage(String path, String html) {
        pages.put(path, html + " ".repeat(Math.max(0, HELD_BYTES - html.length())));
        held.add(path);
        bodyStarted.put(path, new CountDownLatch(1));
        return this;
    }

    String url(String path) {
        return "http://127.0.0.1:" + listener.getLocalPort() + path;
    }

    /** Waits until the body of the held page {@code path} has started; false if it did not within the timeout. */
    boolean awaitBodyStarted(String path, long seconds) throws InterruptedException {
        return bodyStarted.get(path).await(seconds, TimeUnit.SECONDS);
    }

    /** Lets every held body (now and later) go out whole. */
    void release() {
        released.countDown();
    }

    /** Requests of {@code path} so far. */
    int requests(String path) {
        AtomicInteger count = requests.get(path);
        return count == null ? 0 : count.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket socket = listener.accept();
                open.add(socket);
                Thread thread = new Thread(() -> serve(socket), "held-site-connection");
                thread.setDaemon(true);
                thread.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.ISO_8859_1));
            String requestLine = in.readLine();
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                // header fields: not needed
            }
            if (requestLine == null) {
                return;
            }
            String path = requestLine.split(" ")[1];
            requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            String html = pages.get(path);
            byte[] body = (html == null ? "not found" : html).getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(((html == null ? "HTTP/1.0 404 Not Found" : "HTTP/1.0 200 OK") + "\r\n"
                    + "Content-Type: text/html; charset=utf-8\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            int sent = held.contains(path) ? Math.min(8, body.length) : body.length;
            out.write(body, 0, sent);
            out.flush();
            if (sent < body.length) {
                bodyStarted.get(path).countDown();
                while (sent < body.length - 1 && !released.await(50, TimeUnit.MILLISECONDS)) {
                    out.write(body[sent++]);
                    out.flush();
                }
                out.write(body, sent, body.length - sent);
                out.flush();
            }
        } catch (IOException e) {
            // the client went away, or close() closed the socket
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            open.remove(socket);
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        released.countDown();
        for (Socket socket : open) {
            socket.close();
        }
    }
}
