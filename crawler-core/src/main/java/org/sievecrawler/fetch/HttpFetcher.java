package org.sievecrawler.fetch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import okhttp3.Call;
import okhttp3.Dispatcher;
import okhttp3.Dns;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.sievecrawler.profile.FetchConfig;
import org.sievecrawler.profile.LimitsConfig;
import org.sievecrawler.profile.PolitenessConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crawler's HTTP client: one shared {@link OkHttpClient} that makes single attempts, never follows redirects
 * or retries on its own (but for a GET that met a pooled connection the server had closed: it goes out again at
 * once, see {@link StaleConnections}, and is counted in {@link #reconnects()}), sends the profile's User-Agent and
 * extra headers ({@code fetch.headers}), goes through the proxy of {@code fetch.proxy} or the environment
 * ({@link ProxyRoutes}), trusts the certificate authorities of {@code fetch.trust-store} besides the system's for
 * https, refuses the addresses of special-purpose ranges but on a seed's host and port (see
 * {@link AddressGuard}, for every request: each redirect hop is a request of its own) and reads bodies after gzip
 * decompression up to {@code limits.max-page-bytes}. Every response and every network
 * error becomes a {@link FetchResult}; nothing is thrown for network trouble.
 *
 * <p>It sends {@code Accept-Encoding: gzip} itself, so OkHttp leaves the body coded, and inflates it itself (see
 * {@link CappedBody}): the same work OkHttp would do, with the body as transferred still at hand. A fetcher built
 * to capture exchanges (for WARC output) keeps that body, the request head OkHttp sent and the response head it
 * received in each result's {@link HttpExchange}, and speaks HTTP/1.1 only, so that the heads it records are the
 * ones on the wire; one that does not capture keeps nothing extra.
 *
 * <p>Threads: safe for any number of fetcher threads; each call blocks its thread until the response is read or
 * a timeout fires. The connection pool keeps up to {@code maxIdleConnections} idle connections (by default
 * {@code fetch.threads}, enough for every fetcher thread to hit one host at once; the crawl asks for threads times
 * connections per host, so that moving between hosts does not mean reconnecting).
 *
 * <p>{@link #cancelCalls()} ends every request in flight, and every one made after it, with
 * {@link FailureKind#CANCELLED}: the crawl's way to end requests still running when it stops (a thread interrupt
 * would reach a request only between two reads, and would close pages.jsonl's channel if it came later).
 *
 * <p>Out of scope: retries and their backoff, following redirects of pages, politeness and interpreting
 * robots.txt (the engine and the politeness package). {@code fetchMillis} is measured with the injected clock.
 */
public final class HttpFetcher implements AutoCloseable {
    /** Bytes of a robots.txt file read at most (500 KiB, RFC 9309 section 2.5). */
    public static final int MAX_ROBOTS_BYTES = 512_000;
    /** Redirects followed at most when fetching robots.txt (RFC 9309 section 2.3.1.2). */
    public static final int MAX_ROBOTS_REDIRECTS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(HttpFetcher.class);
    private static final Duration IDLE_CONNECTION_KEEP_ALIVE = Duration.ofMinutes(5);

    private final FetchConfig fetch;
    private final long maxPageBytes;
    private final Clock clock;
    private final boolean capture;
    /** The client for every request but those to a seed's host:port: its DNS refuses special-purpose ranges. */
    private final OkHttpClient client;
    /** {@link #client} with the DNS that lets the seeds' host names resolve to refused addresses. */
    private final OkHttpClient seedClient;
    private final AddressGuard guard;
    /** {@code fetch.headers}, sent with every request. */
    private final Headers extraHeaders;
    /** The connection pool, swept by a thread of its own (see {@link PoolSweeper}). */
    private final PoolSweeper sweeper;
    private final StaleConnections stale = new StaleConnections();
    /** Calls from their start until their body is read, for {@link #cancelCalls()}. */
    private final Set<Call> calls = ConcurrentHashMap.newKeySet();
    private volatile boolean cancelled;

    /**
     * Idle connections worth keeping for a crawl: each thread may hold {@code politeness.max-connections-per-host} to
     * a host (at most 1,024 in all; servers close idle ones after a while anyway). With only {@code fetch.threads}, a
     * crawl of 16 hosts by 32 threads reconnected once every 18 requests.
     */
    public static int idleConnections(FetchConfig fetch, PolitenessConfig politeness) {
        long wanted = (long) fetch.threads() * politeness.maxConnectionsPerHost();
        return (int) Math.min(1024, wanted);
    }

    /** A fetcher on the system clock; see {@link #HttpFetcher(FetchConfig, LimitsConfig, Set, Clock)}. */
    public HttpFetcher(FetchConfig fetch, LimitsConfig limits, Set<String> seedOrigins) {
        this(fetch, limits, seedOrigins, Clock.systemUTC());
    }

    /**
     * A fetcher with its own connection pool; {@link #close()} releases it.
     *
     * @param seedOrigins the seeds' origins, {@code host:port} ({@code [::1]:8080} for IPv6): those may be on
     *     refused addresses even when {@code fetch.allow-private-addresses} is false, on those ports only; a bare
     *     host (no port) allows every port of it
     * @param clock the source of "now" for Retry-After dates and for {@code fetchMillis}
     */
    public HttpFetcher(FetchConfig fetch, LimitsConfig limits, Set<String> seedOrigins, Clock clock) {
        this(fetch, limits, seedOrigins, clock, false);
    }

    /**
     * A fetcher that also captures each exchange as it crossed the wire when {@code captureExchanges} is true.
     *
     * @see #HttpFetcher(FetchConfig, LimitsConfig, Set, Clock)
     */
    public HttpFetcher(FetchConfig fetch, LimitsConfig limits, Set<String> seedOrigins, Clock clock,
            boolean captureExchanges) {
        this(fetch, limits, seedOrigins, clock, captureExchanges, fetch.threads());
    }

    /**
     * A fetcher whose pool keeps up to {@code maxIdleConnections} idle connections for reuse (at least
     * {@code fetch.threads}).
     *
     * @param maxIdleConnections idle connections kept, across hosts: the crawl's threads times the connections it
     *     may hold to one host, so that a crawl moving between hosts reconnects only to hosts it left long ago
     * @see #HttpFetcher(FetchConfig, LimitsConfig, Set, Clock, boolean)
     */
    public HttpFetcher(FetchConfig fetch, LimitsConfig limits, Set<String> seedOrigins, Clock clock,
            boolean captureExchanges, int maxIdleConnections) {
        this(fetch, limits, seedOrigins, clock, captureExchanges, maxIdleConnections, System.getenv());
    }

    /**
     * A fetcher that reads the proxy variables ({@code http_proxy}, {@code https_proxy}, {@code no_proxy}) from
     * {@code env} when {@code fetch.proxy} is {@code none} (see {@link ProxyRoutes}). A proxy's host may resolve to a
     * private address whatever {@code fetch.allow-private-addresses} says: the user named it.
     *
     * @see #HttpFetcher(FetchConfig, LimitsConfig, Set, Clock, boolean, int)
     */
    public HttpFetcher(FetchConfig fetch, LimitsConfig limits, Set<String> seedOrigins, Clock clock,
            boolean captureExchanges, int maxIdleConnections, Map<String, String> env) {
        this(fetch, limits, ProxyRoutes.of(fetch, env), seedOrigins, clock, captureExchanges,
                maxIdleConnections);
    }

    private HttpFetcher(FetchConfig fetch, LimitsConfig limits, ProxyRoutes proxies, Set<String> seedOrigins,
            Clock clock, boolean captureExchanges, int maxIdleConnections) {
        this(fetch, limits, proxies, new AddressGuard(Dns.SYSTEM, fetch.allowPrivateAddresses(), seedOrigins,
                proxies == null ? Set.of() : proxies.proxyHosts()), clock, captureExchanges, maxIdleConnections, null);
    }

    /** A fetcher whose connections are made by {@code sockets} (null: the default), for tests that watch them. */
    HttpFetcher(FetchConfig fetch, LimitsConfig limits, AddressGuard guard, Clock clock, boolean captureExchanges,
            SocketFactory sockets) {
        this(fetch, limits, ProxyRoutes.of(fetch, Map.of()), guard, clock, captureExchanges, fetch.threads(), sockets);
    }

    private HttpFetcher(FetchConfig fetch, LimitsConfig limits, ProxyRoutes proxies, AddressGuard guard, Clock clock,
            boolean captureExchanges, int maxIdleConnections, SocketFactory sockets) {
        this.fetch = fetch;
        this.maxPageBytes = limits.maxPageBytes();
        this.clock = clock;
        this.capture = captureExchanges;
        this.sweeper = new PoolSweeper(Math.max(fetch.threads(), maxIdleConnections), IDLE_CONNECTION_KEEP_ALIVE);
        Dispatcher dispatcher = new Dispatcher();
        dispatcher.setMaxRequests(Math.max(64, fetch.threads()));
        dispatcher.setMaxRequestsPerHost(fetch.threads());
        OkHttpClient.Builder builder = new OkHttpClient.Builder();
        if (captureExchanges) {
            builder.protocols(List.of(Protocol.HTTP_1_1));
        }
        if (proxies != null) {
            builder.proxySelector(proxies);
        }
        if (sockets != null) {
            builder.socketFactory(sockets);
        }
        if (!fetch.trustStore().isSystem()) {
            X509TrustManager trust = fetch.trustStore().trustManager();
            builder.sslSocketFactory(tlsContext(trust).getSocketFactory(), trust);
        }
        Headers.Builder extra = new Headers.Builder();
        for (String header : fetch.headers()) {
            extra.add(header);
        }
        this.extraHeaders = extra.build();
        this.client = builder
                .connectTimeout(fetch.connectTimeout())
                .readTimeout(fetch.readTimeout())
                .writeTimeout(fetch.readTimeout())
                .callTimeout(fetch.callTimeout())
                .followRedirects(false)
                .followSslRedirects(false)
                .retryOnConnectionFailure(false)
                .dispatcher(dispatcher)
                .connectionPool(sweeper.pool())
                .dns(guard)
                .addInterceptor(guard)
                .addInterceptor(stale::retry)
                .addNetworkInterceptor(stale::watch)
                .addNetworkInterceptor(HttpFetcher::watchTheWire)
                .build();
        this.seedClient = client.newBuilder().dns(guard.forSeedOrigins()).build(); // same pool and dispatcher
        this.guard = guard;
    }

    /** A TLS context that trusts what {@code trust} trusts, for the profile's {@code fetch.trust-store}. */
    private static SSLContext tlsContext(X509TrustManager trust) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {trust}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JVM has no TLS context: " + e, e);
        }
    }

    /** The client for a request to {@code url}: the one whose DNS lets seeds' hosts resolve privately, or not. */
    private OkHttpClient clientFor(HttpUrl url) {
        return guard.isSeedOrigin(url) ? seedClient : client;
    }

    /**
     * Makes one GET attempt, blocking, without following a redirect.
     *
     * @return a {@link FetchResult.Page} for a final response, a {@link FetchResult.Redirect} for 301, 302, 303,
     *     307 and 308, or a {@link FetchResult.Failure} for a retryable status, a network error or an invalid URL
     */
    public FetchResult fetch(String url) {
        return fetch(url, maxPageBytes);
    }

    /**
     * {@link #fetch(String)} reading at most {@code maxBytes} body bytes (after decompression) instead of
     * {@code limits.max-page-bytes}: for a sitemap, whose limit is {@code scope.max-sitemap-bytes}.
     */
    public FetchResult fetch(String url, long maxBytes) {
        long start = clock.millis();
        HttpUrl parsed = url == null ? null : HttpUrl.parse(url);
        if (parsed == null) {
            return new FetchResult.Failure(FailureKind.INVALID_URL, 0,
                    "url \"" + url + "\" is not an absolute http or https URL", null, 0);
        }
        Wire wire = new Wire(capture);
        Request request = request(parsed, wire);
        FetchResult result;
        Call call = newCall(request);
        try (Response response = call.execute()) {
            result = toResult(response, parsed, start, wire, maxBytes);
        } catch (IOException e) {
            result = NetworkErrors.failure(e, parsed, fetch, 0, elapsed(start));
        } finally {
            calls.remove(call);
        }
        // OkHttp's call timeout cancels the call too: only a cancelCalls() makes it CANCELLED (put back), while a
        // call that merely timed out stays a timeout (else it would be put back and retried without end)
        if (result instanceof FetchResult.Failure && cancelled && call.isCanceled()) { // whatever the exception said
            result = new FetchResult.Failure(FailureKind.CANCELLED, 0, cancelled(parsed), null, elapsed(start));
        }
        LOG.debug("fetched {}: {}", parsed, result);
        return result;
    }

    /**
     * A GET of {@code url} with the profile's extra headers, its User-Agent and {@code Accept-Encoding: gzip} (so OkHttp leaves the body
     * coded for {@link CappedBody} to inflate), carrying {@code wire} for the network interceptor.
     */
    private Request request(HttpUrl url, Wire wire) {
        return new Request.Builder().url(url).headers(extraHeaders).header("User-Agent", fetch.userAgent())
                .header("Accept-Encoding", "gzip").tag(Wire.class, wire).build();
    }

    private FetchResult toResult(Response response, HttpUrl url, long start, Wire wire, long maxBytes) {
        int status = response.code();
        boolean redirect = isRedirect(status);
        boolean retryable = status == 429 || status == 502 || status == 503 || status == 504;
        boolean bodyMatters = !(redirect || retryable);
        CappedBody body = null;
        if (capture || bodyMatters) {
            try {
                body = readBody(response, maxBytes);
            } catch (IOException e) {
                if (bodyMatters) {
                    return NetworkErrors.failure(e, url, fetch, status, elapsed(start));
                } // else a redirect or retryable status all the same, only not archived
            }
        }
        HttpExchange exchange = capture && body != null ? exchange(wire, url, start, response, body) : null;
        if (redirect) {
            return new FetchResult.Redirect(status, response.header("Location"), elapsed(start), wire.ip, exchange);
        }
        if (retryable) {
            String retryAfter = response.header("Retry-After");
            return new FetchResult.Failure(FailureKind.RETRYABLE_STATUS, status, "HTTP " + status + " from " + url
                    + (retryAfter == null ? "" : " with Retry-After \"" + retryAfter + "\""),
                    RetryAfter.parse(retryAfter, clock), elapsed(start), exchange);
        }
        return new FetchResult.Page(url, status, response.header("Content-Type"), body.bytes(), body.bytes().length,
                body.truncated(), elapsed(start), wire.ip, response.headers(), exchange);
    }

    /** Adds the exchange of a robots.txt redirect to {@code exchanges}, unless its body cannot be read. */
    private void captureRedirect(Wire wire, HttpUrl url, long start, Response response,
            List<HttpExchange> exchanges) {
        try {
            exchanges.add(exchange(wire, url, start, response, readBody(response, MAX_ROBOTS_BYTES)));
        } catch (IOException e) {
            LOG.debug("robots.txt redirect {}: body not read, not archived: {}", url, e.toString());
        }
    }

    /** The body up to {@code cap}, inflated when gzip-coded; kept as transferred too when capturing. */
    private CappedBody readBody(Response response, long cap) throws IOException {
        boolean gzip = "gzip".equalsIgnoreCase(response.header("Content-Encoding"));
        return CappedBody.read(response.body().source(), gzip, cap, capture);
    }

    private static HttpExchange exchange(Wire wire, HttpUrl url, long start, Response response, CappedBody body) {
        byte[] requestHead = wire.requestHead != null ? wire.requestHead
                : requestHead(response.request()); // not on the wire: only if OkHttp skipped the network
        return new HttpExchange(url.toString(), Instant.ofEpochMilli(start), wire.ip, requestHead,
                responseHead(response), body.raw(), body.rawTruncated());
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
     * The status line and header fields as received, without {@code Transfer-Encoding: chunked} (OkHttp has
     * removed that coding from the body).
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

    /**
     * Fetches a robots.txt file, following up to {@link #MAX_ROBOTS_REDIRECTS} redirects (relative Locations
     * resolved against the current URL) and reading at most {@link #MAX_ROBOTS_BYTES} bytes. Every hop is a request
     * of its own through the {@link AddressGuard}, so a redirect obeys the rule of links: to a host on a refused
     * address (a literal, {@code localhost} or a name resolving there) only if its host:port is a seed's.
     *
     * @return the final status, body and URL; or status 0 with an error on a network error or a timeout (on a
     *     redirect's target, that host's: see {@link RobotsResponse#hostUnreachable(String)}); or status 0
     *     {@linkplain RobotsResponse#unavailable() unavailable} when the redirects lead nowhere: more than five of
     *     them, one without a usable Location, one to a host name that does not resolve, or one the address guard
     *     refused (RFC 9309 section 2.3.1.2); or when the address guard refused robots.txt's own host, whose pages
     *     it then refuses one by one (there is nothing to obey)
     */
    public RobotsResponse fetchRobots(String robotsUrl) {
        HttpUrl current = robotsUrl == null ? null : HttpUrl.parse(robotsUrl);
        List<HttpExchange> exchanges = new ArrayList<>(1);
        if (current == null) {
            return RobotsResponse.failed(robotsUrl, FailureKind.INVALID_URL, "robots.txt url \"" + robotsUrl
                    + "\" is not an absolute http or https URL", exchanges);
        }
        HttpUrl previous = null;
        for (int redirects = 0; ; redirects++) {
            long start = clock.millis();
            Wire wire = new Wire(capture);
            Request request = request(current, wire);
            Call call = newCall(request);
            try (Response response = call.execute()) {
                int status = response.code();
                if (!isRedirect(status)) {
                    CappedBody body = readBody(response, MAX_ROBOTS_BYTES);
                    if (capture) {
                        exchanges.add(exchange(wire, current, start, response, body));
                    }
                    LOG.debug("fetched robots.txt {}: HTTP {}, {} bytes", current, status, body.bytes().length);
                    return RobotsResponse.of(status, body.bytes(), current.toString(), exchanges);
                }
                if (capture) {
                    captureRedirect(wire, current, start, response, exchanges);
                }
                String location = response.header("Location");
                HttpUrl next = location == null ? null : current.resolve(location);
                if (redirects == MAX_ROBOTS_REDIRECTS) {
                    return RobotsResponse.unavailable(current.toString(), FailureKind.PROTOCOL, "robots.txt "
                            + robotsUrl + " redirected more than " + MAX_ROBOTS_REDIRECTS + " times (the last, from "
                            + current + ", to \"" + location + "\")", exchanges);
                }
                if (next == null) {
                    return RobotsResponse.unavailable(current.toString(), FailureKind.PROTOCOL, "robots.txt redirect "
                            + status + " from " + current + (location == null ? " has no Location"
                                    : " to \"" + location + "\" is not an http(s) URL"), exchanges);
                }
                previous = current;
                current = next;
            } catch (IOException e) {
                if (cancelled && call.isCanceled()) { // not a call timeout (see fetch)
                    return RobotsResponse.failed(current.toString(), FailureKind.CANCELLED, cancelled(current),
                            exchanges);
                }
                FetchResult.Failure failure = NetworkErrors.failure(e, current, fetch, 0, 0);
                LOG.debug("robots.txt {} failed: {}", current, failure.detail());
                if (failure.kind() == FailureKind.PRIVATE_ADDRESS) { // the host's pages are refused the same way
                    return RobotsResponse.unavailable(current.toString(), failure.kind(), (previous == null
                            ? "robots.txt " + current + " not fetched: "
                            : "robots.txt redirect from " + previous + " to " + current + " refused: ")
                            + failure.detail(), exchanges);
                }
                if (previous != null && failure.kind() == FailureKind.DNS) { // e.g. http://0x7f.1/, no address form
                    return RobotsResponse.unavailable(current.toString(), failure.kind(), "robots.txt redirect from "
                            + previous + " to " + current + " leads nowhere: " + failure.detail(), exchanges);
                }
                return RobotsResponse.failed(current.toString(), failure.kind(), failure.detail(), exchanges);
            } finally {
                calls.remove(call);
            }
        }
    }

    /**
     * Cancels every request in flight and every one made from now on: each ends with {@link FailureKind#CANCELLED}
     * (a response already read whole is not affected). For the end of a crawl; there is no undoing it.
     */
    public void cancelCalls() {
        cancelled = true; // before the sweep: a call registered after it sees the flag (see newCall)
        for (Call call : calls) {
            call.cancel();
        }
    }

    /** A call for {@code request}, registered for {@link #cancelCalls()}; the caller removes it when done. */
    private Call newCall(Request request) {
        Call call = clientFor(request.url()).newCall(request);
        calls.add(call);
        if (cancelled) {
            call.cancel();
        }
        return call;
    }

    private static String cancelled(HttpUrl url) {
        return "request for " + url + " cancelled: the crawl ended while it was in flight";
    }

    /** {@link #isParseable(String, List)} against the profile's {@code fetch.accept}. */
    public boolean isParseable(String contentType) {
        return isParseable(contentType, fetch.accept());
    }

    /**
     * Whether a Content-Type names a media type to parse: its type/subtype, without parameters and compared
     * case-insensitively, is one of {@code accept}. A missing (null) or empty Content-Type is not parseable.
     */
    public static boolean isParseable(String contentType, List<String> accept) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String mediaType = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim()
                .toLowerCase(Locale.ROOT);
        if (mediaType.isEmpty()) {
            return false;
        }
        for (String accepted : accept) {
            if (mediaType.equals(accepted.trim().toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Requests sent again at once, without counting as an attempt, because the pooled connection they went out
     * on had been closed by the server (see {@link StaleConnections}); since this fetcher was made.
     */
    public long reconnects() {
        return stale.reconnects();
    }

    /** Cancels calls in flight and closes idle connections. */
    @Override
    public void close() {
        client.dispatcher().cancelAll();
        client.dispatcher().executorService().shutdown();
        sweeper.close();
    }

    private static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    private long elapsed(long start) {
        return Math.max(0, clock.millis() - start);
    }

    /** The network interceptor: notes the IP address connected to and, when capturing, the request head sent. */
    private static Response watchTheWire(Interceptor.Chain chain) throws IOException {
        Wire wire = chain.request().tag(Wire.class);
        if (wire != null && chain.connection() != null) {
            InetSocketAddress socket = chain.connection().route().socketAddress();
            InetAddress address = socket.getAddress();
            wire.ip = address == null ? null : address.getHostAddress();
            if (wire.capture) {
                wire.requestHead = requestHead(chain.request());
            }
        }
        return chain.proceed(chain.request());
    }

    /** Where one request's network interceptor leaves what it saw: the IP address, and the request head. */
    private static final class Wire {
        final boolean capture;
        volatile String ip;
        volatile byte[] requestHead;

        Wire(boolean capture) {
            this.capture = capture;
        }
    }
}
