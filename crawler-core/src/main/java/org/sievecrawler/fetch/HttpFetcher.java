package org.sievecrawler.fetch;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import okhttp3.Call;
import okhttp3.Dispatcher;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.sievecrawler.link.SeedHosts;
import org.sievecrawler.profile.FetchConfig;
import org.sievecrawler.profile.LimitsConfig;
import org.sievecrawler.profile.PolitenessConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crawler's HTTP client: one {@link OkHttpClient} configuration (one per pool of connections: hosts are spread
 * over a few pools, see {@link PoolSweeper}) that makes single attempts, never follows redirects
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
 * to capture exchanges (for WARC output) keeps in each result's {@link HttpExchange} the request head OkHttp sent
 * and the response as it came off the socket: its sockets have a tap on their input, below OkHttp and above TLS
 * ({@link TappedSockets}), which copies each response's heads (and a chunked body, whose coding OkHttp removes);
 * the body is otherwise the one it reads ({@link Wire} says what is kept, and when a head is rebuilt instead). It
 * speaks HTTP/1.1 only, as HTTP/2 has no head in bytes to keep. One that does not capture taps no socket and keeps
 * nothing extra.
 *
 * <p>A head OkHttp reads but cannot make a response of (a negative status code or Content-Length, which make it
 * throw unchecked exceptions) is a {@link FailureKind#PROTOCOL} failure like any unreadable head (see
 * {@link Wire#watch}); when capturing, such a failure carries what came back ({@link CapturedResponse.Refused}).
 *
 * <p>Threads: safe for any number of fetcher threads; each call blocks its thread until the response is read or
 * a timeout fires. The sockets it holds open, in use and idle, stay within its {@link SocketBudget}
 * ({@code fetch.max-connections}, else derived from the threads and the process's file-descriptor limit): at most
 * {@link SocketBudget#inFlight} requests are on the wire at once (more threads wait for one to end), and before a
 * connection is opened, idle ones are closed, each the least recently used of its pool, to make room
 * ({@link PoolSweeper}).
 *
 * <p>A request that cannot open a socket because the process is out of file descriptors ({@code EMFILE}, "Too many
 * open files": the crawl's own doing, not the server's) is back-pressure, not a failure: the fetcher closes its idle
 * connections, waits and sends it ({@link DescriptorPressure})
 * again, until it goes out or the crawl cancels it; so no URL or host is failed for it, and no retry is spent. A
 * host name that fails to resolve for the same want is back-pressure too, not an unknown host ({@link DnsCache}).
 * Each wait is counted ({@link #descriptorWaits()}) and logged.
 *
 * <p>{@link #cancelCalls()} ends every request in flight, and every one made after it, with
 * {@link FailureKind#CANCELLED}: the crawl's way to end requests still running when it stops (a thread interrupt
 * would reach a request only between two reads, and would close pages.jsonl's channel if it came later).
 *
 * <p>Out of scope: retries and their backoff, following redirects (a page's: the engine; robots.txt's: the robots
 * package, one {@link #fetchAnyStatus} attempt per hop), politeness and robots.txt. {@code fetchMillis} is measured
 * with the injected clock.
 */
public final class HttpFetcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpFetcher.class);

    private final FetchConfig fetch;
    private final long maxPageBytes;
    private final Clock clock;
    private final boolean capture;
    /** The client for every request but those to a seed's host:port: its DNS refuses special-purpose ranges. */
    private final OkHttpClient client;
    /** {@link #client} on each shard's pool ({@link PoolSweeper#shardOf}), and with the seeds' DNS. */
    private final OkHttpClient[] clients;
    /** {@link #clients} with the DNS that lets the seeds' host names resolve to refused addresses. */
    private final OkHttpClient[] seedClients;
    private final AddressGuard guard;
    /** {@code fetch.headers}, sent with every request. */
    private final Headers extraHeaders;
    /** The connection pool, swept by a thread of its own (see {@link PoolSweeper}). */
    private final PoolSweeper sweeper;
    private final StaleConnections stale = new StaleConnections();
    /** Requests on the wire at most: {@link SocketBudget#inFlight}. */
    private final Semaphore onTheWire;
    private final SocketBudget budget;
    private final DescriptorPressure descriptors;
    /** The DNS cache below the guard (a guard given by a test may resolve through another). */
    private final DnsCache dns;
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

    /**
     * What a fetcher is built with besides the profile's {@code fetch} and {@code limits} groups.
     *
     * @param seedOrigins the seeds' hosts and origins ({@code host:port}): those may be on refused addresses even
     *     when {@code fetch.allow-private-addresses} is false, on those ports only
     * @param clock the source of "now" for Retry-After dates and for {@code fetchMillis}
     * @param captureExchanges whether each result keeps its exchange as it crossed the wire (for WARC output)
     * @param sockets the sockets the fetcher may hold open, and how long an idle one is kept (see
     *     {@link SocketBudget#of}); null for the budget of {@code fetch} with the default politeness
     * @param env where the proxy variables ({@code http_proxy}, {@code https_proxy}, {@code no_proxy}) are read
     *     when {@code fetch.proxy} is {@code none} (see {@link ProxyRoutes}); a proxy's host may resolve to a private
     *     address whatever {@code fetch.allow-private-addresses} says: the user named it
     */
    public record Settings(SeedHosts seedOrigins, Clock clock, boolean captureExchanges, SocketBudget sockets,
            Map<String, String> env) {
        /**
         * Settings whose seeds are given as origins, {@code host:port} ({@code [::1]:8080} for IPv6); a bare host (no
         * port) allows every port of it.
         */
        public Settings(Set<String> seedOrigins, Clock clock, boolean captureExchanges, SocketBudget sockets,
                Map<String, String> env) {
            this(SeedHosts.ofOrigins(seedOrigins), clock, captureExchanges, sockets, env);
        }

        /** A fetcher for these seeds on the system clock, capturing nothing, with the environment's proxy. */
        public static Settings of(Set<String> seedOrigins) {
            return new Settings(seedOrigins, Clock.systemUTC(), false, null, System.getenv());
        }

        /** As {@link #of}, capturing each exchange as it crossed the wire. */
        public static Settings capturing(Set<String> seedOrigins) {
            return new Settings(seedOrigins, Clock.systemUTC(), true, null, System.getenv());
        }
    }

    /** A fetcher with its own connection pool; {@link #close()} releases it. */
    public HttpFetcher(FetchConfig fetch, LimitsConfig limits, Settings settings) {
        this(fetch, limits, settings, ProxyRoutes.of(fetch, settings.env()), null, null);
    }

    /**
     * A fetcher whose connections are made by {@code sockets}, behind {@code guard}, without the environment's proxy,
     * within {@code budget} (null: the default one): for tests that watch the sockets.
     */
    static HttpFetcher watching(FetchConfig fetch, LimitsConfig limits, AddressGuard guard, Clock clock,
            boolean captureExchanges, SocketBudget budget, SocketFactory sockets) {
        Settings settings = new Settings(Set.<String>of(), clock, captureExchanges, budget, Map.of());
        return new HttpFetcher(fetch, limits, settings, ProxyRoutes.of(fetch, Map.of()), guard, sockets);
    }

    /** The one constructor: a null {@code guardOrNull} is the seeds' guard, null {@code sockets} the default. */
    private HttpFetcher(FetchConfig fetch, LimitsConfig limits, Settings settings, ProxyRoutes proxies,
            AddressGuard guardOrNull, SocketFactory sockets) {
        this.dns = DnsCache.ofSystem(fetch.dnsTtl(), fetch.dnsNegativeTtl());
        AddressGuard guard = guardOrNull != null ? guardOrNull
                : new AddressGuard(dns, fetch.allowPrivateAddresses(), settings.seedOrigins(),
                        proxies == null ? Set.of() : proxies.proxyHosts());
        boolean captureExchanges = settings.captureExchanges();
        this.budget = settings.sockets() != null ? settings.sockets()
                : SocketBudget.of(fetch, PolitenessConfig.defaults());
        Clock clock = settings.clock();
        this.fetch = fetch;
        this.maxPageBytes = limits.maxPageBytes();
        this.clock = clock;
        this.capture = captureExchanges;
        this.sweeper = new PoolSweeper(budget);
        this.onTheWire = new Semaphore(budget.inFlight());
        this.descriptors = new DescriptorPressure(budget, sweeper::evictAll);
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
        OkHttpClient built = builder
                .connectTimeout(fetch.connectTimeout())
                .readTimeout(fetch.readTimeout())
                .writeTimeout(fetch.readTimeout())
                .callTimeout(fetch.callTimeout())
                .followRedirects(false)
                .followSslRedirects(false)
                .retryOnConnectionFailure(false)
                .dispatcher(dispatcher)
                .connectionPool(sweeper.pool(0))
                .dns(guard)
                .addInterceptor(guard)
                .addInterceptor(stale::retry)
                .addNetworkInterceptor(stale::watch)
                .addNetworkInterceptor(Wire::watch)
                .build();
        this.client = captureExchanges ? TappedSockets.tapping(built) : built;
        this.clients = new OkHttpClient[sweeper.shards()];
        this.seedClients = new OkHttpClient[sweeper.shards()];
        for (int shard = 0; shard < clients.length; shard++) { // each shares the dispatcher and all but the pool
            clients[shard] = shard == 0 ? client : client.newBuilder().connectionPool(sweeper.pool(shard)).build();
            seedClients[shard] = clients[shard].newBuilder().dns(guard.forSeedOrigins()).build();
        }
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

    /**
     * The client for a request to {@code url}: the one on its host's pool, whose DNS lets seeds' hosts resolve
     * privately, or not.
     */
    private OkHttpClient clientFor(HttpUrl url) {
        int shard = sweeper.shardOf(url.host());
        return guard.isSeedOrigin(url) ? seedClients[shard] : clients[shard];
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
        return attempt(url, maxBytes, false);
    }

    /**
     * {@link #fetch(String)} made conditional on what an earlier fetch answered ({@code earlier}): with
     * {@code If-None-Match} and {@code If-Modified-Since}, so a server that finds the page unchanged answers 304, a
     * {@link FetchResult.Page} of status 304 without a body. A validator that cannot be sent as a header (the earlier
     * crawl's record is read from disk: hostile like any input; a control character, a non-ASCII one) is left out,
     * so the request is only less conditional, never refused.
     */
    public FetchResult fetch(String url, Validators earlier) {
        return attempt(url, maxPageBytes, false, false, earlier);
    }

    /**
     * One GET attempt, blocking, without following a redirect, that takes every status as the answer: a 429, 502, 503
     * or 504 is a {@link FetchResult.Page} like any other final response, its body read, not a retryable failure. For
     * robots.txt, whose status is what the crawl obeys (RFC 9309 section 2.3.1: a 4xx allows everything, a 5xx
     * nothing), followed hop by hop by the robots package. A body that cannot be read (up to {@code maxBytes}, after
     * decompression) is a failure without a status, as when no response came; a redirect's body is read only when
     * capturing, as by {@link #fetch(String, long)}.
     *
     * @return a {@link FetchResult.Page} for a final response, a {@link FetchResult.Redirect} for 301, 302, 303, 307
     *     and 308, or a {@link FetchResult.Failure} for a network error or an invalid URL
     */
    public FetchResult fetchAnyStatus(String url, long maxBytes) {
        return attempt(url, maxBytes, true);
    }

    /** Body bytes a check's GET reads at most: its status is what it is for. */
    static final long CHECK_BYTES = 64 * 1024;

    /**
     * Checks that {@code url} answers: one HEAD attempt, and where the server refuses HEAD (405 Method Not Allowed,
     * 501 Not Implemented) one GET reading at most {@link #CHECK_BYTES} of the body. For a link out of the crawl's
     * scope ({@code scope.check-external}); results as {@link #fetch(String)}'s (a retryable status is a failure to
     * retry, a redirect is not followed).
     */
    public FetchResult check(String url) {
        FetchResult head = attempt(url, 0, false, true);
        if (head instanceof FetchResult.Page page && (page.status() == 405 || page.status() == 501)) {
            return attempt(url, Math.min(CHECK_BYTES, maxPageBytes), false, false);
        }
        return head;
    }

    /** One attempt of {@link #fetch(String, long)}, or of {@link #fetchAnyStatus} when {@code anyStatus}. */
    private FetchResult attempt(String url, long maxBytes, boolean anyStatus) {
        return attempt(url, maxBytes, anyStatus, false);
    }

    /** One GET attempt, or a HEAD one when {@code head}. */
    private FetchResult attempt(String url, long maxBytes, boolean anyStatus, boolean head) {
        return attempt(url, maxBytes, anyStatus, head, Validators.NONE);
    }

    /** One GET attempt, or a HEAD one when {@code head}, conditional on {@code earlier}'s validators. */
    private FetchResult attempt(String url, long maxBytes, boolean anyStatus, boolean head, Validators earlier) {
        long start = clock.millis();
        HttpUrl parsed = url == null ? null : HttpUrl.parse(url);
        if (parsed == null) {
            return new FetchResult.Failure(FailureKind.INVALID_URL, 0,
                    "url \"" + url + "\" is not an absolute http or https URL", null, 0);
        }
        Wire wire = new Wire(capture, maxBytes);
        Request request = request(parsed, wire);
        if (head) {
            request = request.newBuilder().head().build();
        }
        if (earlier.any()) {
            request = conditional(request, earlier);
        }
        FetchResult result;
        Call call;
        try {
            onTheWire.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new FetchResult.Failure(FailureKind.CANCELLED, 0, cancelled(parsed), null, elapsed(start));
        }
        try {
            for (Duration wait = DescriptorPressure.WAIT_MIN; ; wait = DescriptorPressure.next(wait)) {
                call = newCall(request);
                try (Response response = call.execute()) {
                    result = toResult(response, parsed, start, wire, maxBytes, anyStatus);
                } catch (IOException e) {
                    if (!NetworkErrors.outOfDescriptors(e)) {
                        result = refusedOrFailed(NetworkErrors.failure(e, parsed, fetch, 0, elapsed(start)), wire,
                                parsed, start);
                    } else if (!cancelled && descriptors.await(parsed, wait)) {
                        continue;
                    } else { // the crawl ends while it waits: put back, as a request in flight is
                        result = new FetchResult.Failure(FailureKind.CANCELLED, 0, cancelled(parsed), null,
                                elapsed(start));
                    }
                } finally {
                    calls.remove(call);
                }
                break;
            }
        } finally {
            onTheWire.release();
        }
        // OkHttp's call timeout cancels the call too: only a cancelCalls() makes it CANCELLED (put back), while a
        // call that merely timed out stays a timeout (else it would be put back and retried without end)
        if (result instanceof FetchResult.Failure && cancelled && call.isCanceled()) { // whatever the exception said
            result = new FetchResult.Failure(FailureKind.CANCELLED, 0, cancelled(parsed), null, elapsed(start));
        }
        LOG.debug("fetched {}: {}", parsed, result);
        return result;
    }

    /** {@code request} with {@code earlier}'s validators as conditional headers, each one that is a valid header. */
    private static Request conditional(Request request, Validators earlier) {
        Request.Builder conditional = request.newBuilder();
        for (String[] header : new String[][] {{"If-None-Match", earlier.etag()},
                {"If-Modified-Since", earlier.lastModified()}}) {
            if (header[1] != null) {
                try {
                    conditional.header(header[0], header[1]);
                } catch (IllegalArgumentException e) {
                    LOG.debug("{}: {} left out: {}", request.url(), header[0], e.getMessage());
                }
            }
        }
        return conditional.build();
    }

    /**
     * A GET of {@code url} with the profile's extra headers, its User-Agent and {@code Accept-Encoding: gzip} (so OkHttp leaves the body
     * coded for {@link CappedBody} to inflate), carrying {@code wire} for the network interceptor.
     */
    private Request request(HttpUrl url, Wire wire) {
        return new Request.Builder().url(url).headers(extraHeaders).header("User-Agent", fetch.userAgent())
                .header("Accept-Encoding", "gzip").tag(Wire.class, wire).build();
    }

    /**
     * The result of {@code response}; with {@code anyStatus}, no status is retryable and a body that cannot be read is
     * thrown, to be a failure without a status.
     */
    private FetchResult toResult(Response response, HttpUrl url, long start, Wire wire, long maxBytes,
            boolean anyStatus) throws IOException {
        long ttfb = elapsed(start); // the call returns once the response headers are in
        int status = response.code();
        boolean redirect = isRedirect(status);
        boolean retryable = !anyStatus && (status == 429 || status == 502 || status == 503 || status == 504);
        boolean bodyMatters = !(redirect || retryable);
        CappedBody body = null;
        if (capture || bodyMatters) {
            try {
                body = readBody(response, maxBytes);
            } catch (IOException e) {
                if (anyStatus && bodyMatters) {
                    throw e; // no answer without its body: a failure without a status, as if no response came
                }
                if (bodyMatters) {
                    return NetworkErrors.failure(e, url, fetch, status, elapsed(start));
                } // else a redirect or retryable status all the same, only not archived
            }
        }
        HttpExchange exchange = capture && body != null ? wire.exchange(url, start, response, body) : null;
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
                body.truncated(), elapsed(start), wire.ip, response.headers(), exchange, ttfb);
    }

    /** The body up to {@code cap}, inflated when gzip-coded; kept as transferred too when capturing. */
    private CappedBody readBody(Response response, long cap) throws IOException {
        boolean gzip = "gzip".equalsIgnoreCase(response.header("Content-Encoding"));
        return CappedBody.read(response.body().source(), gzip, cap, capture);
    }

    /**
     * Requests sent again because the process was out of file descriptors when they opened a connection, since this
     * fetcher was made (each after a wait).
     */
    public long descriptorWaits() {
        return descriptors.waits();
    }

    /**
     * The DNS cache the fetcher resolves host names through ({@code fetch.dns-ttl}), below the address guard: what
     * it did for summary.json, and the addresses of hosts for politeness by address.
     */
    public DnsCache dns() {
        return dns;
    }

    /** The sockets this fetcher may hold open. */
    public SocketBudget sockets() {
        return budget;
    }

    /** Sockets open now (in use and idle) and being opened: at most {@link SocketBudget#total()}. */
    public int openSockets() {
        return sweeper.open();
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

    /**
     * {@code failure}, with the exchange of what came back when OkHttp refused it as an HTTP response (a
     * {@link FailureKind#PROTOCOL} failure before a response was made, with bytes received) and exchanges are
     * captured.
     */
    private FetchResult.Failure refusedOrFailed(FetchResult.Failure failure, Wire wire, HttpUrl url, long start) {
        if (!capture || failure.kind() != FailureKind.PROTOCOL) {
            return failure;
        }
        HttpExchange refused = wire.refused(url, start, failure.detail());
        return refused == null ? failure : new FetchResult.Failure(failure.kind(), failure.status(), failure.detail(),
                failure.retryAfter(), failure.fetchMillis(), refused);
    }

    private static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    private long elapsed(long start) {
        return Math.max(0, clock.millis() - start);
    }
}
