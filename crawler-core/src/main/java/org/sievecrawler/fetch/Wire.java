package org.sievecrawler.fetch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import okhttp3.Connection;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.internal.http.HttpHeaders;

/**
 * What one request met on the wire, noted by the network interceptor {@link #watch} and made into the request's
 * {@link HttpExchange} once its body is read: the IP address connected to and, for a fetcher that captures
 * exchanges, the request head OkHttp wrote and the response as it came off the socket, through the connection's
 * {@link HeadTap} (see {@link TappedSockets}).
 *
 * <p>The response, per exchange:
 * <ul>
 *   <li>a capture is armed on the tap when the exchange starts on its connection (a kept-alive connection carries
 *   one exchange after the other), so its bytes start with the first byte of the response; the heads are cut out
 *   of them as OkHttp read them ({@link WireFraming}): the final head is the record's, interim 1xx heads before it
 *   (100 Continue, 103 Early Hints) are kept apart;
 *   <li>a body is kept as OkHttp hands it over (the page's bytes, or the gzip bytes, see {@link CappedBody}), but
 *   for a chunked one, whose coding OkHttp removes: the capture stays armed while it is read, and the body as
 *   received (sizes, extensions, trailers) is cut out of its bytes, at the same cap;
 *   <li>when the heads read off the socket are not the ones OkHttp parsed (the status or the number of fields
 *   differ, or their end is missing), which happens when a server sent a response before it was asked (bytes past
 *   the end of the previous response on the connection, read ahead by OkHttp during that exchange), the head is
 *   {@linkplain CapturedResponse.Rebuilt rebuilt} from OkHttp's fields and says why;
 *   <li>a response OkHttp refused (a status line it cannot read, a head over its limit, a status code it cannot
 *   make a response of) is the bytes read when it gave up ({@link #refused}).
 * </ul>
 *
 * <p>The request head is rebuilt from the fields OkHttp wrote, which is exact: OkHttp writes it from those fields.
 *
 * <p>Threads: a call runs its interceptors in the thread that executes it, which also reads the body; the fields
 * the interceptor sets are volatile all the same.
 */
final class Wire {
    /** Bytes of a chunked body as received kept beyond twice the cap: room for its sizes and extensions. */
    private static final long CHUNK_FRAMING_BYTES = 64 * 1024;

    private final boolean capturing;
    private final long cap;
    volatile String ip;
    private volatile byte[] requestHead;
    /** What this exchange read off its connection, or null when its connection has no tap. */
    private volatile HeadTap.Capture capture;
    private volatile WireFraming.Heads heads;
    private volatile boolean chunked;
    private volatile byte[] received;

    /**
     * @param capture whether to capture the exchange
     * @param cap the body bytes the fetch reads at most (the chunked body as received is kept up to as much)
     */
    Wire(boolean capture, long cap) {
        this.capturing = capture;
        this.cap = cap;
    }

    /**
     * The network interceptor: notes the IP address connected to and, when capturing, the request head and the
     * response's heads. Two heads OkHttp reads but cannot use are made {@link ProtocolException}s, failed fetches
     * like any unreadable head, instead of exceptions that would end the fetcher's thread: a negative status code
     * ({@code HTTP/1.1 -12}: OkHttp's {@code Response.Builder} throws {@link IllegalStateException}), and a negative
     * Content-Length (OkHttp throws {@link IllegalArgumentException} reading the body, and again closing it). An
     * exception out of this interceptor makes OkHttp cancel the exchange, which closes its connection.
     */
    static Response watch(Interceptor.Chain chain) throws IOException {
        Wire wire = chain.request().tag(Wire.class);
        Connection connection = chain.connection();
        if (wire == null || connection == null) {
            return chain.proceed(chain.request());
        }
        wire.started(connection, chain.request());
        Response response;
        try {
            response = chain.proceed(chain.request());
        } catch (IOException e) {
            wire.failed();
            throw e;
        } catch (IllegalStateException | IllegalArgumentException e) {
            wire.failed();
            throw new ProtocolException("OkHttp could not make a response of the head: " + e.getMessage());
        }
        if (response.body().contentLength() < -1) { // not closed: closing it would throw
            wire.failed();
            throw new ProtocolException("Content-Length " + response.header("Content-Length") + " is negative");
        }
        wire.headRead(response);
        return response;
    }

    private void started(Connection connection, Request request) {
        InetAddress address = connection.route().socketAddress().getAddress();
        ip = address == null ? null : address.getHostAddress();
        if (!capturing) {
            return;
        }
        requestHead = requestHead(request);
        heads = null;
        chunked = false;
        received = null;
        HeadTap tap = TappedSockets.tapOf(connection.socket());
        capture = tap == null ? null : tap.arm(WireFraming.MAX_HEAD_BYTES + WireFraming.READ_AHEAD);
    }

    /** The final head was read: cut the heads out, and keep the capture armed for a chunked body only. */
    private void headRead(Response response) {
        HeadTap.Capture read = capture;
        if (read == null) {
            return;
        }
        heads = WireFraming.heads(read.bytes(), read.size());
        chunked = heads != null && HttpHeaders.promisesBody(response)
                && "chunked".equalsIgnoreCase(response.header("Transfer-Encoding"));
        if (chunked) {
            read.extend(Math.min(Integer.MAX_VALUE - 16, 2 * cap + CHUNK_FRAMING_BYTES));
        } else {
            read.disarm();
        }
    }

