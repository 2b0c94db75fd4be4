package org.sievecrawler.fetch;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.util.Collections;
import java.util.Locale;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.LongAdder;
import okhttp3.Connection;
import okhttp3.Interceptor;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.internal.connection.RealConnection;
import okhttp3.internal.http2.ConnectionShutdownException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pooled connections the server has closed: a GET that fails on one because the server closed or reset it is
 * sent again at once on another connection, without counting as a failed attempt of the crawl; and a connection
 * the server will close after its response (HTTP/1.0 without keep-alive) is never pooled.
 *
 * <p>Why: a server closes idle keep-alive connections after a while (nginx after 75 s, many after 5 s), and an
 * HTTP/1.0 server such as {@code python3 -m http.server} after every response without saying so. OkHttp
 * checks a pooled connection before a GET only locally (socket not closed on our side), so the next request
 * goes out on a socket whose peer is gone and fails with "unexpected end of stream" or "connection reset". Made
 * a crawl failure, that cost a second of backoff per request and half a crawl's speed (250 pages in 252 s
 * from {@code http.server}).
 *
 * <p>Why not OkHttp's own {@code retryOnConnectionFailure(true)} (read in OkHttp 5.5's
 * {@code RetryAndFollowUpInterceptor.recover} and {@code RealRoutePlanner.hasNext}): besides this case it sends
 * the request again after failures the crawl must see and count: a failure after the request was sent on a
 * fresh connection, to the host's next address (a host with several addresses gets the GET twice, silently);
 * a fresh connection that the server resets; a 408 answer, repeated once; a TLS handshake retried with another
 * connection spec. It leaves read timeouts alone, but nothing of what it retried can be counted. This class
 * retries exactly one case, and counts it ({@link #reconnects()}):
 * <ul>
 *   <li>the failed attempt went out on a connection that had already carried a response (a pooled one; noted by
 *   the network interceptor {@link #watch}), and
 *   <li>it failed with the peer gone: end of stream, a socket error (reset, broken pipe) or an HTTP/2 shutdown;
 *   never a timeout (a slow server is not a closed connection), never after a response head arrived (a body
 *   that breaks off is read outside the interceptor chain and fails the fetch), and
 *   <li>the request is a GET (every request the crawler makes; idempotent, so sending it twice is harmless).
 * </ul>
 * OkHttp drops the failed connection; the next attempt takes another pooled connection or opens a fresh one.
 * Each retry uses up one pooled connection, so the retries end with a fresh connection, or at
 * {@link #MAX_STALE_RETRIES} (several pooled connections to one host, all closed by the server), when the last
 * failure is returned as the fetch's result.
 *
 * <p>HTTP/1.0: a response is persistent only when it says {@code Connection: keep-alive} (RFC 9112, section
 * 9.3); OkHttp honours {@code Connection: close} but pools an HTTP/1.0 connection that says nothing. The network
 * interceptor marks such a connection for no new exchanges, which OkHttp's pool then closes on release. That
 * uses {@link RealConnection#noNewExchanges()}, which OkHttp 5 marks internal (as {@link PoolSweeper} uses its
 * pool's internals): an upgrade that changes it breaks the build, and {@code HttpFetcherTest} checks the
 * behaviour.
 *
 * <p>Thread-safe: the set of connections that carried a response is synchronized and weak (a closed
 * connection leaves it with the garbage collector).
 */
final class StaleConnections {
    /** Requests sent again at most for one fetch because their pooled connection was closed. */
    static final int MAX_STALE_RETRIES = 4;

    private static final Logger LOG = LoggerFactory.getLogger(StaleConnections.class);

    private final Set<Connection> carriedResponse =
            Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
    private final LongAdder reconnects = new LongAdder();

    /** The application interceptor: sends a GET again at once when it failed on a pooled connection gone stale. */
    Response retry(Interceptor.Chain chain) throws IOException {
        Request request = chain.request();
        for (int retries = 0; ; retries++) {
            Attempt attempt = new Attempt();
            try {
                return chain.proceed(request.newBuilder().tag(Attempt.class, attempt).build());
            } catch (IOException e) {
                if (!attempt.pooled || retries == MAX_STALE_RETRIES || !request.method().equals("GET")
                        || chain.call().isCanceled() || !peerGone(e)) {
                    throw e;
                }
                reconnects.increment();
                LOG.debug("{}: the pooled connection was closed by the server ({}); sending the request again",
                        request.url(), e.toString());
            }
        }
    }

    /**
     * The network interceptor: notes whether this attempt's connection is a pooled one, and keeps an HTTP/1.0
     * connection without keep-alive out of the pool.
     */
    Response watch(Interceptor.Chain chain) throws IOException {
        Connection connection = chain.connection();
        Attempt attempt = chain.request().tag(Attempt.class);
        if (attempt != null && connection != null) {
            attempt.pooled = carriedResponse.contains(connection);
        }
        Response response = chain.proceed(chain.request());
        if (connection != null) {
            if (closesAfter(response) && connection instanceof RealConnection real) {
                real.noNewExchanges();
            } else {
                carriedResponse.add(connection);
            }
        }
        return response;
    }

    /** Requests sent again because the pooled connection they went out on had been closed by the server. */
    long reconnects() {
        return reconnects.sum();
    }

    /** An HTTP/1.0 response without a {@code keep-alive} token in its Connection header. */
    static boolean closesAfter(Response response) {
        if (response.protocol() != Protocol.HTTP_1_0) {
            return false;
        }
        for (String value : response.headers("Connection")) {
            for (String token : value.split(",")) {
                if (token.trim().toLowerCase(Locale.ROOT).equals("keep-alive")) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether {@code e} says the peer closed or reset the connection (and is no timeout). */
    private static boolean peerGone(IOException e) {
        boolean gone = false;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof InterruptedIOException) {
                return false; // a timeout or a cancel: not a closed connection
            }
            gone |= t instanceof EOFException || t instanceof SocketException
                    || t instanceof ConnectionShutdownException;
        }
        return gone;
    }

    /** One attempt of a request, as the network interceptor saw it. */
    private static final class Attempt {
        volatile boolean pooled;
    }
}