    private void failed() {
        HeadTap.Capture read = capture;
        if (read != null) {
            read.disarm();
            received = Arrays.copyOf(read.bytes(), read.size());
        }
    }

    /** The exchange of {@code response}, whose body has been read into {@code body} (kept raw). */
    HttpExchange exchange(HttpUrl url, long start, Response response, CappedBody body) {
        HeadTap.Capture read = capture;
        if (read != null) {
            read.disarm();
        }
        byte[] request = requestHead != null ? requestHead
                : requestHead(response.request()); // not on the wire: only if OkHttp skipped the network
        return new HttpExchange(url.toString(), Instant.ofEpochMilli(start), ip, request,
                response(read, response, body));
    }

    /**
     * The exchange of a response OkHttp refused, with the bytes read of it, or null when there are none (not
     * capturing, or nothing came).
     *
     * @param why the fetch's failure
     */
    HttpExchange refused(HttpUrl url, long start, String why) {
        byte[] bytes = received;
        byte[] request = requestHead;
        if (bytes == null || bytes.length == 0 || request == null) {
            return null;
        }
        return new HttpExchange(url.toString(), Instant.ofEpochMilli(start), ip, request,
                new CapturedResponse.Refused(bytes, why));
    }

    private CapturedResponse response(HeadTap.Capture read, Response response, CappedBody body) {
        if (read == null) {
            return rebuilt(response, body, "the connection had no tap on its input (its socket was not made by a"
                    + " capturing fetcher)");
        }
        WireFraming.Heads found = heads;
        if (found == null) {
            return rebuilt(response, body, "the end of the response head was not among the bytes read off the"
                    + " socket during this exchange: the server had sent it early, past the end of the previous"
                    + " response on this connection");
        }
        if (found.status() != response.code() || found.fields() != response.headers().size()) {
            return rebuilt(response, body, "the head read off the socket during this exchange (status "
                    + found.status() + ", " + found.fields() + " fields) is not the one OkHttp parsed (status "
                    + response.code() + ", " + response.headers().size() + " fields): the server had sent bytes"
                    + " past the end of the previous response on this connection");
        }
        byte[] bytes = read.bytes();
        byte[] head = Arrays.copyOfRange(bytes, found.finalStart(), found.end());
        byte[] interim = Arrays.copyOfRange(bytes, 0, found.finalStart());
        byte[] payload = body.raw();
        if (!chunked) {
            return new CapturedResponse.Received(head, interim, payload, payload, body.rawTruncated());
        }
        WireFraming.Chunked framed = WireFraming.chunked(bytes, found.end(), read.size(),
                body.rawTruncated() ? payload.length : -1);
        boolean whole = framed.complete() && framed.data() == payload.length;
        if (!body.rawTruncated() && !whole && !read.overflowed()) {
            return rebuilt(response, body, "the chunked body read off the socket (" + framed.data()
                    + " bytes of data) does not frame as OkHttp framed it (" + payload.length + " bytes)");
        }
        byte[] kept = framed.data() == payload.length ? payload : Arrays.copyOf(payload, (int) framed.data());
        return new CapturedResponse.Received(head, interim, Arrays.copyOfRange(bytes, found.end(), framed.end()),
                kept, body.rawTruncated() || !whole);
    }

    private static CapturedResponse rebuilt(Response response, CappedBody body, String why) {
        return new CapturedResponse.Rebuilt(responseHead(response), body.raw(), body.rawTruncated(), why);
    }

    /** The request line and header fields as OkHttp's HTTP/1.1 codec writes them. */
    static byte[] requestHead(Request request) {
        HttpUrl url = request.url();
        StringBuilder head = new StringBuilder(256).append(request.method()).append(' ').append(url.encodedPath());
        if (url.encodedQuery() != null) {
            head.append('?').append(url.encodedQuery());
        }
        head.append(" HTTP/1.1\r\n");
        appendFields(head, request.headers(), false);
        return head.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The status line and header fields OkHttp parsed, each written {@code Name: value}, without
     * {@code Transfer-Encoding: chunked} (the body it precedes has no chunked coding).
     */
    static byte[] responseHead(Response response) {
        StringBuilder head = new StringBuilder(512)
                .append(response.protocol() == Protocol.HTTP_1_0 ? "HTTP/1.0" : "HTTP/1.1").append(' ')
                .append(response.code()).append(' ').append(response.message()).append("\r\n");
        appendFields(head, response.headers(), true);
        return head.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void appendFields(StringBuilder head, Headers headers, boolean dropChunked) {
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i);
            if (dropChunked && name.equalsIgnoreCase("Transfer-Encoding")
                    && headers.value(i).equalsIgnoreCase("chunked")) {
                continue;
            }
            head.append(name).append(": ").append(headers.value(i)).append("\r\n");
        }
        head.append("\r\n");
    }
}
